/* cancel.c -- the cancel construct and cancellation points (OpenMP 5.1,
   sections 2.20.1 and 2.20.2), active only when OMP_CANCELLATION is true.

   Cancelling a parallel region sets team->cancelled: threads leave their
   cancellable barriers (barrier.c) and no queued task of the team starts.
   Cancelling a loop or sections construct sets team->ws_cancelled, which
   the next work-sharing construct and the next barrier clear (work.c,
   barrier.c).  Cancelling a taskgroup marks the innermost taskgroup of
   the encountering task: its tasks that have not started never will (a
   taskgroup binds to one task, and its tasks run on that task's node, so
   this needs no other node).

   A region spanning the nodes.  The node whose thread cancels the region,
   a loop or sections construct tells every other node once
   (gomp_cluster->cancel), naming the region by this rank's count of
   spanning regions (the same on every node); their threads see it at
   their next cancellation point or barrier.  Every barrier of such a team
   then goes through gomp_cancel_cluster_barrier, whose exchange carries
   what each node is doing, so that the nodes' barriers stay paired even
   though the threads of a cancelled node skip to the region's end:
   - a barrier inside the region that meets a node already at the
     region's closing barrier (or one that cancelled) completes as
     cancelled: its threads leave it as from a cancelled barrier and go to
     the end too (a barrier that is not a cancellation point completes
     normally, the node's threads see the cancellation at their next
     cancellation point);
   - a node at the closing barrier meets the others' barriers, round
     after round, until every node is at its closing barrier.
   A construct that broadcasts from one node at its start (copyprivate,
   ordered and doacross set-up) and meets a node that left the region
   cannot go on: that ends the job with "not supported".

   A loop or sections cancellation names the construct by the number of
   barriers the team has completed in the region (a cancelled loop must
   not be nowait, so its end barrier closes it): a node's threads see it
   while that number is the same.  */

#include "task.h"

/* What a node contributes to the barrier exchange (barrier_flags).  */
#define GOMP_CANCEL_BAR_INSIDE 1	/* At a barrier inside the region.  */
#define GOMP_CANCEL_BAR_END 2		/* At the region's closing barrier.  */
#define GOMP_CANCEL_BAR_CANCELLED 4	/* The node saw a cancellation.  */
#define GOMP_CANCEL_BAR_WINNER 8	/* Broadcasts BUF.  */

/* The spanning region of this rank: how many there were (the running
   one's number), its team (NULL between regions) and how many barriers
   inside it completed; the last region another node cancelled; the last
   loop or sections construct another node cancelled, as
   gomp_cancel_ws_key gives it.  Changed under the lock (the module's
   handler calls gomp_cancel_remote from another thread).  */
static gomp_mutex_t gomp_cancel_lock;
static uint64_t gomp_cancel_regions;
static struct gomp_team *gomp_cancel_team;
static unsigned long gomp_cancel_barriers;
static uint64_t gomp_cancel_remote_region;
static uint64_t gomp_cancel_remote_ws;

/* A construct's key: the region's number and the barriers completed in
   it (modulo 2^24: a wrong match needs that many barriers between a
   cancellation and its arrival).  */
static inline uint64_t
gomp_cancel_ws_key (uint64_t region, unsigned long barriers)
{
  return (region << 24) | (barriers & 0xffffff);
}

/* team.c: a team spanning the nodes starts (after its cancellation state
   was reset) and ends (after its closing barrier).  */
void
gomp_cancel_span_start (struct gomp_team *team)
{
  gomp_mutex_lock (&gomp_cancel_lock);
  uint64_t region = gomp_cancel_regions + 1;
  __atomic_store_n (&gomp_cancel_regions, region, __ATOMIC_RELAXED);
  __atomic_store_n (&gomp_cancel_barriers, 0, __ATOMIC_RELAXED);
  __atomic_store_n (&gomp_cancel_team, team, __ATOMIC_RELEASE);
  /* Another node cancelled it before this one started it.  */
  if (gomp_cancel_remote_region == region)
    __atomic_store_n (&team->cancelled, 1, __ATOMIC_RELEASE);
  gomp_mutex_unlock (&gomp_cancel_lock);
}

void
gomp_cancel_span_end (void)
{
  gomp_mutex_lock (&gomp_cancel_lock);
  __atomic_store_n (&gomp_cancel_team, NULL, __ATOMIC_RELAXED);
  gomp_mutex_unlock (&gomp_cancel_lock);
}

/* The cluster module's handler: another node cancelled WHAT in REGION.
   A message about an earlier region is dropped; one about a region this
   node has not started yet is kept for its start.  */
