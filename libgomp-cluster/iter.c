/* iter.c -- schedule arithmetic for loops with long iteration variables
   (OpenMP 5.1 section 2.11.4): which iterations a thread gets next under
   the static, dynamic and guided schedules.  The work share holds NEXT (the
   first iteration not yet handed out), END, INCR and CHUNK; a loop with no
   iterations has NEXT == END.  CHUNK is in iterations, except for dynamic
   loops on one node where it is CHUNK * INCR (the step NEXT advances by).
   A team spanning nodes takes static chunks with no message (global thread
   numbers), and dynamic/guided ones from a node range that
   gomp_cluster->loop_next refills.  */

#include "libgomp.h"

/* The number of iterations from START to END by INCR.  */
static inline unsigned long
gomp_iter_count (long start, long end, long incr)
{
  unsigned long d, step;
  if (incr > 0)
    {
      if (start >= end)
	return 0;
      d = (unsigned long) end - (unsigned long) start;
      step = incr;
    }
  else
    {
      if (start <= end)
	return 0;
      d = (unsigned long) start - (unsigned long) end;
      step = -(unsigned long) incr;
    }
  return (d - 1) / step + 1;
}

/* Static: thread I of N takes chunk I, I + N, ... (ts.static_trip counts
   its chunks); without a chunk size it takes one near-equal block, and so
   does a thread alone (its chunks would all be consecutive: an ordered
   loop then needs one call, not one per chunk).  */
bool
gomp_iter_static_next (long *istart, long *iend)
{
  struct gomp_thread *thr = gomp_thread ();
  struct gomp_work_share *ws = thr->ts.work_share;
  struct gomp_team *team = thr->ts.team;
  unsigned long nthreads = team ? team->nthreads : 1;
  unsigned long i = team ? thr->ts.team_id : 0;
  unsigned long n = gomp_iter_count (ws->next, ws->end, ws->incr);
  unsigned long s0, e0;

  if (ws->chunk == 0 || nthreads == 1)
    {
      if (thr->ts.static_trip)
	return false;
      thr->ts.static_trip = 1;
      unsigned long q = n / nthreads, r = n % nthreads;
      if (i < r)
	{
	  q++;
	  s0 = q * i;
	}
      else
	s0 = q * i + r;
      if (q == 0)
	return false;
      e0 = s0 + q;
      thr->ts.ordered_ticket = i;
      thr->ts.ordered_left = q;
    }
  else
    {
      unsigned long chunk = ws->chunk;
      unsigned long blk = thr->ts.static_trip * nthreads + i;
      if (blk >= (n + chunk - 1) / chunk || n == 0)
	return false;
      thr->ts.static_trip++;
      s0 = blk * chunk;
      e0 = n - s0 > chunk ? s0 + chunk : n;
      thr->ts.ordered_ticket = blk;
      thr->ts.ordered_left = e0 - s0;
    }
  *istart = ws->next + (long) (s0 * (unsigned long) ws->incr);
  *iend = ws->next + (long) (e0 * (unsigned long) ws->incr);
  return true;
}

/* Takes up to WANT iterations from [*NEXT, END) by INCR; the caller holds
   the work share (its lock, or it is alone).  */
static inline bool
gomp_iter_take (long *next, long end, long incr, unsigned long want,
		long *istart, long *iend)
{
  unsigned long left = gomp_iter_count (*next, end, incr);
  if (left == 0)
    return false;
  if (want > left)
    want = left;
  if (want == 0)
    want = 1;
  *istart = *next;
  *next += (long) (want * (unsigned long) incr);
  *iend = *next;
  return true;
}

/* A team spanning nodes: the node's threads share a node range, refilled
   from the loop's global counter NODE_CHUNK iterations at a time, of the
   loop from START to END by INCR (an unsigned long long loop's iteration
   numbers).  Node ranges and the WANT iterations a thread takes are
   rounded up to multiples of the schedule's CHUNK, so that every chunk
   but the loop's last has at least CHUNK iterations (exactly CHUNK for
   dynamic), as OpenMP 5.1 section 2.11.4 says.  Called with the work
   share's lock held.  */
bool
gomp_iter_node_take (struct gomp_work_share *ws, long start, long end,
		     long incr, unsigned long chunk, unsigned long want,
		     unsigned long node_chunk, long *istart, long *iend)
{
  if (chunk > 1)
    {
      want = (want + chunk - 1) / chunk * chunk;
      node_chunk = (node_chunk + chunk - 1) / chunk * chunk;
    }
  if (gomp_iter_count (ws->node_next, ws->node_end, incr) == 0)
    {
      /* The loop's number in the region: the same on every node.  */
      unsigned long seq = ws->claimed - 1
			  - gomp_thread ()->ts.team->ws_base;
      if (!gomp_cluster->loop_next (seq, start, end, incr, (long) node_chunk,
				    &ws->node_next, &ws->node_end))
	return false;
    }
  return gomp_iter_take (&ws->node_next, ws->node_end, incr, want, istart,
			 iend);
}

