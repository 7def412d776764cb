/* dsm-int.h -- the DSM's private declarations, grouped by defining file.

   Memory.  The DSM manages "blocks" of OMPC_DSM_BLOCK bytes (a multiple of
   the page size) in two areas: the executable's shared region
   (__ompc_shared_start..end, remapped in place onto a memfd) and the
   segment at a fixed address (the heap arenas, one per node, then the
   stack area, one part per node).  Blocks are numbered from 0 across both
   areas.  Each area is mapped twice: the application view, whose
   protection follows the block's state, and a writable view of the same
   memfd where pages are installed, diffs applied and atomics run.

   Per block (private to each node): a 32-bit word META (state, lock and
   flags; also a futex word), the home node (HOME, -1 while unknown), the
   copyset at the home (COPYSET: nodes that fetched the block), a twin slot
   in a private area.

   States: INVALID (no access), READ (a clean non-home copy), WRITE (a
   non-home copy with a twin, in the dirty list), HOME_RO (home, but some
   node caches it: the home's writes fault to produce a notice), HOME_RW
   (home, no protection), UNMANAGED (guard pages and private stack tops),
   PREFETCHED (a clean non-home copy that an acquire fetched again because
   this node used it before; still inaccessible, so that the first access
   shows it is used: that fault opens the whole prefetched run at once,
   with no message).  A READ block may also be updated in place by a
   barrier's acquire while no thread of the node runs (M_LEFT below).

   Signal context (fault.c's handler, and the fetches and block words of
   fetch.c and meta.c that it uses): block locks (atomics and futex),
   memcpy, mprotect, the lock-free appends to the notice and dirty lists,
   atomic statistics, and gomp_cl_call, whose wait drives MPI and mallocs
   and frees its messages (transport/call.c, "Signal context", says why
   that is safe there).  The DSM's own code there uses no stdio and takes
   no mutex, and reaches MPI and malloc only through gomp_cl_call.  */

#ifndef OMPC_DSM_INT_H
#define OMPC_DSM_INT_H 1

#define _GNU_SOURCE 1
#include "dsm.h"
#include "cluster.h"
#include "transport/transport.h"
#include <pthread.h>
#include <stdarg.h>
#include <stdint.h>

#define H GOMP_DSM_HIDDEN

enum
{
  BS_INVALID = 0,
  BS_READ = 1,
  BS_WRITE = 2,
  BS_HOME_RO = 3,
  BS_HOME_RW = 4,
  BS_UNMANAGED = 5,
  BS_PREFETCHED = 6
};

/* Blocks one page request may ask for (fetch-ahead, prefetch).  */
#define GOMP_DSM_GET_MAX 1024
/* Or'ed into a run's count in a page request of several runs: the
   requester does not know the home of the run's first block and guessed
   (fetch.c, home_may_be); served only when it is the home's, and then
   as any other run, else counted 0 (serve.c).  */
#define GOMP_DSM_GET_GUESS 0x80000000u

#define M_STATE 0x7u
#define M_LOCK 0x8u
#define M_WAITERS 0x10u
#define M_NOTICED 0x20u		/* In the notice list of generation
				   M_GEN (home: written since the last
				   release, no protection needed).  */
#define M_CACHED 0x40u		/* In the cached list.  */
#define M_USED 0x80u		/* Non-home: fetched (fetched ahead of one
				   of many streams: written), or a
				   prefetched run opened, since its last
				   prefetch; an acquire that invalidates
				   it prefetches it again.  */
#define M_GEN_SHIFT 8
#define M_GEN 0xff00u		/* Low bits of a list generation.  */
#define M_IDLE_SHIFT 16
#define M_IDLE 0x70000u		/* WRITE blocks: releases in a row that
				   found no change, one in KEEP_STEP <<
				   M_KEEP counted; home blocks with a twin:
				   releases in a row that found no change
				   (release.c).  */
#define M_EXPIRED 0x80000u	/* Went READ because M_IDLE ran out, and
				   not written since.  */
#define M_KEEP_SHIFT 29
#define M_KEEP 0x60000000u	/* Raised by a write fault on an
				   M_EXPIRED block soon after it expired,
				   up to KEEP_MAX; lowered by one long
				   after (gomp_dsm_rewritten).  */
