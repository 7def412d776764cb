/* barrier.c -- the team barrier (OpenMP 5.1 section 2.19.2) and
   GOMP_barrier.  Threads of a node meet on one futex word; while they wait
   they run the team's queued tasks, and in a team that spans nodes they
   may take tasks from other nodes (tasksteal.c); the last local arriver
   of such a team does the inter-node part (gomp_cluster->barrier) before
   it releases the others.  Waiters spin (GOMP_SPINCOUNT) and then sleep.
   Barriers inside the region and the region's closing barrier count their
   arrivals apart (libgomp.h): after a cancellation, threads may wait in
   both at once.  */

#include "libgomp.h"

void
gomp_barrier_init (struct gomp_barrier *bar, unsigned count)
{
  bar->state = 0;
  bar->sleepers = 0;
  bar->total = count;
}

static inline unsigned
gomp_bar_load (struct gomp_barrier *bar)
{
  return (unsigned) __atomic_load_n (&bar->state, __ATOMIC_ACQUIRE);
}

/* The state after completing barrier state S: SHIFT's arrivals cleared,
   the other kind's arrivals and the wake bit kept, the next generation.  */
static inline unsigned
gomp_bar_next (unsigned s, unsigned shift)
{
  return (s & ~(GOMP_BAR_ARRIVED_MASK << shift)
	  & ((1u << GOMP_BAR_GEN_SHIFT) - 1))
	 | (((s >> GOMP_BAR_GEN_SHIFT) + 1) << GOMP_BAR_GEN_SHIFT);
}

/* Whether the thread that found everyone arrived may complete the barrier
   with one compare-and-swap, from "all arrived" straight to the next
   generation: a team inside one node with no cancelled for/sections to
   forget (nothing else can set ws_cancelled while every thread waits
   here).  Otherwise it claims the barrier first (gomp_bar_release).  One
   change of the word fewer moves the line the waiters poll once less.  */
static inline bool
gomp_bar_fast_complete (struct gomp_team *team, unsigned shift)
{
  return GOMP_LIKELY (!team->spans)
	 && (shift != 0
	     || !__atomic_load_n (&team->ws_cancelled, __ATOMIC_RELAXED));
}

/* The thread that found everyone arrived (and claimed the barrier by
   setting its count to TOTAL + 1) completes it: the inter-node part, then
   the next generation, keeping the other kind's arrivals.  */
static void
gomp_bar_release (struct gomp_team *team, unsigned shift, void *buf,
		  size_t len, bool winner)
{
  struct gomp_barrier *bar = &team->barrier;
  if (GOMP_UNLIKELY (team->spans))
    {
      if (gomp_task_steal_var)
	gomp_task_steal_claimed (team);
      /* With cancellation, the exchange keeps the nodes' barriers paired
	 (cancel.c).  */
      if (GOMP_UNLIKELY (gomp_cancel_var))
	gomp_cancel_cluster_barrier (team, shift != 0, buf, len, winner);
      else if (buf)
	gomp_cluster->barrier_bcast (buf, len, winner);
      else
	gomp_cluster->barrier ();
    }
  /* Every thread is past the work-sharing construct a cancel for/sections
     may have cancelled (GCC expands static loops inline, so no work-share
     start would reset it).  */
  if (shift == 0)
    __atomic_store_n (&team->ws_cancelled, 0, __ATOMIC_RELAXED);
  unsigned s = gomp_bar_load (bar);
  while (!__atomic_compare_exchange_n (&bar->state, (int *) &s,
				       (int) gomp_bar_next (s, shift), false,
				       __ATOMIC_SEQ_CST, __ATOMIC_ACQUIRE))
    ;
  if (__atomic_load_n (&bar->sleepers, __ATOMIC_SEQ_CST))
    gomp_futex_wake (&bar->state, INT_MAX);
}

/* The one waiting loop; SHIFT selects the arrival count (0, or
   GOMP_BAR_FINAL_SHIFT for the closing barrier).  Returns true when
   CANCELLABLE and the region was cancelled: the caller's arrival is then
   withdrawn, or the barrier completed as cancelled (across nodes, by
   meeting a node that left the region: cancel.c).  */
