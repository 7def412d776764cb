/* dsm.h -- the page-based distributed shared memory: the interface the
   cluster layer (cluster/) uses.  Home-based lazy release consistency with
   multiple writers (twins and diffs), write notices, first-touch homes.
   See docs/INTERNALS.md.  Everything here is called outside signal
   context unless it says otherwise.

   Files: segment.c (layout, environment, stacks, errors), meta.c (a
   block's lock, state and notice mark), fault.c (the SIGSEGV handler,
   making blocks accessible), fetch.c (fetching blocks from their homes,
   fetch-ahead in sequence, along strides and downwards), home.c (homes
   and first touch), migrate.c (homes that follow the writer),
   coherence.c (the protocol in overview), diff.c (diffs: encoding,
   batches, applying them), release.c (release, write notices), serve.c
   (serving fetches at the home), acquire.c (invalidation, prefetch,
   updates in place), push.c (a region's pushed blocks), atomic.c
   (atomics at the home), heap.c (the per-node arenas), wild.c (accesses
   to parts of the segment that hold nothing), report*.c (the sharing
   report, OMPC_REPORT: report.h); the transport is ../transport/
   (transport.h).  dsm-int.h lists what may run in signal context.
   Tests: testsuite/ompcluster.dsm/.

   Every thread that runs on a stack from the segment calls
   gomp_dsm_thread_init first (gomp_dsm_init does it for its caller);
   gomp_dsm_stack_alloc is for makecontext (entirely shared),
   gomp_dsm_pthread_stack_alloc for pthreads.  The DSM relies on the cluster's notice log (cluster/notices.c): a node's
   blobs must reach every later acquirer until the next barrier, which
   hands every node's blobs to every node.  */

#ifndef OMPC_DSM_H
#define OMPC_DSM_H 1

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define GOMP_DSM_HIDDEN __attribute__ ((visibility ("hidden")))

/* Where a block's home is: the first node to touch it, equal contiguous
   parts of every area, or blocks dealt round-robin.  */
enum gomp_dsm_home_policy { HOME_FIRST_TOUCH, HOME_BLOCK, HOME_CYCLIC };

/* The DSM's settings, the same on every node.  The cluster module takes
   them from the runtime's environment table (env.c: OMPC_SEGMENT_SIZE,
   OMPC_STACK_AREA, OMPC_DSM_BLOCK, OMPC_DSM_HOME, OMPC_DSM_PREFETCH,
   OMPC_DSM_EAGER, OMPC_DSM_MIGRATE), which holds their defaults and
   ranges.  */
struct gomp_dsm_config
{
  size_t segment_size;		/* The shared heap, 64M to 16T.  */
  size_t stack_area;		/* Each node's stacks, 64M to 1T.  */
  size_t block;			/* A power of two, the page size to 16M;
				   0: the page size.  */
  enum gomp_dsm_home_policy home;
  bool prefetch, eager, migrate;
};

/* Maps the shared segment (the executable's __ompc_shared_start..end
   region, remapped; the heap arenas; the thread stacks) at the same
   addresses on every rank, installs the fault handler, registers the DSM's
   transport handlers.  Called once after MPI_Init, before
   gomp_cl_transport_init.  A value of CFG out of its range is a fatal
   error.  */
extern void gomp_dsm_init (int rank, int nodes,
			   const struct gomp_dsm_config *cfg)
  GOMP_DSM_HIDDEN;
/* Marks the DSM shut down, after gomp_cl_transport_fini: a later fault
   (an exit handler touching shared memory) opens the node's local copy
   with a warning instead of sending a message.  Only the DSM's unit test
   calls it; the module's gomp_cl_finish does not.  */
extern void gomp_dsm_fini (void) GOMP_DSM_HIDDEN;

/* A stack of SIZE bytes inside the segment, for a context switched to
   with makecontext/swapcontext (rank 0's main): returns its lowest
   address; all of it is shared and a guard page sits below it.  Stacks
   are never freed.  A fatal error when the stack area is full.  */
extern void *gomp_dsm_stack_alloc (size_t size) GOMP_DSM_HIDDEN;
/* The same for a pthread (pthread_attr_setstack (attr, ADDR, SIZE)):
   glibc keeps the thread's TCB and static TLS at the top of the block, so
   the top GOMP_DSM_STACK_PRIVATE bytes are private memory, never
   protected or diffed.  The thread's first frames lie there too: a thread
   whose locals other nodes read must first move below them, e.g.
   alloca (GOMP_DSM_STACK_PRIVATE) in its start routine.  */