#define KEEP_MAX 3
/* Eager updates (acquire.c, OMPC_DSM_EAGER): a used non-home block
   that a barrier's acquire would invalidate is instead updated in place,
   still readable, while its budget M_LEFT lasts; then it is prefetched
   (inaccessible) once, to see whether it is still used.  Each use seen
   by a fault raises its level M_LVL (budget 2^level - 1), a prefetch
   nobody touched resets it.  */
#define M_LEFT_SHIFT 20
#define M_LEFT 0x1f00000u		/* Eager updates left.  */
#define M_LVL_SHIFT 25
#define M_LVL 0xe000000u		/* Level, 0 to EAGER_LVL_MAX.  */
#define EAGER_LVL_MAX 4
#define M_INPLACE 0x10000000u	/* Being updated in place by an acquire
				   (locked, still accessible).  */
#define M_HTWIN 0x80000000u	/* Home block with a twin: its twin slot
				   holds what this node released of it,
				   which is what the home serves (see
				   gomp_dsm_htwin_make).  */

struct gomp_dsm_area
{
  char *base;			/* Application view.  */
  char *wview;			/* Writable view.  */
  size_t size;
  uint32_t first, nblocks;	/* Global block numbers.  */
  uint32_t part;		/* Blocks per placement part (HOME_BLOCK).  */
};

/* A list of block numbers appended to lock-free (also in signal context)
   and taken whole by one thread at a time: two buffers used in turn, the
   generation (each take starts a new one; buffer = generation & 1) and the
   count packed in one word.  */
struct gomp_dsm_list
{
  uint64_t cur;			/* Generation << 32 | count.  */
  uint32_t cap;
  uint32_t *buf[2];
};

struct gomp_dsm_stats
{
  uint64_t read_faults, write_faults, home_faults, fetches, fetch_bytes;
  uint64_t diffs, diff_bytes, notices_sent, invalidations, home_lookups;
  uint64_t remote_atomics, remote_frees, prefetches, prefetch_opens;
  uint64_t eager_updates;	/* Blocks updated in place (M_LEFT).  */
  uint64_t pushed;		/* Blocks installed from a region's start.  */
  uint64_t homes_moved;		/* Hand-offs applied (migrate.c).  */
  /* Time in gomp_dsm_release, gomp_dsm_acquire, the prefetches of the
     acquires, and serving page requests (nanoseconds).  */
  uint64_t release_ns, acquire_ns, prefetch_ns, serve_ns;
};

struct gomp_dsm
{
  int rank, nodes;
  size_t bsize;
  unsigned bshift;
  enum gomp_dsm_home_policy policy;
  bool prefetch;		/* OMPC_DSM_PREFETCH.  */
  bool eager;			/* OMPC_DSM_EAGER.  */
  struct gomp_dsm_area area[2];	/* 0: globals (may be empty), 1: segment.  */
  uint32_t nblocks;
  uint32_t *meta;
  int16_t *home;
  uint64_t *copyset;
  char *twins;			/* Block B's twin at twins + B * bsize.  */
  uint16_t *expired;		/* Low bits of the release that made block
				   B READ for M_IDLE running out (M_EXPIRED,
				   release.c).  */
  struct gomp_dsm_list notices, dirty;
  struct gomp_dsm_list stack_copied;	/* Stack blocks homed here that
					   another node holds (with a twin,
					   gomp_dsm_stwin_make).  */
  struct gomp_dsm_list htwins;	/* Home blocks with a twin (M_HTWIN; a
				   dropped one may linger until the next
				   release takes the list).  */
  uint32_t *cached;		/* Blocks ever fetched (M_CACHED).  */
  uint32_t ncached;
  /* Segment layout.  */
  char *seg_base;
  size_t seg_size, arena_size, stack_part;
  char *heap_base, *stack_base;
  struct gomp_dsm_stats st;
};

extern struct gomp_dsm gomp_dsm H;

#define DSM_STAT(field, n) \
  __atomic_add_fetch (&gomp_dsm.st.field, (n), __ATOMIC_RELAXED)

static inline uint32_t
gomp_dsm_state (uint32_t b)
{
  return __atomic_load_n (&gomp_dsm.meta[b], __ATOMIC_ACQUIRE) & M_STATE;
}

/* Adds B to the cached list (blocks ever fetched) the first time a copy
   of it is held here.  Signal-safe.  */
static inline void
gomp_dsm_mark_cached (uint32_t b)
{
  if (!(__atomic_fetch_or (&gomp_dsm.meta[b], M_CACHED, __ATOMIC_ACQ_REL)
	& M_CACHED))
    gomp_dsm.cached[__atomic_fetch_add (&gomp_dsm.ncached, 1,
					__ATOMIC_ACQ_REL)] = b;
}

