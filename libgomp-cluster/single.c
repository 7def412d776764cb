/* single.c -- the single construct (OpenMP 5.1 section 2.10.2), with and
   without copyprivate.  The first thread to arrive runs the block; in a
   team spanning nodes only a thread of rank 0 may, so that no message is
   needed to choose it.  */

#include "libgomp.h"

/* Without copyprivate: a thread wins single number C of the team when it
   is the first to move the team's count from C to C + 1.  */
GOMP_EXPORT bool
GOMP_single_start (void)
{
  struct gomp_thread *thr = gomp_thread ();
  struct gomp_team *team = thr->ts.team;
  if (!team)
    return true;
  unsigned long c = thr->ts.single_count++;
  if (GOMP_UNLIKELY (team->spans) && gomp_cluster->rank != 0)
    {
      if (gomp_task_steal_var)
	gomp_task_steal_single_left (team);
      return false;
    }
  /* A thread that comes after the winner only reads the count (which
     never goes back), leaving the line shared instead of taking it.  */
  if (__atomic_load_n (&team->single_count, __ATOMIC_RELAXED) != c)
    return false;
  return __atomic_compare_exchange_n (&team->single_count, &c, c + 1, false,
				      __ATOMIC_ACQ_REL, __ATOMIC_RELAXED);
}

/* With copyprivate: returns NULL to the winner, which then calls
   GOMP_single_copy_end with its data; the others get that data.  */
GOMP_EXPORT void *
GOMP_single_copy_start (void)
{
  struct gomp_thread *thr = gomp_thread ();
  struct gomp_team *team = thr->ts.team;
  if (!team)
    return NULL;
  bool first = gomp_work_share_start ();
  bool winner_node = !team->spans || gomp_cluster->rank == 0;
  struct gomp_work_share *ws = thr->ts.work_share;
  if (first)
    {
      ws->copyprivate = NULL;
      ws->ordered = false;
      gomp_work_share_init_done ();
      if (winner_node)
	return NULL;
    }
  gomp_team_barrier_wait_bcast (team, &ws->copyprivate, sizeof (void *),
				winner_node);
  void *ret = ws->copyprivate;
  gomp_work_share_end_nowait ();
  return ret;
}

GOMP_EXPORT void
GOMP_single_copy_end (void *data)
{
  struct gomp_thread *thr = gomp_thread ();
  struct gomp_team *team = thr->ts.team;
  if (!team)
    return;
  struct gomp_work_share *ws = thr->ts.work_share;
  ws->copyprivate = data;
  gomp_team_barrier_wait_bcast (team, &ws->copyprivate, sizeof (void *),
				true);
  gomp_work_share_end_nowait ();
}