void
gomp_cancel_remote (uint64_t region, unsigned what)
{
  struct gomp_team *wake = NULL;
  gomp_mutex_lock (&gomp_cancel_lock);
  struct gomp_team *team = gomp_cancel_team;
  if (what & GOMP_CANCEL_PARALLEL)
    {
      if (region > gomp_cancel_remote_region)
	gomp_cancel_remote_region = region;
      if (team && region == gomp_cancel_regions)
	{
	  __atomic_store_n (&team->cancelled, 1, __ATOMIC_RELEASE);
	  wake = team;
	}
    }
  else if (region > gomp_cancel_remote_ws)
    /* REGION is a construct's key here (messages of several nodes about
       successive constructs may arrive out of order).  */
    __atomic_store_n (&gomp_cancel_remote_ws, region, __ATOMIC_RELEASE);
  gomp_mutex_unlock (&gomp_cancel_lock);
  /* The team object outlives its regions (the pool keeps it): waking
     the threads of a later region only makes them look again.  */
  if (wake)
    gomp_team_barrier_wake (wake);
}

/* The current construct of a spanning team was cancelled on another
   node.  */
static bool
gomp_cancel_ws_remote (void)
{
  uint64_t key = __atomic_load_n (&gomp_cancel_remote_ws, __ATOMIC_ACQUIRE);
  return key != 0
	 && key == gomp_cancel_ws_key (__atomic_load_n (&gomp_cancel_regions,
							__ATOMIC_RELAXED),
				       __atomic_load_n (&gomp_cancel_barriers,
							__ATOMIC_RELAXED));
}

/* barrier.c: the inter-node part of a barrier of TEAM, which spans the
   nodes, with OMP_CANCELLATION true; FINAL for the region's closing
   barrier.  BUF, LEN and WINNER as gomp_cluster->barrier_bcast.  Marks
   the team cancelled when the barrier completes as cancelled.  */
void
gomp_cancel_cluster_barrier (struct gomp_team *team, bool final, void *buf,
			     size_t len, bool winner)
{
  for (;;)
    {
      unsigned mine = final ? GOMP_CANCEL_BAR_END : GOMP_CANCEL_BAR_INSIDE;
      if (__atomic_load_n (&team->cancelled, __ATOMIC_ACQUIRE))
	mine |= GOMP_CANCEL_BAR_CANCELLED;
      if (buf && winner)
	mine |= GOMP_CANCEL_BAR_WINNER;
      unsigned all = gomp_cluster->barrier_flags (buf, len, winner, mine);
      if (all & (GOMP_CANCEL_BAR_END | GOMP_CANCEL_BAR_CANCELLED))
	__atomic_store_n (&team->cancelled, 1, __ATOMIC_RELEASE);
      if (!final)
	{
	  if (buf && !(all & GOMP_CANCEL_BAR_WINNER))
	    gomp_unsupported ("a construct that shares data between the "
			      "nodes (copyprivate, ordered, doacross, scan) "
			      "after another node cancelled the region");
	  gomp_mutex_lock (&gomp_cancel_lock);
	  __atomic_store_n (&gomp_cancel_barriers, gomp_cancel_barriers + 1,
			    __ATOMIC_RELAXED);
	  gomp_mutex_unlock (&gomp_cancel_lock);
	  return;
	}
      /* The closing barrier: another node is still inside the region,
	 at a barrier this one has just completed for it.  */
      if (!(all & GOMP_CANCEL_BAR_INSIDE))
	return;
    }
}

GOMP_EXPORT bool
GOMP_cancellation_point (int which)
{
  if (!gomp_cancel_var)
    return false;
  struct gomp_thread *thr = gomp_thread ();
  struct gomp_team *team = thr->ts.team;
  if (which & (GOMP_CANCEL_LOOP | GOMP_CANCEL_SECTIONS))
    return team && (__atomic_load_n (&team->ws_cancelled, __ATOMIC_ACQUIRE)
		    || (GOMP_UNLIKELY (team->spans)
			&& gomp_cancel_ws_remote ()));
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
      if (team && !__atomic_exchange_n (&team->ws_cancelled, 1,
					__ATOMIC_ACQ_REL)
	  && GOMP_UNLIKELY (team->spans))
	gomp_cluster->cancel
	  (gomp_cancel_ws_key (__atomic_load_n (&gomp_cancel_regions,
						__ATOMIC_RELAXED),
			       __atomic_load_n (&gomp_cancel_barriers,
						__ATOMIC_RELAXED)),
	   which & (GOMP_CANCEL_LOOP | GOMP_CANCEL_SECTIONS));
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
      if (!__atomic_exchange_n (&team->cancelled, 1, __ATOMIC_ACQ_REL)
	  && GOMP_UNLIKELY (team->spans))
	gomp_cluster->cancel (__atomic_load_n (&gomp_cancel_regions,
					       __ATOMIC_RELAXED),
			      GOMP_CANCEL_PARALLEL);
      gomp_team_barrier_wake (team);
    }
  return true;
}
