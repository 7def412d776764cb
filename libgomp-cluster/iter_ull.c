/* iter_ull.c -- schedule arithmetic for loops with unsigned long long
   iteration variables (GCC uses them for unsigned and collapsed loops).
   Like iter.c; a downward loop has UP false and INCR holding the negative
   step in two's complement.  CHUNK is in iterations, except for dynamic
   loops advanced by fetch-add, where it is CHUNK * INCR.  */

#include "libgomp.h"

static inline unsigned long long
gomp_iter_ull_count (unsigned long long start, unsigned long long end,
		     unsigned long long incr, bool up)
{
  if (up)
    return start < end ? (end - start - 1) / incr + 1 : 0;
  return start > end ? (start - end - 1) / -incr + 1 : 0;
}

static inline bool
gomp_ws_up (struct gomp_work_share *ws)
{
  return ws->up;
}

bool
gomp_iter_ull_static_next (unsigned long long *istart,
			   unsigned long long *iend)
{
  struct gomp_thread *thr = gomp_thread ();
  struct gomp_work_share *ws = thr->ts.work_share;
  struct gomp_team *team = thr->ts.team;
  unsigned long long nthreads = team ? team->nthreads : 1;
  unsigned long long i = team ? thr->ts.team_id : 0;
  unsigned long long n = gomp_iter_ull_count (ws->next_ull, ws->end_ull,
					      ws->incr_ull, gomp_ws_up (ws));
  unsigned long long s0, e0;

  if (ws->chunk_ull == 0 || nthreads == 1)
    {
      if (thr->ts.static_trip)
	return false;
      thr->ts.static_trip = 1;
      unsigned long long q = n / nthreads, r = n % nthreads;
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
      unsigned long long chunk = ws->chunk_ull;
      unsigned long long blk = thr->ts.static_trip * nthreads + i;
      if (n == 0 || blk > (n - 1) / chunk)
	return false;
      thr->ts.static_trip++;
      s0 = blk * chunk;
      e0 = n - s0 > chunk ? s0 + chunk : n;
      thr->ts.ordered_ticket = blk;
      thr->ts.ordered_left = e0 - s0;
    }
  *istart = ws->next_ull + s0 * ws->incr_ull;
  *iend = ws->next_ull + e0 * ws->incr_ull;
  return true;
}

/* Takes up to WANT iterations; the caller holds the work share's lock.  */
static inline bool
gomp_iter_ull_take (struct gomp_work_share *ws, unsigned long long want,
		    unsigned long long *istart, unsigned long long *iend)
{
  unsigned long long left = gomp_iter_ull_count (ws->next_ull, ws->end_ull,
						 ws->incr_ull,
						 gomp_ws_up (ws));
  if (left == 0)
    return false;
  if (want > left)
    want = left;
  if (want == 0)
    want = 1;
  *istart = ws->next_ull;
  ws->next_ull += want * ws->incr_ull;
  *iend = ws->next_ull;
  return true;
}

/* As iter.c's: across nodes, tickets are iteration numbers.  */
static inline void
gomp_iter_ull_ordered_ticket (struct gomp_thread *thr,
			      struct gomp_work_share *ws,
			      unsigned long long istart,
			      unsigned long long iend)
{
  if (GOMP_UNLIKELY (ws->spans))
    {
      thr->ts.ordered_ticket
	= gomp_iter_ull_count (ws->next_ull, istart, ws->incr_ull, ws->up);
      thr->ts.ordered_ticket_end
	= gomp_iter_ull_count (ws->next_ull, iend, ws->incr_ull, ws->up);
    }
  else
    thr->ts.ordered_ticket = ws->ordered_tickets++;
  thr->ts.ordered_left = gomp_iter_ull_count (istart, iend, ws->incr_ull,
					      ws->up);
}

/* A team spanning nodes: the node takes ranges of iteration numbers, 0 to
   the loop's count by 1 (which fits in long: gomp_loop_ull_init checked),
   like a long loop's, and maps them back to values; so any bounds and
   step work, however far beyond LONG_MAX.  NODE_NEXT and NODE_END are
   iteration numbers then.  */
