/* doacross.c -- doacross loops (OpenMP 5.1, section 2.19.9: ordered with
   depend(source) and depend(sink)): the GOMP_loop_doacross_*_start entry
   points and GOMP_doacross_post/wait, for long and unsigned long long
   iteration counts.

   GCC numbers the iterations of each of the NCOUNTS ordered loops from 0
   to COUNTS[i] - 1 and work-shares the outermost one.  The iterations of
   one outer index run on one thread, in order.  So the state is one word
   per outer index: 1 + the flattened number of the last inner iteration
   posted (0: none).  A sink waits until its outer index's word passes
   its inner iteration.  This needs no knowledge of which thread got which
   chunk, whatever the schedule.  Waiters spin, then sleep on the word.

   Across nodes (a team spanning them) the words are one block of the
   shared heap, with the loop's MEM after them: rank 0 zeroes it and one
   barrier at the loop's start gives every node its address.  A post is a
   release (OpenMP 5.1 section 2.19.9: depend(source) flushes) followed by
   a store at the word's home; a wait polls the word at its home, backing
   off, and then acquires (depend(sink) flushes).  */

#include "task.h"
#include "omp.h"
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

struct gomp_doacross
{
  unsigned ncounts;
  int sleepers;				/* Waiters asleep on some word.  */
  gomp_ull n0;				/* Outer iterations.  */
  gomp_ull *counts;			/* COUNTS[1 .. NCOUNTS - 1].  */
  gomp_ull *strides;			/* Weights of the inner indices.  */
  void *extra;				/* GOMP_loop_doacross_start's MEM.  */
  unsigned long *words;			/* One per outer iteration.  */
  bool shared;				/* WORDS and EXTRA in the shared heap
					   (across nodes).  */
};

/* Across nodes: the bytes of the shared block's words, before MEM.  */
static inline size_t
gomp_doacross_words_size (gomp_ull nwords)
{
  return (nwords * sizeof (unsigned long) + 63) & ~(size_t) 63;
}

/* Rank 0's first thread: the shared block of a doacross loop of NWORDS
   words and EXTRA bytes of MEM, zeroed, kept in the work-share slot from
   one loop to the next.  */
static unsigned long *
gomp_doacross_shared_block (struct gomp_work_share *ws, gomp_ull nwords,
			    size_t extra)
{
  size_t size = gomp_doacross_words_size (nwords) + extra;
  if (ws->mem_shared_size < size)
    {
      gomp_cluster->free (ws->mem_shared);
      ws->mem_shared = gomp_cluster->memalign (64, size);
      if (!ws->mem_shared)
	gomp_fatal ("out of shared memory (%zu bytes for a doacross loop)",
		    size);
      ws->mem_shared_size = size;
    }
  return memset (ws->mem_shared, 0, size);
}

/* The memory a doacross loop of the calling thread's team uses, reused
   from one loop to the next in the same work-share storage.  */
static void *
gomp_doacross_buffer (struct gomp_team *team, struct gomp_work_share *ws,
		      size_t size)
{
  static __thread void *solo;
  static __thread size_t solo_size;
  void **slot;
  size_t *slot_size;
  if (team)
    {
      slot = &ws->doacross_buf;
      slot_size = &ws->doacross_buf_size;
    }
  else
    {
      slot = &solo;
      slot_size = &solo_size;
    }
  if (*slot_size < size)
    {
      free (*slot);
      *slot = malloc (size);
      if (*slot == NULL)
	gomp_fatal ("out of memory for the %zu bytes of a doacross loop's "
		    "state", size);
      *slot_size = size;
    }
  return memset (*slot, 0, size);
}