#define GOMP_DSM_STACK_PRIVATE (32 * 1024)
extern void *gomp_dsm_pthread_stack_alloc (size_t size) GOMP_DSM_HIDDEN;
/* Protection added to the stack area's blocks whenever they are
   accessible: PROT_EXEC when the program needs an executable stack
   (nested functions' trampolines; set by cluster/main.c before the first
   stack is allocated), 0 otherwise.  */
extern int gomp_dsm_stack_prot GOMP_DSM_HIDDEN;
/* Gives the calling thread a private alternate signal stack, so that the
   DSM's fault handler can run when the thread's own stack is a protected
   page of the segment.  Call it first thing in every thread that runs on a
   stack from the segment (gomp_dsm_init does it for its caller);
   harmless elsewhere and idempotent.  */
extern void gomp_dsm_thread_init (void) GOMP_DSM_HIDDEN;
/* The time the calling thread has spent in the DSM's fault handler so
   far (ns), faults on the program's shared memory only, less the time
   they waited for answers (which gomp_cl_thread_wait_ns counts).  */
extern uint64_t gomp_dsm_fault_time (void) GOMP_DSM_HIDDEN;

/* Release (at a barrier, a lock release, a region start): sends this
   node's diffs to their homes and waits for them to be applied; returns in
   *NOTICES (malloc'ed, the caller frees; NULL when the length is 0) this
   node's write notices since its last release, and their byte length.
   The notices are opaque bytes to the caller.  Correctness needs every
   blob a node released since the last barrier to reach every node that
   synchronises with it later (transitively), and every blob to reach
   every node at a barrier.  */
extern size_t gomp_dsm_release (void **notices) GOMP_DSM_HIDDEN;
/* Acquire (barrier, lock, region start): invalidates the pages named by
   the write notices NOTICES[I] of LENS[I] bytes, I < NODES; slot I == this
   node's rank is skipped (may be NULL).  Blobs may repeat.  Pages this
   node used since their last prefetch are fetched again before it
   returns (OMPC_DSM_PREFETCH): one round trip to each home concerned.
   QUIESCENT: no thread of this node runs program code until this returns
   (the inter-node part of a barrier): then pages this node keeps reading
   are updated in place instead, staying readable (OMPC_DSM_EAGER).  */
extern void gomp_dsm_acquire (const void *const *notices,
			      const size_t *lens, int nodes, bool quiescent)
  GOMP_DSM_HIDDEN;
/* Rank 0 at a region's start, right after its release: the contents of
   the stack blocks homed here that other nodes fetched and that this
   release announced (at most GOMP_DSM_PUSH_MAX: the data block of the
   region and the master's locals it points to, which every node reads
   first thing), in a malloc'ed buffer (*PUSH, the caller frees; NULL
   when the length returned is 0).  Every other node will hold them: the
   next release announces them again.  */
#define GOMP_DSM_PUSH_MAX 4
/* Copysets are 64-bit masks.  */
#define GOMP_DSM_MAX_NODES 64
/* Causality through fetched blocks.  A home labels every block it serves
   with the number of its last release (gomp_dsm_released: releases that
   announced something, counted as the cluster's log numbers them): what
   it serves holds nothing newer.  A node that receives a label newer
   than the releases of that node it has acquired (say, a flag written
   after some data) must acquire them before the block is used, or it
   could read the flag and then its stale copy of the data.  The DSM
   records the highest label per node (gomp_dsm_need) and calls
   GOMP_DSM_CATCH_UP at the end of a fault (IN_FAULT: signal context, no
   prefetch); the cluster layer calls it after its acquires, and pulls
   from every node whose label it has not acquired yet (cluster/pull.c),
   which sets the hook before the first fetch.  Diff batches carry the
   number of the release that will announce them, and a home labels what
   it serves with the highest it holds from each node too (a vector of
   one label per node).  */
extern uint64_t gomp_dsm_released GOMP_DSM_HIDDEN;
extern void (*gomp_dsm_catch_up) (bool in_fault) GOMP_DSM_HIDDEN;
/* The inter-node part of a barrier acquired every release of node R up
   to SEQ[R]: the diffs staged here from those releases become visible
   (dsm/stage.c; quiescent, after the barrier's gomp_dsm_acquire).  */
