/* loop_ull.c -- the loop construct with unsigned long long iteration
   variables (GCC uses them for unsigned and some collapsed loops): the
   GOMP_loop_ull_* entry points.  UP says whether the loop counts upwards;
   a downward loop's INCR is its negative step in two's complement.  The
   arithmetic is in iter_ull.c.  */

#include "libgomp.h"
#include <stdlib.h>
#include <string.h>
#include <limits.h>

typedef unsigned long long gomp_ull;

void
gomp_loop_ull_init (struct gomp_work_share *ws, bool up, gomp_ull start,
		    gomp_ull end, gomp_ull incr,
		    enum gomp_schedule_type sched, gomp_ull chunk,
		    bool ordered)
{
  struct gomp_team *team = gomp_thread ()->ts.team;

  ws->sched = sched;
  ws->ull = true;
  ws->steal = false;
  ws->up = up;
  ws->ordered = ordered;
  ws->next_ull = start;
  ws->end_ull = (up && start > end) || (!up && start < end) ? start : end;
  ws->incr_ull = incr;
  ws->chunk_ull = chunk;
  ws->spans = team && team->spans && sched != GFS_STATIC;
  ws->atomic_next = false;
  ws->node_next = ws->node_end = 0;
  ws->ordered_serving = 0;
  ws->ordered_shared = NULL;
  ws->ordered_tickets = 0;
  ws->ordered_turns = false;
  if (ordered && sched == GFS_STATIC && team && !team->spans
      && team->local_nthreads > 1)
    gomp_ordered_turns_init (ws, team->local_nthreads);
  ws->copyprivate = NULL;
  ws->task_reductions = NULL;
  ws->doacross = NULL;
  /* Across nodes the cluster's loop counter hands out iteration numbers
     (iter_ull.c), in long: the count must fit, which it does for any loop
     that can finish.  */
  if (ws->spans)
    {
      gomp_ull n = up ? (start < ws->end_ull
			 ? (ws->end_ull - start - 1) / incr + 1 : 0)
		      : (start > ws->end_ull
			 ? (start - ws->end_ull - 1) / -incr + 1 : 0);
      if (n > LONG_MAX)
	gomp_unsupported ("unsigned long long loop of more than LONG_MAX "
			  "iterations with a dynamic or guided schedule "
			  "across nodes");
    }
  if ((sched == GFS_DYNAMIC || sched == GFS_GUIDED) && chunk == 0)
    ws->chunk_ull = 1;
  if (sched == GFS_DYNAMIC && !ordered && !ws->spans)
    {
      /* Fetch-add works when every thread's last overshoot past END still
	 fits.  */
      gomp_ull nthreads = team ? team->local_nthreads : 1, mag, room;
      if (!__builtin_mul_overflow (ws->chunk_ull, up ? incr : -incr, &mag)
	  && !__builtin_mul_overflow (nthreads + 1, mag, &room)
	  && (up ? !__builtin_add_overflow (ws->end_ull, room, &room)
		 : ws->end_ull >= room))
	{
	  ws->chunk_ull = up ? mag : -mag;
	  ws->atomic_next = true;
	}
    }
}

static enum gomp_schedule_type
gomp_runtime_sched_ull (gomp_ull *chunk)
{
  struct gomp_task_icv *icv = gomp_icv ();
  enum gomp_schedule_type s = icv->run_sched_var & ~GFS_MONOTONIC;
  *chunk = icv->run_sched_chunk_size;
  if (s == GFS_AUTO || s == GFS_RUNTIME)
    {
      *chunk = 0;
      return GFS_STATIC;
    }
  return s;
}

static bool
gomp_loop_ull_next (gomp_ull *istart, gomp_ull *iend)
{
  struct gomp_work_share *ws = gomp_thread ()->ts.work_share;
  switch (ws->sched)
    {
    case GFS_STATIC:
      return gomp_iter_ull_static_next (istart, iend);
    case GFS_DYNAMIC:
      return gomp_iter_ull_dynamic_next (istart, iend);
    default:
      return gomp_iter_ull_guided_next (istart, iend);
    }
}

static bool
gomp_loop_ull_begin (bool up, gomp_ull start, gomp_ull end, gomp_ull incr,
		     enum gomp_schedule_type sched, gomp_ull chunk,
		     bool ordered, gomp_ull *istart, gomp_ull *iend)
{
  struct gomp_thread *thr = gomp_thread ();
  thr->ts.static_trip = 0;
  thr->ts.ordered_ticket = GOMP_NO_TICKET;
  bool first = gomp_work_share_start ();
  if (first)
    {
      gomp_loop_ull_init (thr->ts.work_share, up, start, end, incr, sched,
			  chunk, ordered);
      gomp_work_share_init_done ();
    }
  if (GOMP_UNLIKELY (ordered && thr->ts.team && thr->ts.team->spans))
    gomp_ordered_cluster_begin (thr->ts.work_share, first);
  return gomp_loop_ull_next (istart, iend);
}