/* segment.c: areas, the segment, stacks, errors.  */
/* The block holding ADDR, or UINT32_MAX outside both areas.  */
extern uint32_t gomp_dsm_block (const void *addr) H;
extern char *gomp_dsm_block_addr (uint32_t b) H;
extern char *gomp_dsm_block_wview (uint32_t b) H;
extern size_t gomp_dsm_block_len (uint32_t b) H;
/* True for blocks of the stack area (homed at their node, never
   write-protected there: see release.c).  */
extern bool gomp_dsm_stack_block (uint32_t b) H;
extern void gomp_dsm_fatal (const char *fmt, ...)
  __attribute__ ((format (printf, 1, 2), noreturn)) H;
/* Signal-safe: writes "ompcluster: rank R: dsm: MSG", followed by
   " (errno ERR)" when ERR is not 0, and aborts.  */
extern void gomp_dsm_fatal_sig (const char *msg, int err)
  __attribute__ ((noreturn)) H;
/* mprotect on the application view of blocks [B, B+N) with a clear error
   (ENOMEM: vm.max_map_count).  Signal-safe.  */
extern void gomp_dsm_protect (uint32_t b, uint32_t n, int prot) H;
/* Maps the pages of [ADDR, ADDR+LEN) writable in one call, before they
   are written page by page (segment.c).  A hint: does nothing where the
   kernel cannot.  Signal-safe.  */
extern void gomp_dsm_populate (void *addr, size_t len) H;
extern void gomp_dsm_list_init (struct gomp_dsm_list *l, uint32_t cap) H;
/* Appends B (signal-safe).  */
extern void gomp_dsm_list_add (struct gomp_dsm_list *l, uint32_t b) H;
/* Takes the whole list: returns the buffer and its count in *N; the caller
   calls gomp_dsm_list_done (L, BUF, N) when finished with it.  */
extern uint32_t *gomp_dsm_list_take (struct gomp_dsm_list *l, uint32_t *n) H;
extern void gomp_dsm_list_done (struct gomp_dsm_list *l, uint32_t *buf,
				uint32_t n) H;
/* Bytes of this node's stack part handed out (stacks and their guard
   pages).  Signal-safe.  */
extern size_t gomp_dsm_stack_used (void) H;

static inline char *
gomp_dsm_twin (uint32_t b)
{
  return gomp_dsm.twins + ((size_t) b << gomp_dsm.bshift);
}

/* Stack twins.  A node's stack blocks are always writable at their home
   (glibc writes to stacks with every signal blocked: coherence.c), so
   nothing tells which of them its threads wrote.  A stack block that
   another node fetched gets a twin when it is served (and when pushed
   with a region's start), which holds what the others were given; each
   release compares the block with it and announces only a changed block
   (release.c), whose twin and copyset it then drops.  Diffs and atomics
   applied meanwhile go to both copies (M_HTWIN).  The caller holds B's
   lock, and B is listed in stack_copied before its twin is made (the
   order of gomp_dsm_htwin_make, which makes its twin with this).
   Signal-safe.  */
static inline void
gomp_dsm_stwin_make (uint32_t b)
{
  if (__atomic_load_n (&gomp_dsm.meta[b], __ATOMIC_ACQUIRE) & M_HTWIN)
    return;
  /* Read through the application view where it is readable (a home's
     block, not a stack's): its pages are mapped there already, by the
     writes that made them, while the writable view's may not be yet
     (a first access to a page of one view costs a fault: ~8 us on the
     project's virtual machines).  */
  uint32_t st = gomp_dsm_state (b);
  const char *from = (st == BS_HOME_RW || st == BS_HOME_RO)
		     && !gomp_dsm_stack_block (b)
		     ? gomp_dsm_block_addr (b) : gomp_dsm_block_wview (b);
  __builtin_memcpy (gomp_dsm_twin (b), from, gomp_dsm_block_len (b));
  __atomic_fetch_or (&gomp_dsm.meta[b], M_HTWIN, __ATOMIC_RELEASE);
}