extern void gomp_dsm_acquired_upto (const uint64_t *seq) GOMP_DSM_HIDDEN;
/* Label SEQ from NODE's serve: the highest one per node, 0 when none.  */
extern uint64_t *gomp_dsm_need GOMP_DSM_HIDDEN;
/* The releases of each node this node has acquired, all of their
   invalidations done (the cluster layer's, set with the hook): a fault
   whose fetch is newer keeps what it fetched inaccessible until it
   caught up, so that no other thread of the node reads it first.  */
extern const uint64_t *gomp_dsm_seen GOMP_DSM_HIDDEN;
extern size_t gomp_dsm_push_pack (void **push) GOMP_DSM_HIDDEN;
/* gomp_dsm_acquire of a region's start (not quiescent) with the blocks
   PUSH (of PUSH_LEN bytes, from gomp_dsm_push_pack on node ORIGIN)
   installed as read-only copies instead of invalidated: no round trip
   to a home that is already running the region.  */
extern void gomp_dsm_acquire_push (const void *const *notices,
				   const size_t *lens, int nodes,
				   const void *push, size_t push_len,
				   int origin) GOMP_DSM_HIDDEN;
/* After a barrier's release and acquire: whether a node that had fetched
   one of the stack blocks homed here that the release announced (as
   written: stack blocks are never write-protected at home) has not
   fetched it again yet.  The others update such blocks in place at the
   barrier when they keep reading them (a region's data block, the
   master's locals), and a home that already computes would answer late;
   the barrier serves a little longer while this is true.  */
extern bool gomp_dsm_refetch_pending (void) GOMP_DSM_HIDDEN;
/* For a pull's answer (a handler): the blocks homed here that this node
   wrote since its last release (its own threads' writes and atomics,
   which other nodes can read already), in a malloc'ed array *BLOCKS (NULL
   when none); returns their number, or -1 when a release or an acquire
   runs on this node now (try again later).  */
extern int gomp_dsm_unreleased (uint32_t **blocks) GOMP_DSM_HIDDEN;
/* At a barrier, right after its release: this home's proposals to hand
   blocks to the node that writes them most (migrate.c), in a malloc'ed
   buffer (*BUF, the caller frees; NULL when the length returned is 0),
   opaque to the caller.  */
extern size_t gomp_dsm_handoff_pack (void **buf) GOMP_DSM_HIDDEN;
/* Every node, at the same barrier, before its acquire: applies the
   proposals RECS[H] (RECS_LENS[H] bytes; H < nodes, this node's
   included) given the barrier's write notices: NNOTICES blobs
   NOTICES[I] of NOTICE_LENS[I] bytes released by node NOTICE_NODES[I],
   this node's own included.  Every node given the same arguments decides
   the same.  Called at every barrier: a home also learns from the
   notices who wrote its blocks, for its next proposals.  */
extern void gomp_dsm_handoff_apply (const void *const *recs,
				    const size_t *rec_lens,
				    const void *const *notices,
				    const size_t *notice_lens,
				    const int *notice_nodes, int nnotices)
  GOMP_DSM_HIDDEN;
/* Acquire without notices (a flush, a lock whose notices were lost):
   invalidates every cached page that is not homed here.  */
extern void gomp_dsm_acquire_all (void) GOMP_DSM_HIDDEN;

/* The shared heap (one arena per node, no messages to allocate).  */
extern void *gomp_dsm_malloc (size_t size) GOMP_DSM_HIDDEN;
/* Zeroes only what may be non-zero: memory of the arena never handed out
   before is zero on every node and stays untouched, so that the first
   touch still chooses its home.  NULL on overflow.  */
extern void *gomp_dsm_calloc (size_t n, size_t size) GOMP_DSM_HIDDEN;
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
/* What ADDR is (cluster.h's GOMP_CLUSTER_ADDR_*): outside the segment,
   shared with every node, a private part of it (a thread stack's
   private top, on this node), in the DSM's writable views of the
   segment, which the program never names, or a guard block of one of
   this node's thread stacks, which no node may access.  */
#define GOMP_DSM_ADDR_OUTSIDE 0
#define GOMP_DSM_ADDR_SHARED 1
#define GOMP_DSM_ADDR_PRIVATE 2
#define GOMP_DSM_ADDR_VIEW 3
#define GOMP_DSM_ADDR_GUARD 4
extern int gomp_dsm_addr_kind (const void *addr) GOMP_DSM_HIDDEN;

/* Statistics for OMPC_STATS=1, printed at shutdown.  */
extern void gomp_dsm_print_stats (void) GOMP_DSM_HIDDEN;

#endif