/* Sets up the doacross state of the work share being initialised.  */
static void
gomp_doacross_init (unsigned ncounts, const gomp_ull *counts, size_t extra)
{
  struct gomp_thread *thr = gomp_thread ();
  struct gomp_team *team = thr->ts.team;
  struct gomp_work_share *ws = thr->ts.work_share;
  bool spans = team && team->spans;
  /* Every node decides alike (the same counts and team size): all or
     none meet at gomp_doacross_share's barrier.  */
  bool sync = team && (spans ? team->nthreads : team->local_nthreads) > 1;

  for (unsigned i = 0; i < ncounts; i++)
    if (counts[i] == 0)
      sync = false;		/* No iteration: no post, no wait.  */
  if (!sync && !extra)
    {
      ws->doacross = NULL;
      return;
    }

  gomp_ull nwords = sync ? counts[0] : 0;
  size_t size = sizeof (struct gomp_doacross)
		+ 2 * ncounts * sizeof (gomp_ull) + 64 + extra + 64;
  if (nwords > (SIZE_MAX - size) / sizeof (unsigned long))
    gomp_fatal ("doacross loop of %llu iterations is too large", nwords);
  gomp_ull local_words = spans ? 0 : nwords;
  size += local_words * sizeof (unsigned long);
  struct gomp_doacross *d = gomp_doacross_buffer (team, ws, size);
  d->ncounts = ncounts;
  d->n0 = sync ? counts[0] : 0;
  d->counts = (gomp_ull *) (d + 1);
  d->strides = d->counts + ncounts;
  gomp_ull stride = 1;
  for (unsigned i = ncounts; i-- > 1;)
    {
      d->counts[i] = counts[i];
      d->strides[i] = stride;
      if (sync && __builtin_mul_overflow (stride, counts[i], &stride))
	gomp_unsupported ("doacross loop nest with more than 2^64 inner "
			  "iterations");
    }
  char *p = (char *) (d->strides + ncounts);
  p = (char *) (((uintptr_t) p + 63) & ~(uintptr_t) 63);
  d->words = (unsigned long *) p;
  p += local_words * sizeof (unsigned long);
  d->extra = extra ? (void *) (((uintptr_t) p + 63) & ~(uintptr_t) 63)
		   : NULL;
  if (!sync)
    d->n0 = 0;
  d->shared = spans;
  if (spans)
    {
      /* Rank 0 sets the address now; the other nodes get it in
	 gomp_doacross_share, and EXTRA from it.  */
      d->words = gomp_cluster->rank == 0
		 ? gomp_doacross_shared_block (ws, nwords, extra) : NULL;
      d->extra = NULL;
    }
  ws->doacross = d;
}

/* Across nodes, after the loop was set up on every node: one barrier
   gives every node rank 0's block (into the node's state, which its
   threads share); returns MEM's address in it.  */
static void *
gomp_doacross_share (struct gomp_team *team, struct gomp_work_share *ws)
{
  struct gomp_doacross *d = ws->doacross;
  if (d == NULL)
    return NULL;
  gomp_team_barrier_wait_bcast (team, &d->words, sizeof d->words,
				gomp_cluster->rank == 0);
  return (char *) d->words + gomp_doacross_words_size (d->n0);
}

/* Flattens the inner indices of an iteration; false if one is out of the
   iteration space (a sink on an iteration that does not exist).  */
static inline bool
gomp_doacross_flatten (struct gomp_doacross *d, const gomp_ull *v,
		       unsigned long *flat)
{
  gomp_ull f = 0;
  for (unsigned i = 1; i < d->ncounts; i++)
    {
      if (v[i] >= d->counts[i])
	return false;
      f += v[i] * d->strides[i];
    }
  *flat = f + 1;
  return true;
}

static void
gomp_doacross_post_1 (const gomp_ull *v)
{
  struct gomp_doacross *d = gomp_thread ()->ts.work_share->doacross;
  unsigned long flat;
  if (d == NULL || d->n0 == 0)
    {
      __atomic_thread_fence (__ATOMIC_RELEASE);
      return;
    }
  if (v[0] >= d->n0 || !gomp_doacross_flatten (d, v, &flat))
    return;
  if (GOMP_UNLIKELY (d->shared))
    {
      unsigned long old;
      gomp_cluster->flush ();
      gomp_cluster->atomic (GOMP_CLUSTER_ATOMIC_STORE, &d->words[v[0]],
			    sizeof flat, &flat, NULL, &old, false,
			    __ATOMIC_SEQ_CST);
      return;
    }
  __atomic_store_n (&d->words[v[0]], flat, __ATOMIC_RELEASE);
  if (__atomic_load_n (&d->sleepers, __ATOMIC_SEQ_CST))
    gomp_futex_wake ((int *) &d->words[v[0]], INT_MAX);
}