/* Home twins.  A home's own writes become visible to other nodes only
   with its release, as every other node's do: a home block that another
   node fetches has a twin, which holds what this node last released of
   it, and a fetch is served from the twin.  The twin is made by the
   first serve of a writable home block, or by the first write to a
   write-protected one (HOME_RO); from then on the block stays writable,
   and each release compares it with its twin: a changed block is
   announced and its twin becomes the new snapshot (release.c, before
   the release takes its diffs).  A twin that several releases found
   unchanged is dropped and the block write-protected again.  Diffs and
   atomics applied meanwhile go to both copies.  The caller holds B's
   lock.  Signal-safe.

   The block joins the list of twins before its twin is copied: a serve
   makes the twin while this node's threads go on writing, and a write
   that missed the copy must be announced by the next release, even one
   that took the list while this serve was still copying (snapshot_home
   then waits for B's lock, which the serve holds until the twin is
   made).  Listed after the copy, a block could miss that release, and
   another node keep a copy without that write past the barrier.  */
static inline void
gomp_dsm_htwin_make (uint32_t b)
{
  if (__atomic_load_n (&gomp_dsm.meta[b], __ATOMIC_ACQUIRE) & M_HTWIN)
    return;
  gomp_dsm_list_add (&gomp_dsm.htwins, b);
  gomp_dsm_stwin_make (b);
}

static inline bool
gomp_dsm_htwin (uint32_t b)
{
  return __atomic_load_n (&gomp_dsm.meta[b], __ATOMIC_ACQUIRE) & M_HTWIN;
}

static inline void
gomp_dsm_htwin_drop (uint32_t b)
{
  __atomic_fetch_and (&gomp_dsm.meta[b], ~(M_HTWIN | M_IDLE),
		      __ATOMIC_RELEASE);
}

/* The label a diff batch made now starts with: the number of the
   release that announces it (release.c).  With gomp_dsm_rel_mutex.  */
extern uint64_t gomp_dsm_diff_next (void) H;

/* After an atomic changed LEN bytes at offset OFF of home block B: the
   twin gets them too (an atomic is visible at once).  */
static inline void
gomp_dsm_htwin_update (uint32_t b, size_t off, size_t len)
{
  if (gomp_dsm_htwin (b))
    __builtin_memcpy (gomp_dsm_twin (b) + off,
		      gomp_dsm_block_wview (b) + off, len);
}

/* At a home: per block, the release of this node its served bytes
   come from (the one that last announced or snapshotted it; for a
   block whose twin a serve made, the last release then): the home's own
   entry in the label of a reply (serve.c), so that a block this node
   did not change since is served with the older label, which asks the
   requester for no catch-up.  */
extern uint64_t *gomp_dsm_blk_rel H;

/* At a home: the highest label of a diff batch from each node staged
   here (dsm.h: the release that announces it).  */
extern uint64_t *gomp_dsm_diff_label H;
/* Bytes of a label vector (serve.c).  */
#define GOMP_DSM_LABEL_LEN ((size_t) gomp_dsm.nodes * 8)

/* True in a fault handler's catch-up (dsm.h): its acquire does not
   prefetch (signal context).  */
extern __thread bool gomp_dsm_in_catch_up H;

/* A block from NODE came with LABEL (dsm.h, gomp_dsm_need).
   Signal-safe.  */
static inline void
gomp_dsm_need_one (int node, uint64_t label)
{
  uint64_t cur = __atomic_load_n (&gomp_dsm_need[node], __ATOMIC_RELAXED);
  while (label > cur
	 && !__atomic_compare_exchange_n (&gomp_dsm_need[node], &cur, label,
					  true, __ATOMIC_RELEASE,
					  __ATOMIC_RELAXED))
    ;
}

/* A block came with the label vector LABEL (GOMP_DSM_LABEL_LEN bytes,
   maybe unaligned).  Signal-safe.  */
static inline void
gomp_dsm_need_label (const void *label)
{
  for (int r = 0; r < gomp_dsm.nodes; r++)
    {
      uint64_t l;
      __builtin_memcpy (&l, (const char *) label + 8 * r, 8);
      gomp_dsm_need_one (r, l);
    }
}

/* wild.c: accesses to parts of the segment that hold nothing.  All
   signal-safe.  */
/* False when this node knows that block B holds nothing (its own heap
   above the high-water mark, its own stack part where no thread's stack
   is, the segment's tail); true otherwise, also when another node
   knows.  */
extern bool gomp_dsm_allocated_here (uint32_t b) H;
/* At B's home: false for a stack block of this node that no thread's
   stack holds (unused, a guard page, a private top).  */
