/* dsm.h -- the page-based distributed shared memory: the interface the
   cluster layer (cluster/) uses.  Home-based lazy release consistency with
   multiple writers (twins and diffs), write notices, first-touch homes.
   See ../shared/ARCHITECTURE.md.  Everything here is called outside signal
   context unless it says otherwise.  */

#ifndef OMPC_DSM_H
#define OMPC_DSM_H 1

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define GOMP_DSM_HIDDEN __attribute__ ((visibility ("hidden")))

/* Maps the shared segment (the executable's __ompc_shared_start..end
   region, remapped; the heap arenas; the thread stacks) at the same
   addresses on every rank, installs the fault handler, registers the DSM's
   transport handlers.  Called once after MPI_Init, before
   gomp_cl_transport_init.  */
extern void gomp_dsm_init (int rank, int nodes) GOMP_DSM_HIDDEN;
extern void gomp_dsm_fini (void) GOMP_DSM_HIDDEN;

/* A stack of SIZE bytes inside the segment (for rank 0's main and worker
   threads); its top pages, where glibc keeps the TCB and static TLS, are
   kept private, and a guard page sits below it.  */
extern void *gomp_dsm_stack_alloc (size_t size) GOMP_DSM_HIDDEN;

/* Release: sends this node's diffs to their homes and waits for them to be
   applied; returns in *NOTICES (malloc'ed, the caller frees) this node's
   write notices since its last release, and their byte length.  */
extern size_t gomp_dsm_release (void **notices) GOMP_DSM_HIDDEN;
/* Acquire: invalidates the pages named by the write notices of the other
   nodes (NOTICES of NODES nodes, as gathered by a barrier; this node's own
   entry is skipped).  */
extern void gomp_dsm_acquire (const void *const *notices,
			      const size_t *lens, int nodes) GOMP_DSM_HIDDEN;
/* Acquire without notices (a flush, a lock whose notices were lost):
   invalidates every cached page that is not homed here.  */
extern void gomp_dsm_acquire_all (void) GOMP_DSM_HIDDEN;

/* The shared heap (one arena per node, no messages to allocate).  */
extern void *gomp_dsm_malloc (size_t size) GOMP_DSM_HIDDEN;
extern void *gomp_dsm_memalign (size_t align, size_t size) GOMP_DSM_HIDDEN;
extern void gomp_dsm_free (void *ptr) GOMP_DSM_HIDDEN;
extern void *gomp_dsm_realloc (void *ptr, size_t size) GOMP_DSM_HIDDEN;
extern size_t gomp_dsm_usable_size (void *ptr) GOMP_DSM_HIDDEN;

/* An atomic at ADDR, with the meaning of gomp_cluster_ops.atomic
   (cluster.h): executed natively when the page is homed here (the write
   still yields a write notice), else at the page's home.  */
extern bool gomp_dsm_atomic (int op, void *addr, size_t size,
			     const void *operand, void *expected,
			     void *result, bool op_fetch, int memorder)
  GOMP_DSM_HIDDEN;

/* True if ADDR is inside the shared segment.  */
extern bool gomp_dsm_contains (const void *addr) GOMP_DSM_HIDDEN;

/* Statistics for OMPC_STATS=1, printed at shutdown.  */
extern void gomp_dsm_print_stats (void) GOMP_DSM_HIDDEN;

#endif
