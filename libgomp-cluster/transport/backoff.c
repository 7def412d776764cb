/* backoff.c -- how a thread that waits for a message polls without
   burning a processor its peers need: spin, then yield, then sleep with
   growing periods (struct gomp_cl_backoff, transport.h).  The cluster
   module's waits for MPI requests (cluster/wait.c) and the transport's
   own use it.

   Spinning polls with the pause instruction for GOMP_CL_PAUSE_NS, then
   yields the processor between polls: with several ranks on one machine
   (tests, the benchmarks' 2 x 1), the thread this one waits for may be
   queued behind it on the same processor, and a waiter that never yields
   holds it there for a whole time slice (~1 ms).  Not from the start:
   on a machine busy with other work every yield may hand the processor
   to a stranger for a time slice.  (Sleeping at once when the machine
   has no free processor, as the service thread does, made the barrier
   waiter a worse server of the other nodes' faults: 9.5-11 us instead of
   6.3-6.8 at 2 x 1 under chrt -f on a loaded machine.)  In struct
   gomp_cl_backoff, SLEEP_NS is 0 while pausing, -1 while yielding, the
   sleep period after that.  */

#define _GNU_SOURCE 1
#include "transport.h"
#include <errno.h>
#include <sched.h>
#include <stdbool.h>
#include <sys/prctl.h>
#include <time.h>

/* How long a waiter polls before it starts sleeping, and the longest sleep
   between polls.  When the machine's processors are oversubscribed (the
   threads of the ranks on this machine outnumber them, as in tests), a
   waiter that polls takes the processor from the rank it waits for: it
   then polls only briefly, yielding.  */
#define GOMP_CL_SPIN_NS 2000000L
/* Spinning with pause before the first yield.  */
#define GOMP_CL_PAUSE_NS 100000L
#define GOMP_CL_SPIN_OVERSUBSCRIBED_NS 50000L
#define GOMP_CL_SLEEP_MIN_NS 1000L
#define GOMP_CL_SLEEP_MAX_NS 100000L
/* A wait that has lasted this long (an idle rank while rank 0 computes
   alone, a barrier behind a slow node) sleeps up to GOMP_CL_IDLE_SLEEP_NS
   between polls: each poll costs a few microseconds of MPI, which at 100 us
   periods would be several per cent of a core.  The added latency is small
   against the time already waited.  */
#define GOMP_CL_IDLE_AFTER_NS 50000000L
#define GOMP_CL_IDLE_SLEEP_NS 2000000L

static __thread bool gomp_cl_slack_set;
static long gomp_cl_spin_ns = GOMP_CL_SPIN_NS;
static bool gomp_cl_oversubscribed;

void
gomp_cl_backoff_oversubscribed (void)
{
  gomp_cl_oversubscribed = true;
  gomp_cl_spin_ns = GOMP_CL_SPIN_OVERSUBSCRIBED_NS;
}

void
gomp_cl_backoff_init (struct gomp_cl_backoff *b)
{
  b->polls = 0;
  b->sleep_ns = 0;
  b->idle = false;
  clock_gettime (CLOCK_MONOTONIC, &b->start);
}

void
gomp_cl_backoff_pause (struct gomp_cl_backoff *b)
{
  if (b->sleep_ns <= 0)
    {
      /* Still spinning: look at the clock every 64 polls.  */
      if (++b->polls % 64 != 0)
	{
	  if (gomp_cl_oversubscribed || b->sleep_ns < 0)
	    sched_yield ();
	  else
	    __builtin_ia32_pause ();
	  return;
	}
      struct timespec now;
      clock_gettime (CLOCK_MONOTONIC, &now);
      long ns = (now.tv_sec - b->start.tv_sec) * 1000000000L
		+ (now.tv_nsec - b->start.tv_nsec);
      if (ns < gomp_cl_spin_ns)
	{
	  if (ns >= GOMP_CL_PAUSE_NS)
	    b->sleep_ns = -1;
	  return;
	}
      b->sleep_ns = GOMP_CL_SLEEP_MIN_NS;
      if (!gomp_cl_slack_set)
	{
	  /* The default 50 us slack would turn every short sleep into a
	     long one.  Per thread.  */
	  prctl (PR_SET_TIMERSLACK, 1UL, 0UL, 0UL, 0UL);
	  gomp_cl_slack_set = true;
	}
    }
  struct timespec ts = { 0, b->sleep_ns };
  while (nanosleep (&ts, &ts) == -1 && errno == EINTR)
    ;
  long cap = GOMP_CL_SLEEP_MAX_NS;
  if (b->sleep_ns >= GOMP_CL_SLEEP_MAX_NS && ++b->polls % 64 == 0)
    {
      /* Look at the clock now and then: how long have we waited?  */
      struct timespec now;
      clock_gettime (CLOCK_MONOTONIC, &now);
      if ((now.tv_sec - b->start.tv_sec) * 1000000000L
	  + (now.tv_nsec - b->start.tv_nsec) > GOMP_CL_IDLE_AFTER_NS)
	b->idle = true;
    }
  if (b->idle)
    cap = GOMP_CL_IDLE_SLEEP_NS;
  if (b->sleep_ns < cap)
    b->sleep_ns = b->sleep_ns * 2 > cap ? cap : b->sleep_ns * 2;
}