/* The ordered ticket of the chunk [ISTART, IEND) just taken: its number
   in the node's order of requests, or across nodes (where chunks of
   several nodes interleave) the number of its first iteration, and of the
   one after it.  */
static inline void
gomp_iter_ordered_ticket (struct gomp_thread *thr, struct gomp_work_share *ws,
			  long istart, long iend)
{
  if (GOMP_UNLIKELY (ws->spans))
    {
      thr->ts.ordered_ticket = gomp_iter_count (ws->next, istart, ws->incr);
      thr->ts.ordered_ticket_end = gomp_iter_count (ws->next, iend,
						    ws->incr);
    }
  else
    thr->ts.ordered_ticket = ws->ordered_tickets++;
  thr->ts.ordered_left = gomp_iter_count (istart, iend, ws->incr);
}

/* Nonmonotonic dynamic loops on one node (OpenMP 5.1 section 2.11.4 lets
   their chunks go to the threads in any order).  The loop's NCHUNKS chunks
   are split into one contiguous block per local thread.  A thread takes
   its chunks from the bottom of its own block by compare-and-swap on a
   cache line that no other thread writes while the owner has work; a
   thread whose block is empty steals the upper half of the fullest other
   block, runs its first chunk and makes the rest its own block.  A block
   is always a contiguous part of one initial block, and blocks never
   merge, so a packed value cannot name the same chunks twice: a
   compare-and-swap that succeeds on a stale read hands out chunks that
   really are there.

   GCC's code for lastprivate and linear lets the thread whose last chunk
   ended at the loop's end copy the value out: the thread that takes the
   loop's last chunk must take no other after it.  It then marks its block
   GOMP_STEAL_DONE and gets no more chunks; its block was empty (a block's
   top chunk is the last its owner takes, and a thief that steals the
   loop's last chunk alone had an empty block), so the chunks left are in
   the blocks of threads still at work, which run them.  */

#define GOMP_STEAL_DONE (~0ull)

static inline unsigned long long
gomp_steal_pack (unsigned long lo, unsigned long hi)
{
  return lo | (unsigned long long) hi << 32;
}

void
gomp_iter_steal_init (struct gomp_work_share *ws, unsigned long chunk,
		      unsigned nthreads)
{
  unsigned long n = gomp_iter_count (ws->next, ws->end, ws->incr);
  unsigned long nchunks = n / chunk + (n % chunk != 0);
  if (nchunks >= 0xffffffffUL)
    return;
  for (unsigned i = 0; i < nthreads; i++)
    ws->blocks[i].range = gomp_steal_pack (nchunks * i / nthreads,
					   nchunks * (i + 1) / nthreads);
  ws->nchunks = nchunks;
  ws->steal = true;
}

/* Chunk C of a work-stealing loop (WS->CHUNK is the step of a chunk),
   taken by the thread whose block is OWN.  */
static inline bool
gomp_steal_chunk (struct gomp_work_share *ws, struct gomp_steal_block *own,
		  unsigned long c, long *istart, long *iend)
{
  *istart = ws->next + (long) (c * (unsigned long) ws->chunk);
  if (c + 1 == ws->nchunks)
    {
      *iend = ws->end;
      __atomic_store_n (&own->range, GOMP_STEAL_DONE, __ATOMIC_RELAXED);
    }
  else
    *iend = *istart + ws->chunk;
  return true;
}

static bool
gomp_iter_steal_next (struct gomp_thread *thr, struct gomp_work_share *ws,
		      long *istart, long *iend)
{
  struct gomp_team *team = thr->ts.team;
  unsigned nthreads = team->local_nthreads;
  unsigned me = thr->ts.team_id - team->base;
  struct gomp_steal_block *own = &ws->blocks[me];
  unsigned long long v = __atomic_load_n (&own->range, __ATOMIC_RELAXED);

  if (v == GOMP_STEAL_DONE)
    return false;
  while ((unsigned) v < (v >> 32))
    if (__atomic_compare_exchange_n (&own->range, &v,
				     gomp_steal_pack ((unsigned) v + 1,
						      v >> 32),
				     false, __ATOMIC_RELAXED,
				     __ATOMIC_RELAXED))
      return gomp_steal_chunk (ws, own, (unsigned) v, istart, iend);

  for (;;)
    {
      struct gomp_steal_block *victim = NULL;
      unsigned long most = 0;
      for (unsigned k = 1; k < nthreads; k++)
	{
	  unsigned j = me + k < nthreads ? me + k : me + k - nthreads;
	  unsigned long long x = __atomic_load_n (&ws->blocks[j].range,
						  __ATOMIC_RELAXED);
	  unsigned long left = (x >> 32) - (unsigned) x;
	  if (left > most)
	    {
	      most = left;
	      victim = &ws->blocks[j];
	      v = x;
	    }
	}
      if (victim == NULL)
	return false;
      unsigned long hi = v >> 32, first = hi - (most + 1) / 2;
      if (__atomic_compare_exchange_n (&victim->range, &v,
				       gomp_steal_pack ((unsigned) v, first),
				       false, __ATOMIC_RELAXED,
				       __ATOMIC_RELAXED))
	{
	  if (first + 1 < hi)
	    __atomic_store_n (&own->range, gomp_steal_pack (first + 1, hi),
			      __ATOMIC_RELAXED);
	  return gomp_steal_chunk (ws, own, first, istart, iend);
	}
    }
}