static bool
gomp_bar_wait (struct gomp_team *team, unsigned shift, bool cancellable,
	       void *buf, size_t len, bool winner)
{
  struct gomp_barrier *bar = &team->barrier;
  unsigned one = 1u << shift;
  unsigned s = (unsigned) __atomic_add_fetch (&bar->state, (int) one,
					      __ATOMIC_ACQ_REL);
  unsigned gen = s >> GOMP_BAR_GEN_SHIFT;
  unsigned long spins = 0, limit = gomp_spin_limit ();

  for (;;)
    {
      if ((s >> GOMP_BAR_GEN_SHIFT) != gen)
	return cancellable
	       && __atomic_load_n (&team->cancelled, __ATOMIC_ACQUIRE);
      if (__atomic_load_n (&team->task_queued, __ATOMIC_ACQUIRE)
	  && gomp_barrier_handle_tasks (team))
	{
	  spins = 0;
	  s = gomp_bar_load (bar);
	  continue;
	}
      /* Tasks between nodes: before the node's part completes, ask the
	 others for tasks (tasksteal.c).  */
      if (GOMP_UNLIKELY (team->spans) && gomp_task_steal_var
	  && !gomp_cancel_var)
	{
	  int st = gomp_task_steal_barrier (team, gen, shift);
	  if (st != GOMP_CLUSTER_STEAL_IDLE)
	    {
	      if (st == GOMP_CLUSTER_STEAL_GOT)
		spins = 0;
	      s = gomp_bar_load (bar);
	      continue;
	    }
	}
      unsigned arrived = (s >> shift) & GOMP_BAR_ARRIVED_MASK;
      if (cancellable && arrived <= bar->total
	  && __atomic_load_n (&team->cancelled, __ATOMIC_ACQUIRE))
	{
	  if (__atomic_compare_exchange_n (&bar->state, (int *) &s,
					   (int) (s - one), false,
					   __ATOMIC_ACQ_REL, __ATOMIC_ACQUIRE))
	    return true;
	  continue;
	}
      if (arrived == bar->total
	  && __atomic_load_n (&team->task_count, __ATOMIC_ACQUIRE) == 0)
	{
	  if (gomp_bar_fast_complete (team, shift))
	    {
	      if (!__atomic_compare_exchange_n (&bar->state, (int *) &s,
						(int) gomp_bar_next (s, shift),
						false, __ATOMIC_SEQ_CST,
						__ATOMIC_ACQUIRE))
		continue;
	      if (__atomic_load_n (&bar->sleepers, __ATOMIC_SEQ_CST))
		gomp_futex_wake (&bar->state, INT_MAX);
	      return false;
	    }
	  unsigned claimed = s + one;
	  if (__atomic_compare_exchange_n (&bar->state, (int *) &s,
					   (int) claimed, false,
					   __ATOMIC_ACQ_REL, __ATOMIC_ACQUIRE))
	    {
	      gomp_bar_release (team, shift, buf, len, winner);
	      return cancellable
		     && __atomic_load_n (&team->cancelled, __ATOMIC_ACQUIRE);
	    }
	  continue;
	}
      if (spins < limit)
	{
	  spins++;
	  gomp_cpu_relax ();
	}
      else
	{
	  /* Counted in the sleepers first, then task_queued looked at
	     again: a task queued since the check above -- by another
	     thread that saw no sleeper, or by this one while it asked
	     other nodes for tasks (a fulfilled event's dependent task) --
	     is run, not slept over (gomp_barrier_maybe_wake).  */
	  __atomic_add_fetch (&bar->sleepers, 1, __ATOMIC_SEQ_CST);
	  if ((unsigned) __atomic_load_n (&bar->state, __ATOMIC_SEQ_CST) == s
	      && !__atomic_load_n (&team->task_queued, __ATOMIC_SEQ_CST))
	    gomp_futex_wait (&bar->state, (int) s);
	  __atomic_sub_fetch (&bar->sleepers, 1, __ATOMIC_RELAXED);
	}
      s = gomp_bar_load (bar);
    }
}

void
gomp_team_barrier_wait (struct gomp_team *team)
{
  gomp_bar_wait (team, 0, false, NULL, 0, false);
}

void
gomp_team_barrier_wait_final (struct gomp_team *team)
{
  gomp_bar_wait (team, GOMP_BAR_FINAL_SHIFT, false, NULL, 0, false);
}

bool
gomp_team_barrier_wait_cancel (struct gomp_team *team)
{
  if (__atomic_load_n (&team->cancelled, __ATOMIC_ACQUIRE))
    return true;
  return gomp_bar_wait (team, 0, true, NULL, 0, false);
}

void
gomp_team_barrier_wait_bcast (struct gomp_team *team, void *buf, size_t len,
			      bool winner)
{
  gomp_bar_wait (team, 0, false, buf, len, winner);
}

void
gomp_team_barrier_wake (struct gomp_team *team)
{
  __atomic_fetch_xor (&team->barrier.state, GOMP_BAR_WAKE_BIT,
		      __ATOMIC_SEQ_CST);
  if (__atomic_load_n (&team->barrier.sleepers, __ATOMIC_SEQ_CST))
    gomp_futex_wake (&team->barrier.state, INT_MAX);
}

GOMP_EXPORT void
GOMP_barrier (void)
{
  struct gomp_team *team = gomp_thread ()->ts.team;
  if (team)
    gomp_team_barrier_wait (team);
}

GOMP_EXPORT bool
GOMP_barrier_cancel (void)
{
  struct gomp_team *team = gomp_thread ()->ts.team;
  if (!team)
    return false;
  return gomp_team_barrier_wait_cancel (team);
}