/* Across nodes: waits until the word W at its home reaches FLAT, then
   acquires what the posting thread released.  */
static void
gomp_doacross_cluster_wait (unsigned long *w, unsigned long flat)
{
  unsigned spins = 0;
  for (;;)
    {
      unsigned long cur = 0;
      gomp_cluster->atomic (GOMP_CLUSTER_ATOMIC_LOAD, w, sizeof cur, NULL,
			    NULL, &cur, false, __ATOMIC_SEQ_CST);
      if (cur >= flat)
	break;
      if (++spins < 50)
	gomp_cpu_relax ();
      else
	{
	  struct timespec ts = { 0, spins < 1000 ? 20000 : 200000 };
	  nanosleep (&ts, NULL);
	}
    }
  gomp_cluster->flush ();
}

static void
gomp_doacross_wait_1 (const gomp_ull *v)
{
  struct gomp_doacross *d = gomp_thread ()->ts.work_share->doacross;
  unsigned long flat;
  if (d == NULL || d->n0 == 0)
    {
      __atomic_thread_fence (__ATOMIC_ACQUIRE);
      return;
    }
  if (v[0] >= d->n0 || !gomp_doacross_flatten (d, v, &flat))
    return;
  if (GOMP_UNLIKELY (d->shared))
    {
      gomp_doacross_cluster_wait (&d->words[v[0]], flat);
      return;
    }
  unsigned long *w = &d->words[v[0]];
  unsigned long cur = __atomic_load_n (w, __ATOMIC_ACQUIRE);
  if (cur >= flat)
    return;
  unsigned long n = gomp_spin_limit ();
  for (unsigned long i = 0; i < n; i++)
    {
      gomp_cpu_relax ();
      if (__atomic_load_n (w, __ATOMIC_ACQUIRE) >= flat)
	return;
    }
  __atomic_add_fetch (&d->sleepers, 1, __ATOMIC_SEQ_CST);
  while ((cur = __atomic_load_n (w, __ATOMIC_SEQ_CST)) < flat)
    gomp_futex_wait ((int *) w, (int) cur);
  __atomic_sub_fetch (&d->sleepers, 1, __ATOMIC_RELAXED);
}

GOMP_EXPORT void
GOMP_doacross_post (long *counts)
{
  struct gomp_doacross *d = gomp_thread ()->ts.work_share->doacross;
  unsigned n = d ? d->ncounts : 1;
  gomp_ull v[n];
  for (unsigned i = 0; i < n; i++)
    v[i] = counts[i];
  gomp_doacross_post_1 (v);
}

GOMP_EXPORT void
GOMP_doacross_ull_post (unsigned long long *counts)
{
  gomp_doacross_post_1 (counts);
}

GOMP_EXPORT void
GOMP_doacross_wait (long first, ...)
{
  struct gomp_doacross *d = gomp_thread ()->ts.work_share->doacross;
  unsigned n = d ? d->ncounts : 1;
  gomp_ull v[n];
  va_list ap;
  va_start (ap, first);
  v[0] = first;
  for (unsigned i = 1; i < n; i++)
    v[i] = va_arg (ap, long);	/* Negative: out of range as unsigned.  */
  va_end (ap);
  gomp_doacross_wait_1 (v);
}

GOMP_EXPORT void
GOMP_doacross_ull_wait (unsigned long long first, ...)
{
  struct gomp_doacross *d = gomp_thread ()->ts.work_share->doacross;
  unsigned n = d ? d->ncounts : 1;
  gomp_ull v[n];
  va_list ap;
  va_start (ap, first);
  v[0] = first;
  for (unsigned i = 1; i < n; i++)
    v[i] = va_arg (ap, unsigned long long);
  va_end (ap);
  gomp_doacross_wait_1 (v);
}

