/* cancel.c -- the cancel construct and cancellation points (OpenMP 5.1,
   sections 2.20.1 and 2.20.2), active only when OMP_CANCELLATION is true.

   Cancelling a parallel region sets team->cancelled: threads leave their
   cancellable barriers (barrier.c) and no queued task of the team starts.
   Cancelling a loop or sections construct sets team->ws_cancelled, which
   the next work-sharing construct clears (work.c).  Cancelling a taskgroup
   marks the innermost taskgroup of the encountering task: its tasks that
   have not started never will.  With several nodes a cancellation of a
   loop, sections or taskgroup is seen by the node that requested it only
   (the other nodes' threads run their chunks to the end), and cancelling
   a parallel region that spans nodes is refused: the other nodes' threads
   would meet barriers the cancelled node skips.  */

#include "task.h"

GOMP_EXPORT bool
GOMP_cancellation_point (int which)
{
  if (!gomp_cancel_var)
    return false;
  struct gomp_thread *thr = gomp_thread ();
  struct gomp_team *team = thr->ts.team;
  if (which & (GOMP_CANCEL_LOOP | GOMP_CANCEL_SECTIONS))
    return team && __atomic_load_n (&team->ws_cancelled, __ATOMIC_ACQUIRE);
  if (which & GOMP_CANCEL_TASKGROUP)
    {
      struct gomp_task *task = thr->task;
      struct gomp_taskgroup *tg = task ? task->taskgroup : NULL;
      if (tg && (__atomic_load_n (&tg->cancelled, __ATOMIC_ACQUIRE)
		 || (tg->workshare && tg->prev
		     && __atomic_load_n (&tg->prev->cancelled,
					 __ATOMIC_ACQUIRE))))
	return true;
      /* Cancelling the parallel region cancels its tasks too.  */
    }
  return team && __atomic_load_n (&team->cancelled, __ATOMIC_ACQUIRE);
}

GOMP_EXPORT bool
GOMP_cancel (int which, bool do_cancel)
{
  if (!gomp_cancel_var)
    return false;
  if (!do_cancel)
    return GOMP_cancellation_point (which);

  struct gomp_thread *thr = gomp_thread ();
  struct gomp_team *team = thr->ts.team;
  if (which & (GOMP_CANCEL_LOOP | GOMP_CANCEL_SECTIONS))
    {
      if (team)
	__atomic_store_n (&team->ws_cancelled, 1, __ATOMIC_RELEASE);
      return true;
    }
  if (which & GOMP_CANCEL_TASKGROUP)
    {
      struct gomp_task *task = thr->task;
      struct gomp_taskgroup *tg = task ? task->taskgroup : NULL;
      if (tg)
	{
	  /* A work-sharing construct's reduction taskgroup stands for the
	     taskgroup around the construct.  */
	  if (tg->workshare && tg->prev)
	    tg = tg->prev;
	  __atomic_store_n (&tg->cancelled, true, __ATOMIC_RELEASE);
	}
      return true;
    }
  /* The parallel region (an orphaned cancel outside one has no effect on
     the program's flow: there is nothing to leave).  */
  if (team)
    {
      if (GOMP_UNLIKELY (team->spans))
	gomp_unsupported ("cancel parallel in a region spanning nodes");
      __atomic_store_n (&team->cancelled, 1, __ATOMIC_RELEASE);
      gomp_team_barrier_wake (team);
    }
  return true;
}