extern bool gomp_dsm_servable (uint32_t b) H;
/* The fatal error of an access at ADDR to memory that holds nothing:
   names the address, the rank and the thread, ends the job with the
   status of a segmentation fault.  */
extern void gomp_dsm_wild (const void *addr) __attribute__ ((noreturn)) H;

/* meta.c: block locks, states, write notice marks, eager levels.  All
   signal-safe.  */
extern void gomp_dsm_lock (uint32_t b) H;
extern bool gomp_dsm_trylock (uint32_t b) H;
extern void gomp_dsm_unlock (uint32_t b) H;
extern void gomp_dsm_set_state (uint32_t b, uint32_t state) H;

/* The low bits of the current generation of the notice list, as a
   mark's M_GEN holds them.  */
static inline uint32_t
gomp_dsm_notice_gen (void)
{
  return (__atomic_load_n (&gomp_dsm.notices.cur, __ATOMIC_ACQUIRE) >> 32)
    & (M_GEN >> M_GEN_SHIFT);
}

extern void gomp_dsm_notice (uint32_t b) H;
/* True if B is in the current generation of the notice list.  */
extern bool gomp_dsm_noticed (uint32_t b) H;
/* After a release took generation GEN: B leaves the notice set unless
   generation GEN + 1 noticed it meanwhile.  Returns true if it cleared
   a mark (false: a fetch served meanwhile did it, see serve.c).  */
extern bool gomp_dsm_unnotice (uint32_t b, uint32_t gen) H;
/* A fault found B used (fetched it, or opened it prefetched): raises its
   eager level and refills its budget (the caller holds B's lock, or B is
   locked by the run being opened).  Signal-safe.  */
extern void gomp_dsm_mark_used (uint32_t b) H;
/* release.c: meta word M of block B, written again (a write fault):
   after B expired (M_EXPIRED), without that flag and with its M_KEEP
   raised or lowered by how soon; else M.  Signal-safe.  */
extern uint32_t gomp_dsm_rewritten (uint32_t b, uint32_t m) H;

/* fetch.c: fetching blocks from their homes.  */
/* Fetches B from its home H into the writable view for a fault (the
   caller holds B's lock), with the blocks fetched ahead of it; LEN is
   B's length, WRITE true for a write fault.  Returns the number of
   blocks fetched, 0 when the home says B holds nothing; the caller
   unlocks blocks B+1 and up.  Signal-safe.  */
extern uint32_t gomp_dsm_fetch (uint32_t b, int h, size_t len,
				bool write) H;

/* fault.c: the fault handler, and making blocks accessible.  */
/* Makes B accessible for a read or a write on this node (the caller holds
   B's lock).  False, with B unchanged, when B holds nothing (its manager
   or its home says so: wild.c).  Signal-safe.  */
extern bool gomp_dsm_make_access (uint32_t b, bool write) H;
/* True when a label this node received is newer than what it acquired
   from that node (dsm.h): what it fetched must stay inaccessible until
   a thread caught up.  Signal-safe.  */
extern bool gomp_dsm_behind (void) H;
extern void gomp_dsm_fault_init (void) H;
extern void gomp_dsm_fault_fini (void) H;


/* home.c: homes.  */
#define MANAGER_GROUP 64	/* Blocks per manager range.  */
/* The node that knows B's home under first touch (its manager).  */
extern int gomp_dsm_manager (uint32_t b) H;
/* The home of B, asking its manager under first touch (the caller holds
   B's lock; it may become the home).  Signal-safe.  */
extern int gomp_dsm_home (uint32_t b) H;
/* The stream of first touches that ended at B now ends at END (a run of
   home blocks opened at once).  */
extern void gomp_dsm_touch_extend (uint32_t b, uint32_t end) H;
extern void gomp_dsm_home_init (void) H;

/* migrate.c: homes that follow the writer.  */
extern void gomp_dsm_migrate_init (bool on) H;
extern void gomp_dsm_migrate_register (void) H;

/* stage.c: diffs kept aside at their home until it acquires them.  The
   caller holds block B's lock, except for the _list and _all forms.  */
extern void gomp_dsm_stage_init (void) H;
extern bool gomp_dsm_staged (uint32_t b) H;
/* A diff from SRC, which its release LABEL announces.  */
extern void gomp_dsm_stage_add (uint32_t b, int src, uint64_t label,
				uint32_t form, const unsigned char *p,
				size_t len) H;
