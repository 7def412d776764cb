/* ordered.c -- the ordered construct inside a loop with an ordered clause
   (OpenMP 5.1 section 2.19.9, the block form; doacross is task.c's).  Each
   chunk of the loop gets a ticket in iteration order (iter.c); a thread
   enters its ordered region when the loop serves its chunk's ticket, and
   the turn passes to the next ticket when the thread takes its next chunk
   or ends the loop.  */

#include "libgomp.h"
#include <sched.h>
#include <time.h>

static void
gomp_ordered_wait_turn (struct gomp_work_share *ws, unsigned long ticket)
{
  unsigned long spins = 0, limit = gomp_spin_limit ();
  while (__atomic_load_n (&ws->ordered_serving, __ATOMIC_ACQUIRE) != ticket)
    {
      /* Spin as other waits do; then yield, and then sleep a little: the
	 thread ahead may run a long ordered region.  */
      if (++spins < limit)
	gomp_cpu_relax ();
      else if (spins < limit + 1000)
	sched_yield ();
      else
	{
	  struct timespec ts = { 0, 20000 };
	  nanosleep (&ts, NULL);
	}
    }
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
  gomp_ordered_wait_turn (ws, ticket);
  __atomic_store_n (&ws->ordered_serving, ticket + 1, __ATOMIC_RELEASE);
}

GOMP_EXPORT void
GOMP_ordered_start (void)
{
  struct gomp_thread *thr = gomp_thread ();
  if (!thr->ts.team || thr->ts.ordered_ticket == GOMP_NO_TICKET)
    return;
  gomp_ordered_wait_turn (thr->ts.work_share, thr->ts.ordered_ticket);
}

GOMP_EXPORT void
GOMP_ordered_end (void)
{
}