/* Dynamic: chunks in order of request (or, nonmonotonic, stolen).  */
bool
gomp_iter_dynamic_next (long *istart, long *iend)
{
  struct gomp_thread *thr = gomp_thread ();
  struct gomp_work_share *ws = thr->ts.work_share;
  long start, end = ws->end, incr = ws->incr;

  if (ws->steal)
    return gomp_iter_steal_next (thr, ws, istart, iend);
  if (GOMP_LIKELY (ws->atomic_next))
    {
      start = __atomic_fetch_add (&ws->next, ws->chunk, __ATOMIC_RELAXED);
      if (incr > 0)
	{
	  if (start >= end)
	    return false;
	  *istart = start;
	  *iend = end - start > ws->chunk ? start + ws->chunk : end;
	}
      else
	{
	  if (start <= end)
	    return false;
	  *istart = start;
	  *iend = end - start < ws->chunk ? start + ws->chunk : end;
	}
      return true;
    }

  bool ok;
  gomp_mutex_lock (&ws->lock);
  if (GOMP_UNLIKELY (ws->spans))
    {
      /* Each message brings the node a sixteenth of its threads' fair
	 share (at least two chunks per thread): few messages, and little
	 imbalance left at the end.  */
      struct gomp_team *team = thr->ts.team;
      unsigned long local = team->local_nthreads;
      unsigned long total = gomp_iter_count (ws->next, ws->end, ws->incr);
      unsigned long node_chunk = total / (16ul * team->nthreads) * local;
      if (node_chunk < ws->chunk * local * 2)
	node_chunk = ws->chunk * local * 2;
      if (ws->one_by_one)
	node_chunk = ws->chunk;
      ok = gomp_iter_node_take (ws, ws->next, ws->end, ws->incr, ws->chunk,
				ws->chunk, node_chunk, istart, iend);
    }
  else
    ok = gomp_iter_take (&ws->next, end, incr, ws->chunk, istart, iend);
  if (ok && ws->ordered)
    gomp_iter_ordered_ticket (thr, ws, *istart, *iend);
  gomp_mutex_unlock (&ws->lock);
  return ok;
}

/* Guided: each chunk is the remaining iterations divided by the team size,
   at least CHUNK.  */
bool
gomp_iter_guided_next (long *istart, long *iend)
{
  struct gomp_thread *thr = gomp_thread ();
  struct gomp_work_share *ws = thr->ts.work_share;
  struct gomp_team *team = thr->ts.team;
  unsigned long nthreads = team ? team->nthreads : 1;
  unsigned long chunk = ws->chunk ? ws->chunk : 1;
  bool ok;

  if (GOMP_LIKELY (!ws->spans && !ws->ordered))
    {
      /* One node, no ordered tickets: NEXT alone is the state, advanced
	 by compare-and-swap (a thread that loses recomputes its chunk
	 from the new NEXT).  */
      long start = __atomic_load_n (&ws->next, __ATOMIC_RELAXED);
      for (;;)
	{
	  unsigned long left = gomp_iter_count (start, ws->end, ws->incr);
	  if (left == 0)
	    return false;
	  unsigned long want = (left + nthreads - 1) / nthreads;
	  if (want < chunk)
	    want = chunk;
	  if (want > left)
	    want = left;
	  long next = start + (long) (want * (unsigned long) ws->incr);
	  if (__atomic_compare_exchange_n (&ws->next, &start, next, true,
					   __ATOMIC_RELAXED, __ATOMIC_RELAXED))
	    {
	      *istart = start;
	      *iend = next;
	      return true;
	    }
	}
    }

  gomp_mutex_lock (&ws->lock);
  if (GOMP_UNLIKELY (ws->spans))
    {
      unsigned long local = team->local_nthreads;
      unsigned long left = gomp_iter_count (ws->node_next, ws->node_end,
					    ws->incr);
      unsigned long want = (left + local - 1) / local;
      unsigned long total = gomp_iter_count (ws->next, ws->end, ws->incr);
      unsigned long node_chunk = total / (2 * nthreads) * local;
      if (node_chunk < chunk * local)
	node_chunk = chunk * local;
      if (left == 0)
	want = (node_chunk + local - 1) / local;
      ok = gomp_iter_node_take (ws, ws->next, ws->end, ws->incr, chunk,
				want < chunk ? chunk : want, node_chunk,
				istart, iend);
    }
  else
    {
      unsigned long left = gomp_iter_count (ws->next, ws->end, ws->incr);
      unsigned long want = (left + nthreads - 1) / nthreads;
      ok = gomp_iter_take (&ws->next, ws->end, ws->incr,
			   want < chunk ? chunk : want, istart, iend);
    }
  if (ok && ws->ordered)
    gomp_iter_ordered_ticket (thr, ws, *istart, *iend);
  gomp_mutex_unlock (&ws->lock);
  return ok;
}