/* ---- The loops. ---- */

/* SCHED as GOMP_loop_doacross_start gets it: runtime and auto resolve to
   run-sched-var (auto is static here).  */
static enum gomp_schedule_type
gomp_doacross_sched (long sched, long *chunk)
{
  enum gomp_schedule_type s = sched & ~GFS_MONOTONIC;
  if (s == GFS_RUNTIME)
    {
      struct gomp_task_icv *icv = gomp_icv ();
      s = icv->run_sched_var & ~GFS_MONOTONIC;
      *chunk = icv->run_sched_chunk_size;
    }
  if (s == GFS_AUTO || s == GFS_RUNTIME)
    {
      s = GFS_STATIC;
      *chunk = 0;
    }
  return s;
}

static bool
gomp_doacross_next (long *istart, long *iend)
{
  switch (gomp_thread ()->ts.work_share->sched)
    {
    case GFS_STATIC:
      return gomp_iter_static_next (istart, iend);
    case GFS_DYNAMIC:
      return gomp_iter_dynamic_next (istart, iend);
    default:
      return gomp_iter_guided_next (istart, iend);
    }
}

static bool
gomp_doacross_ull_next (gomp_ull *istart, gomp_ull *iend)
{
  switch (gomp_thread ()->ts.work_share->sched)
    {
    case GFS_STATIC:
      return gomp_iter_ull_static_next (istart, iend);
    case GFS_DYNAMIC:
      return gomp_iter_ull_dynamic_next (istart, iend);
    default:
      return gomp_iter_ull_guided_next (istart, iend);
    }
}

/* Starts the work share of a doacross loop over COUNTS[0] outer
   iterations; returns the loop's first chunk for the calling thread.  */
static void
gomp_doacross_start (unsigned ncounts, const gomp_ull *counts, bool ull,
		     enum gomp_schedule_type sched, long chunk,
		     uintptr_t *reductions, void **mem)
{
  struct gomp_thread *thr = gomp_thread ();
  thr->ts.static_trip = 0;
  thr->ts.ordered_ticket = GOMP_NO_TICKET;
  bool first = gomp_work_share_start ();
  struct gomp_work_share *ws = thr->ts.work_share;
  if (first)
    {
      if (ull)
	gomp_loop_ull_init (ws, true, 0, counts[0], 1, sched, chunk, false);
      else
	gomp_loop_init (ws, 0, counts[0], 1, sched, chunk, false);
      gomp_doacross_init (ncounts, counts, mem ? (uintptr_t) *mem : 0);
      if (reductions)
	gomp_workshare_reduction_register (reductions, ws, true);
      gomp_work_share_init_done ();
    }
  else if (reductions)
    gomp_workshare_reduction_register (reductions, ws, false);
  if (GOMP_UNLIKELY (thr->ts.team && thr->ts.team->spans))
    {
      void *extra = gomp_doacross_share (thr->ts.team, ws);
      if (mem)
	*mem = extra;
      return;
    }
  if (mem)
    *mem = ((struct gomp_doacross *) ws->doacross)->extra;
}

static bool
gomp_loop_doacross (unsigned ncounts, long *counts, long sched, long chunk,
		    long *istart, long *iend, uintptr_t *reductions,
		    void **mem)
{
  gomp_ull c[ncounts];
  for (unsigned i = 0; i < ncounts; i++)
    c[i] = counts[i] < 0 ? 0 : counts[i];
  enum gomp_schedule_type s = gomp_doacross_sched (sched, &chunk);
  gomp_doacross_start (ncounts, c, false, s, chunk, reductions, mem);
  return gomp_doacross_next (istart, iend);
}