GOMP_EXPORT bool
GOMP_loop_ull_static_start (bool up, gomp_ull start, gomp_ull end,
			    gomp_ull incr, gomp_ull chunk, gomp_ull *istart,
			    gomp_ull *iend)
{
  return gomp_loop_ull_begin (up, start, end, incr, GFS_STATIC, chunk, false,
			      istart, iend);
}

GOMP_EXPORT bool
GOMP_loop_ull_dynamic_start (bool up, gomp_ull start, gomp_ull end,
			     gomp_ull incr, gomp_ull chunk, gomp_ull *istart,
			     gomp_ull *iend)
{
  return gomp_loop_ull_begin (up, start, end, incr, GFS_DYNAMIC, chunk,
			      false, istart, iend);
}

GOMP_EXPORT bool
GOMP_loop_ull_guided_start (bool up, gomp_ull start, gomp_ull end,
			    gomp_ull incr, gomp_ull chunk, gomp_ull *istart,
			    gomp_ull *iend)
{
  return gomp_loop_ull_begin (up, start, end, incr, GFS_GUIDED, chunk, false,
			      istart, iend);
}

GOMP_EXPORT bool
GOMP_loop_ull_runtime_start (bool up, gomp_ull start, gomp_ull end,
			     gomp_ull incr, gomp_ull *istart, gomp_ull *iend)
{
  gomp_ull chunk;
  enum gomp_schedule_type s = gomp_runtime_sched_ull (&chunk);
  return gomp_loop_ull_begin (up, start, end, incr, s, chunk, false, istart,
			      iend);
}

GOMP_EXPORT bool
GOMP_loop_ull_nonmonotonic_dynamic_start (bool up, gomp_ull start,
					  gomp_ull end, gomp_ull incr,
					  gomp_ull chunk, gomp_ull *istart,
					  gomp_ull *iend)
{
  return GOMP_loop_ull_dynamic_start (up, start, end, incr, chunk, istart,
				      iend);
}

GOMP_EXPORT bool
GOMP_loop_ull_nonmonotonic_guided_start (bool up, gomp_ull start,
					 gomp_ull end, gomp_ull incr,
					 gomp_ull chunk, gomp_ull *istart,
					 gomp_ull *iend)
{
  return GOMP_loop_ull_guided_start (up, start, end, incr, chunk, istart,
				     iend);
}

GOMP_EXPORT bool
GOMP_loop_ull_nonmonotonic_runtime_start (bool up, gomp_ull start,
					  gomp_ull end, gomp_ull incr,
					  gomp_ull *istart, gomp_ull *iend)
{
  return GOMP_loop_ull_runtime_start (up, start, end, incr, istart, iend);
}

GOMP_EXPORT bool
GOMP_loop_ull_maybe_nonmonotonic_runtime_start (bool up, gomp_ull start,
						gomp_ull end, gomp_ull incr,
						gomp_ull *istart,
						gomp_ull *iend)
{
  return GOMP_loop_ull_runtime_start (up, start, end, incr, istart, iend);
}

GOMP_EXPORT bool
GOMP_loop_ull_ordered_static_start (bool up, gomp_ull start, gomp_ull end,
				    gomp_ull incr, gomp_ull chunk,
				    gomp_ull *istart, gomp_ull *iend)
{
  return gomp_loop_ull_begin (up, start, end, incr, GFS_STATIC, chunk, true,
			      istart, iend);
}

GOMP_EXPORT bool
GOMP_loop_ull_ordered_dynamic_start (bool up, gomp_ull start, gomp_ull end,
				     gomp_ull incr, gomp_ull chunk,
				     gomp_ull *istart, gomp_ull *iend)
{
  return gomp_loop_ull_begin (up, start, end, incr, GFS_DYNAMIC, chunk, true,
			      istart, iend);
}

GOMP_EXPORT bool
GOMP_loop_ull_ordered_guided_start (bool up, gomp_ull start, gomp_ull end,
				    gomp_ull incr, gomp_ull chunk,
				    gomp_ull *istart, gomp_ull *iend)
{
  return gomp_loop_ull_begin (up, start, end, incr, GFS_GUIDED, chunk, true,
			      istart, iend);
}

GOMP_EXPORT bool
GOMP_loop_ull_ordered_runtime_start (bool up, gomp_ull start, gomp_ull end,
				     gomp_ull incr, gomp_ull *istart,
				     gomp_ull *iend)
{
  gomp_ull chunk;
  enum gomp_schedule_type s = gomp_runtime_sched_ull (&chunk);
  return gomp_loop_ull_begin (up, start, end, incr, s, chunk, true, istart,
			      iend);
}

