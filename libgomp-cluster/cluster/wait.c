/* wait.c -- waiting for MPI requests with back-off, so that idle ranks and
   oversubscribed nodes do not burn the processors their peers need.
   MPICH busy-polls inside blocking calls; this module never makes one
   that can wait long.

   A thread that waits here is the node's MPI progress while it spins: it
   runs the transport's passes (serving other nodes' requests), so the
   service thread sleeps meanwhile and the node has one thread polling MPI,
   not two competing for MPICH's lock and for the processors.

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

#include "cluster-int.h"
#include <errno.h>
#include <sched.h>
#include <stdlib.h>
#include <unistd.h>
#include <sys/prctl.h>

/* How long a waiter polls before it starts sleeping, and the longest sleep
   between polls.  When the machine's processors are oversubscribed (the
   threads of the ranks on this machine outnumber them, as in tests), a
   waiter that polls takes the processor from the rank it waits for: it
   then polls only briefly, yielding.  */
#define GOMP_CL_SPIN_NS 2000000L
/* While spinning, a waiter serves other nodes and watches the dispatch
   once in this many polls.  */
#define GOMP_CL_SERVE_EVERY 4
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
gomp_cl_wait_init (void)
{
  MPI_Comm local;
  int local_ranks = 1;
  cpu_set_t set;
  long cpus = sysconf (_SC_NPROCESSORS_ONLN);

  if (sched_getaffinity (0, sizeof set, &set) == 0)
    cpus = CPU_COUNT (&set);
  if (MPI_Comm_split_type (MPI_COMM_WORLD, MPI_COMM_TYPE_SHARED, 0,
			   MPI_INFO_NULL, &local) == MPI_SUCCESS)
    {
      MPI_Comm_size (local, &local_ranks);
      MPI_Comm_free (&local);
    }
  gomp_cl_ops.local_ranks = local_ranks;
  /* The threads of every rank here (OMP_NUM_THREADS's first level;
     default: one per processor).  */
  long threads = cpus;
  const char *nt = getenv ("OMP_NUM_THREADS");
  if (nt && strtol (nt, NULL, 10) > 0)
    threads = strtol (nt, NULL, 10);
  if (cpus > 0 && local_ranks > 1 && local_ranks * threads > cpus)
    {
      gomp_cl_oversubscribed = true;
      gomp_cl_spin_ns = GOMP_CL_SPIN_OVERSUBSCRIBED_NS;
    }
}

double
gomp_cl_now (void)
{
  struct timespec ts;
  clock_gettime (CLOCK_MONOTONIC, &ts);
  return ts.tv_sec + ts.tv_nsec * 1e-9;
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

void
gomp_cl_wait (MPI_Request *req)
{
  struct gomp_cl_backoff b;
  int done = 0;
  bool polling = true;
  unsigned n = 0;

  gomp_cl_backoff_init (&b);
  gomp_cl_poller_enter ();
  for (;;)
    {
      gomp_cl_check_mpi (MPI_Test (req, &done, MPI_STATUS_IGNORE),
			 "MPI_Test");
      if (done)
	break;
      /* The rest costs MPI calls: while spinning, one poll in
	 GOMP_CL_SERVE_EVERY (MPI_Test drives MPI's progress anyway).  */
      if (polling && ++n % GOMP_CL_SERVE_EVERY != 0)
	{
	  gomp_cl_backoff_pause (&b);
	  continue;
	}
      if (gomp_cl_progress ())
	{
	  /* Serving another node (its faults, its locks): stay awake.  */
	  if (!polling)
	    gomp_cl_poller_enter ();
	  polling = true;
	  gomp_cl_backoff_init (&b);
	}
      if (gomp_cl_rank != 0)
	gomp_cl_dispatch_poll ();
      gomp_cl_backoff_pause (&b);
      if (polling && b.sleep_ns > 0)
	{
	  /* Sleeping from now on: the service thread serves.  */
	  gomp_cl_poller_leave ();
	  polling = false;
	}
    }
  if (polling)
    gomp_cl_poller_leave ();
}