static bool
gomp_loop_ull_doacross (unsigned ncounts, gomp_ull *counts, long sched,
			gomp_ull chunk, gomp_ull *istart, gomp_ull *iend,
			uintptr_t *reductions, void **mem)
{
  long lchunk = chunk;
  enum gomp_schedule_type s = gomp_doacross_sched (sched, &lchunk);
  gomp_doacross_start (ncounts, counts, true, s, lchunk, reductions, mem);
  return gomp_doacross_ull_next (istart, iend);
}

GOMP_EXPORT bool
GOMP_loop_doacross_static_start (unsigned ncounts, long *counts,
				 long chunk_size, long *istart, long *iend)
{
  return gomp_loop_doacross (ncounts, counts, GFS_STATIC, chunk_size, istart,
			     iend, NULL, NULL);
}

GOMP_EXPORT bool
GOMP_loop_doacross_dynamic_start (unsigned ncounts, long *counts,
				  long chunk_size, long *istart, long *iend)
{
  return gomp_loop_doacross (ncounts, counts, GFS_DYNAMIC, chunk_size,
			     istart, iend, NULL, NULL);
}

GOMP_EXPORT bool
GOMP_loop_doacross_guided_start (unsigned ncounts, long *counts,
				 long chunk_size, long *istart, long *iend)
{
  return gomp_loop_doacross (ncounts, counts, GFS_GUIDED, chunk_size, istart,
			     iend, NULL, NULL);
}

GOMP_EXPORT bool
GOMP_loop_doacross_runtime_start (unsigned ncounts, long *counts,
				  long *istart, long *iend)
{
  return gomp_loop_doacross (ncounts, counts, GFS_RUNTIME, 0, istart, iend,
			     NULL, NULL);
}

GOMP_EXPORT bool
GOMP_loop_doacross_start (unsigned ncounts, long *counts, long sched,
			  long chunk_size, long *istart, long *iend,
			  uintptr_t *reductions, void **mem)
{
  return gomp_loop_doacross (ncounts, counts, sched, chunk_size, istart,
			     iend, reductions, mem);
}

GOMP_EXPORT bool
GOMP_loop_ull_doacross_static_start (unsigned ncounts,
				     unsigned long long *counts,
				     unsigned long long chunk_size,
				     unsigned long long *istart,
				     unsigned long long *iend)
{
  return gomp_loop_ull_doacross (ncounts, counts, GFS_STATIC, chunk_size,
				 istart, iend, NULL, NULL);
}

GOMP_EXPORT bool
GOMP_loop_ull_doacross_dynamic_start (unsigned ncounts,
				      unsigned long long *counts,
				      unsigned long long chunk_size,
				      unsigned long long *istart,
				      unsigned long long *iend)
{
  return gomp_loop_ull_doacross (ncounts, counts, GFS_DYNAMIC, chunk_size,
				 istart, iend, NULL, NULL);
}

GOMP_EXPORT bool
GOMP_loop_ull_doacross_guided_start (unsigned ncounts,
				     unsigned long long *counts,
				     unsigned long long chunk_size,
				     unsigned long long *istart,
				     unsigned long long *iend)
{
  return gomp_loop_ull_doacross (ncounts, counts, GFS_GUIDED, chunk_size,
				 istart, iend, NULL, NULL);
}

GOMP_EXPORT bool
GOMP_loop_ull_doacross_runtime_start (unsigned ncounts,
				      unsigned long long *counts,
				      unsigned long long *istart,
				      unsigned long long *iend)
{
  return gomp_loop_ull_doacross (ncounts, counts, GFS_RUNTIME, 0, istart,
				 iend, NULL, NULL);
}

GOMP_EXPORT bool
GOMP_loop_ull_doacross_start (unsigned ncounts, unsigned long long *counts,
			      long sched, unsigned long long chunk_size,
			      unsigned long long *istart,
			      unsigned long long *iend, uintptr_t *reductions,
			      void **mem)
{
  return gomp_loop_ull_doacross (ncounts, counts, sched, chunk_size, istart,
				 iend, reductions, mem);
}