/* Applies B's staged diffs to the block's copy at DST.  */
extern void gomp_dsm_stage_copy (uint32_t b, char *dst) H;
/* Applies them to the block (and its home twin), and forgets them.  */
extern void gomp_dsm_stage_apply (uint32_t b) H;
extern void gomp_dsm_stage_apply_list (const uint32_t *v, uint32_t n) H;
/* Every block's staged diffs of releases up to LIMIT[node] (NULL:
   all).  */
extern void gomp_dsm_stage_apply_all (const uint64_t *limit) H;

/* coherence.c: the protocol's start (registers the handlers).  */
extern void gomp_dsm_coherence_init (void) H;

/* diff.c: diffs, and block lists.  */
/* Applies one block's diff body [P, END) in form FORM to the block's
   copy at W of BLEN bytes; false when it is malformed.  */
extern bool gomp_dsm_apply_diff (char *w, size_t blen, uint32_t form,
				 const unsigned char *p,
				 const unsigned char *end) H;
extern int gomp_dsm_cmp_u32 (const void *a, const void *b) H;
/* Sorts V[0..N) and removes duplicates; returns the new count.  */
extern uint32_t gomp_dsm_sort_unique (uint32_t *v, uint32_t n) H;
/* Batches in flight to homes; DIFF_FLIGHT at most.  */
#define DIFF_FLIGHT 8
struct diff_buf
{
  char *p;
  size_t len, cap;
};
/* The diffs of one release or acquire: a buffer per home being filled,
   and the batches sent (a ring of up to DIFF_FLIGHT), each buffer kept
   until its home has answered.  */
struct diff_out
{
  struct diff_buf *d;
  unsigned head, n;
  char *p[DIFF_FLIGHT];
  struct gomp_cl_pending w[DIFF_FLIGHT];
};
/* Starts O empty, with a buffer per home.  */
extern void gomp_dsm_diff_out_init (struct diff_out *o) H;
/* Adds the diff of block B (locked, WRITE) to O when B changed since its
   twin, and returns whether it did (the twin then holds what was
   sent); a home's batch goes once it is long enough.  The caller holds
   gomp_dsm_rel_mutex.  */
extern bool gomp_dsm_diff_add (struct diff_out *o, uint32_t b) H;
/* Sends every home the rest of its diffs and waits until all of them
   are applied; frees O's buffers.  */
extern void gomp_dsm_diff_finish (struct diff_out *o) H;
extern void gomp_dsm_diff_init (void) H;

/* serve.c: page requests at the home.  */
extern void gomp_dsm_serve_init (void) H;

/* release.c.  Held across a release, an acquire's invalidation and a
   push: one at a time per node.  */
extern pthread_mutex_t gomp_dsm_rel_mutex H;
/* The stack blocks the last release announced because other nodes had
   fetched them (gomp_dsm_push_pack); with gomp_dsm_rel_mutex.  */
extern uint32_t gomp_dsm_push_cand[GOMP_DSM_PUSH_MAX] H;
extern uint32_t gomp_dsm_push_ncand H;

/* push.c: installs block B of node ORIGIN with the contents DATA as a
   read-only copy; false when this node is writing it (it is then
   invalidated as usual).  The caller holds gomp_dsm_rel_mutex.  */
extern bool gomp_dsm_install_pushed (uint32_t b, int origin,
				     const char *data) H;

/* heap.c.  */
extern void gomp_dsm_heap_init (void) H;
/* heap.c: the blocks this node freed in other arenas since the last call
   (malloc'ed array in *TAKEN, NULL when none), taken when a release
   starts; and their sending to their owners, with the array's freeing,
   once that release (number LABEL) is done.  */
extern size_t gomp_dsm_frees_take (uint64_t **taken) H;
extern void gomp_dsm_frees_send (uint64_t *taken, size_t n, uint64_t label)
  H;
/* This node's high-water mark: bytes from its arena's start below which
   memory was handed out at least once.  Signal-safe.  */
extern size_t gomp_dsm_heap_high (void) H;

/* atomic.c.  */
extern void gomp_dsm_atomic_init (void) H;
/* Runs an atomic natively at P; returns CAS success; true when memory
   changed (in *CHANGED).  */
extern bool gomp_dsm_atomic_exec (int op, void *p, size_t size,
				  const void *operand, void *expected,
				  void *result, bool op_fetch, bool *changed) H;

#undef H
#endif