static bool
gomp_loop_ull_start_common (bool up, gomp_ull start, gomp_ull end,
			    gomp_ull incr, long sched, gomp_ull chunk,
			    bool ordered, gomp_ull *istart, gomp_ull *iend,
			    uintptr_t *reductions, void **mem)
{
  struct gomp_thread *thr = gomp_thread ();
  enum gomp_schedule_type s = sched & ~GFS_MONOTONIC;
  if (s == GFS_RUNTIME || s == GFS_AUTO)
    s = gomp_runtime_sched_ull (&chunk);
  thr->ts.static_trip = 0;
  thr->ts.ordered_ticket = GOMP_NO_TICKET;
  bool first = gomp_work_share_start ();
  struct gomp_work_share *ws = thr->ts.work_share;
  if (first)
    {
      gomp_loop_ull_init (ws, up, start, end, incr, s, chunk, ordered);
      if (reductions)
	gomp_workshare_reduction_register (reductions, ws, true);
      if (mem)
	gomp_work_share_mem (ws, true, mem);
      gomp_work_share_init_done ();
    }
  else
    {
      if (reductions)
	gomp_workshare_reduction_register (reductions, ws, false);
      if (mem)
	gomp_work_share_mem (ws, false, mem);
    }
  if (GOMP_UNLIKELY (ordered && thr->ts.team && thr->ts.team->spans))
    gomp_ordered_cluster_begin (ws, first);
  if (!istart)
    return true;
  return gomp_loop_ull_next (istart, iend);
}

GOMP_EXPORT bool
GOMP_loop_ull_start (bool up, gomp_ull start, gomp_ull end, gomp_ull incr,
		     long sched, gomp_ull chunk, gomp_ull *istart,
		     gomp_ull *iend, uintptr_t *reductions, void **mem)
{
  return gomp_loop_ull_start_common (up, start, end, incr, sched, chunk,
				     false, istart, iend, reductions, mem);
}

GOMP_EXPORT bool
GOMP_loop_ull_ordered_start (bool up, gomp_ull start, gomp_ull end,
			     gomp_ull incr, long sched, gomp_ull chunk,
			     gomp_ull *istart, gomp_ull *iend,
			     uintptr_t *reductions, void **mem)
{
  return gomp_loop_ull_start_common (up, start, end, incr, sched, chunk,
				     true, istart, iend, reductions, mem);
}

GOMP_EXPORT bool
GOMP_loop_ull_static_next (gomp_ull *istart, gomp_ull *iend)
{
  return gomp_iter_ull_static_next (istart, iend);
}

GOMP_EXPORT bool
GOMP_loop_ull_dynamic_next (gomp_ull *istart, gomp_ull *iend)
{
  return gomp_iter_ull_dynamic_next (istart, iend);
}

GOMP_EXPORT bool
GOMP_loop_ull_guided_next (gomp_ull *istart, gomp_ull *iend)
{
  return gomp_iter_ull_guided_next (istart, iend);
}

GOMP_EXPORT bool
GOMP_loop_ull_runtime_next (gomp_ull *istart, gomp_ull *iend)
{
  return gomp_loop_ull_next (istart, iend);
}

GOMP_EXPORT bool
GOMP_loop_ull_nonmonotonic_dynamic_next (gomp_ull *istart, gomp_ull *iend)
{
  return gomp_iter_ull_dynamic_next (istart, iend);
}

GOMP_EXPORT bool
GOMP_loop_ull_nonmonotonic_guided_next (gomp_ull *istart, gomp_ull *iend)
{
  return gomp_iter_ull_guided_next (istart, iend);
}

GOMP_EXPORT bool
GOMP_loop_ull_nonmonotonic_runtime_next (gomp_ull *istart, gomp_ull *iend)
{
  return gomp_loop_ull_next (istart, iend);
}

GOMP_EXPORT bool
GOMP_loop_ull_maybe_nonmonotonic_runtime_next (gomp_ull *istart,
					       gomp_ull *iend)
{
  return gomp_loop_ull_next (istart, iend);
}

GOMP_EXPORT bool
GOMP_loop_ull_ordered_static_next (gomp_ull *istart, gomp_ull *iend)
{
  gomp_ordered_chunk_done ();
  return gomp_iter_ull_static_next (istart, iend);
}

GOMP_EXPORT bool
GOMP_loop_ull_ordered_dynamic_next (gomp_ull *istart, gomp_ull *iend)
{
  gomp_ordered_chunk_done ();
  return gomp_iter_ull_dynamic_next (istart, iend);
}

GOMP_EXPORT bool
GOMP_loop_ull_ordered_guided_next (gomp_ull *istart, gomp_ull *iend)
{
  gomp_ordered_chunk_done ();
  return gomp_iter_ull_guided_next (istart, iend);
}

GOMP_EXPORT bool
GOMP_loop_ull_ordered_runtime_next (gomp_ull *istart, gomp_ull *iend)
{
  gomp_ordered_chunk_done ();
  return gomp_loop_ull_next (istart, iend);
}