static bool
gomp_iter_ull_node_take (struct gomp_work_share *ws, unsigned long long chunk,
			 unsigned long long want,
			 unsigned long long node_chunk,
			 unsigned long long *istart, unsigned long long *iend)
{
  unsigned long long n = gomp_iter_ull_count (ws->next_ull, ws->end_ull,
					      ws->incr_ull, gomp_ws_up (ws));
  long s, e;
  if (!gomp_iter_node_take (ws, 0, (long) n, 1, chunk, want, node_chunk, &s,
			    &e))
    return false;
  *istart = ws->next_ull + (unsigned long long) s * ws->incr_ull;
  *iend = ws->next_ull + (unsigned long long) e * ws->incr_ull;
  return true;
}

bool
gomp_iter_ull_dynamic_next (unsigned long long *istart,
			    unsigned long long *iend)
{
  struct gomp_thread *thr = gomp_thread ();
  struct gomp_work_share *ws = thr->ts.work_share;

  if (GOMP_LIKELY (ws->atomic_next))
    {
      unsigned long long start, end = ws->end_ull, step = ws->chunk_ull;
      start = __atomic_fetch_add (&ws->next_ull, step, __ATOMIC_RELAXED);
      if (gomp_ws_up (ws))
	{
	  if (start >= end)
	    return false;
	  *iend = end - start > step ? start + step : end;
	}
      else
	{
	  if (start <= end)
	    return false;
	  *iend = start - end > -step ? start + step : end;
	}
      *istart = start;
      return true;
    }
  bool ok;
  gomp_mutex_lock (&ws->lock);
  if (GOMP_UNLIKELY (ws->spans))
    {
      /* As iter.c: a sixteenth of the node's fair share per message.  */
      struct gomp_team *team = thr->ts.team;
      unsigned long long local = team->local_nthreads;
      unsigned long long total
	= gomp_iter_ull_count (ws->next_ull, ws->end_ull, ws->incr_ull,
			       gomp_ws_up (ws));
      unsigned long long node_chunk = total / (16ull * team->nthreads)
				      * local;
      if (node_chunk < ws->chunk_ull * local * 2)
	node_chunk = ws->chunk_ull * local * 2;
      ok = gomp_iter_ull_node_take (ws, ws->chunk_ull, ws->chunk_ull,
				    node_chunk, istart, iend);
    }
  else
    ok = gomp_iter_ull_take (ws, ws->chunk_ull, istart, iend);
  if (ok && ws->ordered)
    gomp_iter_ull_ordered_ticket (thr, ws, *istart, *iend);
  gomp_mutex_unlock (&ws->lock);
  return ok;
}

bool
gomp_iter_ull_guided_next (unsigned long long *istart,
			   unsigned long long *iend)
{
  struct gomp_thread *thr = gomp_thread ();
  struct gomp_work_share *ws = thr->ts.work_share;
  struct gomp_team *team = thr->ts.team;
  unsigned long long nthreads = team ? team->nthreads : 1;
  unsigned long long chunk = ws->chunk_ull ? ws->chunk_ull : 1;

  bool ok;
  gomp_mutex_lock (&ws->lock);
  if (GOMP_UNLIKELY (ws->spans))
    {
      /* Like iter.c's guided across nodes.  */
      unsigned long long local = team->local_nthreads;
      unsigned long long total
	= gomp_iter_ull_count (ws->next_ull, ws->end_ull, ws->incr_ull,
			       gomp_ws_up (ws));
      unsigned long long node_chunk = total / (2 * nthreads) * local;
      if (node_chunk < chunk * local)
	node_chunk = chunk * local;
      unsigned long long left
	= ws->node_end > ws->node_next
	  ? (unsigned long long) (ws->node_end - ws->node_next) : 0;
      unsigned long long want = left ? (left + local - 1) / local
				     : (node_chunk + local - 1) / local;
      ok = gomp_iter_ull_node_take (ws, chunk, want < chunk ? chunk : want,
				    node_chunk, istart, iend);
    }
  else
    {
      unsigned long long left
	= gomp_iter_ull_count (ws->next_ull, ws->end_ull, ws->incr_ull,
			       gomp_ws_up (ws));
      unsigned long long want = left / nthreads + (left % nthreads != 0);
      ok = gomp_iter_ull_take (ws, want < chunk ? chunk : want, istart,
			       iend);
    }
  if (ok && ws->ordered)
    gomp_iter_ull_ordered_ticket (thr, ws, *istart, *iend);
  gomp_mutex_unlock (&ws->lock);
  return ok;
}
