/* ordered.c -- the ordered construct inside a loop with an ordered clause
   (OpenMP 5.1 section 2.19.9, the block form; doacross: doacross.c).  Each
   chunk of the loop gets a ticket in iteration order (iter.c); a thread
   enters its ordered region when the loop serves its chunk's ticket, and
   the turn passes to the next ticket when the ordered region of the
   chunk's last iteration ends (an iteration runs at most one ordered
   region: OpenMP 5.1 section 2.19.9), or else when the thread takes its
   next chunk or ends the loop.  A static ordered loop across nodes keeps the served
   ticket in the shared heap (global chunk numbers need no message to
   hand out).  */

#include "libgomp.h"
#include <sched.h>
#include <time.h>

/* Across nodes (a static ordered loop of a team spanning nodes) the served
   ticket is WS->ordered_shared, read and written at its home.  */
static unsigned long
gomp_ordered_shared_load (unsigned long *word)
{
  unsigned long v = 0;
  gomp_cluster->atomic (GOMP_CLUSTER_ATOMIC_LOAD, word, sizeof v, NULL, NULL,
			&v, false, __ATOMIC_SEQ_CST);
  return v;
}

static void
gomp_ordered_shared_store (unsigned long *word, unsigned long v)
{
  unsigned long old;
  gomp_cluster->atomic (GOMP_CLUSTER_ATOMIC_STORE, word, sizeof v, &v, NULL,
			&old, false, __ATOMIC_SEQ_CST);
}

static void
gomp_ordered_cluster_wait (unsigned long *word, unsigned long ticket)
{
  unsigned spins = 0;
  while (gomp_ordered_shared_load (word) != ticket)
    {
      if (++spins < 50)
	gomp_cpu_relax ();
      else
	{
	  struct timespec ts = { 0, 20000 };
	  nanosleep (&ts, NULL);
	}
    }
}

void
gomp_ordered_cluster_begin (struct gomp_work_share *ws, bool first)
{
  struct gomp_team *team = gomp_thread ()->ts.team;
  bool rank0 = gomp_cluster->rank == 0;
  if (first && rank0)
    {
      if (!team->ordered_block
	  && !(team->ordered_block = gomp_cluster->malloc (64)))
	gomp_fatal ("out of shared memory for an ordered loop");
      gomp_ordered_shared_store (team->ordered_block, 0);
      ws->ordered_shared = team->ordered_block;
    }
  gomp_team_barrier_wait_bcast (team, &ws->ordered_shared,
				sizeof ws->ordered_shared, rank0);
}

/* A static ordered loop inside a node gives ticket T to local thread
   T mod N, so the thread that passes the turn knows whose it becomes: it
   writes the served ticket + 1 into that thread's own line (WS->BLOCKS,
   idle in an ordered loop), which only that thread polls.  */
void
gomp_ordered_turns_init (struct gomp_work_share *ws, unsigned nthreads)
{
  for (unsigned i = 0; i < nthreads; i++)
    ws->blocks[i].range = i == 0;
  ws->ordered_turns = true;
}

/* The turn word of the calling thread, or (NEXT) of the one after it.  */
static inline unsigned long long *
gomp_ordered_turn (struct gomp_thread *thr, struct gomp_work_share *ws,
		   bool next)
{
  struct gomp_team *team = thr->ts.team;
  unsigned i = thr->ts.team_id - team->base;
  if (next && ++i == team->local_nthreads)
    i = 0;
  return &ws->blocks[i].range;
}

/* Spin as other waits do; then yield, and then sleep a little: the thread
   ahead may run a long ordered region.  */
static inline void
gomp_ordered_backoff (unsigned long *spins, unsigned long limit)
{
  if (++*spins < limit)
    gomp_cpu_relax ();
  else if (*spins < limit + 1000)
    sched_yield ();
  else
    {
      struct timespec ts = { 0, 20000 };
      nanosleep (&ts, NULL);
    }
}

static void
gomp_ordered_wait_turn (struct gomp_thread *thr, struct gomp_work_share *ws,
			unsigned long ticket)
{
  unsigned long spins = 0, limit = gomp_spin_limit ();
  if (ws->ordered_turns)
    {
      unsigned long long *word = gomp_ordered_turn (thr, ws, false);
      while (__atomic_load_n (word, __ATOMIC_ACQUIRE) != ticket + 1)
	gomp_ordered_backoff (&spins, limit);
      return;
    }
  while (__atomic_load_n (&ws->ordered_serving, __ATOMIC_ACQUIRE) != ticket)
    gomp_ordered_backoff (&spins, limit);
}

/* The calling thread is done with its current chunk: once its turn has
   come, the next ticket is served.  */
void
gomp_ordered_chunk_done (void)
{
  struct gomp_thread *thr = gomp_thread ();
  unsigned long ticket = thr->ts.ordered_ticket;
  if (ticket == GOMP_NO_TICKET || !thr->ts.team)
    return;
  struct gomp_work_share *ws = thr->ts.work_share;
  thr->ts.ordered_ticket = GOMP_NO_TICKET;
  if (GOMP_UNLIKELY (ws->ordered_shared != NULL))
    {
      /* Static chunks are numbered; dynamic and guided ones by their
	 iterations.  */
      unsigned long next = ws->sched == GFS_STATIC
			   ? ticket + 1 : thr->ts.ordered_ticket_end;
      gomp_ordered_cluster_wait (ws->ordered_shared, ticket);
      gomp_ordered_shared_store (ws->ordered_shared, next);
      return;
    }
  gomp_ordered_wait_turn (thr, ws, ticket);
  if (ws->ordered_turns)
    __atomic_store_n (gomp_ordered_turn (thr, ws, true), ticket + 2,
		      __ATOMIC_RELEASE);
  else
    __atomic_store_n (&ws->ordered_serving, ticket + 1, __ATOMIC_RELEASE);
}

GOMP_EXPORT void
GOMP_ordered_start (void)
{
  struct gomp_thread *thr = gomp_thread ();
  /* A thread alone never waits for its turn.  */
  if (!thr->ts.team || thr->ts.ordered_ticket == GOMP_NO_TICKET
      || thr->ts.team->nthreads == 1)
    return;
  struct gomp_work_share *ws = thr->ts.work_share;
  if (GOMP_UNLIKELY (ws->ordered_shared != NULL))
    {
      /* The ordered region's entry and exit are flushes (OpenMP 4.5
	 section 2.13.7): what earlier iterations' regions wrote on other
	 nodes becomes visible.  */
      gomp_ordered_cluster_wait (ws->ordered_shared, thr->ts.ordered_ticket);
      gomp_cluster->flush ();
      return;
    }
  gomp_ordered_wait_turn (thr, ws, thr->ts.ordered_ticket);
}

GOMP_EXPORT void
GOMP_ordered_end (void)
{
  struct gomp_thread *thr = gomp_thread ();
  if (GOMP_UNLIKELY (gomp_cluster != NULL) && thr->ts.team
      && thr->ts.work_share && thr->ts.work_share->ordered_shared)
    gomp_cluster->flush ();
  /* No later iteration of the chunk can enter an ordered region: the
     next chunk's thread need not wait until this one takes its next.  */
  if (thr->ts.ordered_ticket != GOMP_NO_TICKET
      && --thr->ts.ordered_left == 0)
    gomp_ordered_chunk_done ();
}
