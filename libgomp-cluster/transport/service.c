/* service.c -- the service thread of the MPI backend: when it runs the
   passes of mpi.c and when it sleeps, what wakes it, and the accounting
   of the node's waiting threads that run passes in its stead
   (gomp_cl_wait's through gomp_cl_progress, gomp_cl_call's in call.c),
   by which it knows when it may sleep.

   While a thread of the node runs passes, the service thread sleeps,
   looking again every HELPED_SLEEP_NS (a waiter of gomp_cl_call that sees
   a request wakes it, since that waiter runs no handlers; a waiter that
   stops polling is noticed within HELPED_STALE_NS).  Otherwise it polls,
   yielding between polls, for SPIN_BUSY_NS after the node's last activity
   (its own or a waiter's pass that moved a message: requests come in
   bursts, e.g. the other nodes' fetches after a barrier), and on for
   SPIN_NS while the machine has a processor nobody else wants
   (gomp_cl_processor_free).  No longer: beside computing threads a
   polling thread takes their processor, yield or not (the kernel credits
   a thread back from sleep with the time it slept; profiled at 2 nodes x
   1 thread on 2 cores, a service thread that polled 2 ms after every
   activity had a third of each rank's samples in Jacobi).  Then it sleeps
   on a futex with a timeout half the time since the last activity, up to
   1 ms (2 ms after 50 ms idle): each wake-up costs a context switch both
   ways, ~20 us of processor on this project's virtual machines (a 1 us
   futex sleep measured 22 us of the thread's processor time), so sleeps
   are few; a local request wakes it at once, and MPI is still polled.
   The timer slack of the thread is 1 ns.  */

#define _GNU_SOURCE 1
#include "transport-int.h"
#include "config/linux/futex.h"
#include <pthread.h>
#include <sched.h>
#include <stdbool.h>
#include <sys/prctl.h>
#include <time.h>

#define SPIN_NS 2000000L
#define SPIN_BUSY_NS 200000L
#define SLEEP_MIN_NS 1000L
#define SLEEP_MAX_NS 1000000L
/* How long the service thread sleeps while a waiter runs the passes (it is
   woken when it is needed earlier).  A waiter that ran no pass for
   HELPED_STALE_NS (preempted on a busy machine, or gone: a rank that ends
   inside a wait) is not trusted any more: the service thread serves.  */
#define HELPED_SLEEP_NS 100000L
#define HELPED_STALE_NS 200000L

static uint32_t queue_seq;		/* Futex word of the service thread.  */
/* The service thread's state: awake, asleep until a push or a kick, or
   asleep while waiters run the passes (only a kick wakes it).  */
enum { SVC_AWAKE, SVC_SLEEPING, SVC_HELPED };
static int svc_state, svc_stop, svc_running;
static pthread_t svc_thread;
/* Threads spinning in gomp_cl_wait (full passes) and in gomp_cl_call
   waits (reply-only passes).  */
static int full_pollers, call_pollers;
/* A reply-only pass saw a request: the service thread must serve it.  */
static int svc_wanted;
/* When a pass last moved a message, and when a waiter last ran a full
   pass and a reply-only one (CLOCK_MONOTONIC ns).  */
static long last_activity, last_full, last_call;


void
gomp_cl_kick (void)
{
  __atomic_add_fetch (&queue_seq, 1, __ATOMIC_SEQ_CST);
  if (__atomic_load_n (&svc_state, __ATOMIC_SEQ_CST) != SVC_AWAKE)
    gomp_futex_wake (&queue_seq, 1);
}

void
gomp_cl_service_pushed (void)
{
  __atomic_add_fetch (&queue_seq, 1, __ATOMIC_SEQ_CST);
  if (__atomic_load_n (&svc_state, __ATOMIC_SEQ_CST) == SVC_SLEEPING)
    gomp_futex_wake (&queue_seq, 1);
}

/* Whether a waiter of gomp_cl_wait runs full passes (serves requests):
   one is counted and ran one lately (one that stopped polling -- it may
   have ended the rank inside its wait -- does not count).  */
static bool
cl_full_helper (void)
{
  return __atomic_load_n (&full_pollers, __ATOMIC_SEQ_CST) > 0
	 && gomp_cl_now_ns () - __atomic_load_n (&last_full, __ATOMIC_RELAXED)
	    < HELPED_STALE_NS;
}

bool
gomp_cl_service_needed (void)
{
  return !cl_full_helper ()
	 && !__atomic_load_n (&svc_wanted, __ATOMIC_RELAXED);
}

void
gomp_cl_service_want (void)
{
  __atomic_store_n (&svc_wanted, 1, __ATOMIC_SEQ_CST);
  gomp_cl_kick ();
}

bool
gomp_cl_service_stopped (void)
{
  return __atomic_load_n (&svc_stop, __ATOMIC_ACQUIRE);
}

bool
gomp_cl_service_self (void)
{
  return pthread_equal (pthread_self (), svc_thread);
}

uint64_t
gomp_cl_service_cpu_ns (void)
{
  clockid_t clk;
  struct timespec ts;
  if (__atomic_load_n (&svc_running, __ATOMIC_ACQUIRE)
      && pthread_getcpuclockid (svc_thread, &clk) == 0
      && clock_gettime (clk, &ts) == 0)
    return ts.tv_sec * 1000000000L + ts.tv_nsec;
  return 0;
}

/* One pass, with the progress lock; notes when it moved a message.  */
static int
cl_pass (bool full)
{
  int any = gomp_cl_pass (full);
  if (any)
    __atomic_store_n (&last_activity, gomp_cl_now_ns (), __ATOMIC_RELAXED);
  return any;
}

int
gomp_cl_waiter_pass (bool full)
{
  /* Not before the transport starts (only its service thread will), nor
     once it stops.  */
  if (!__atomic_load_n (&svc_running, __ATOMIC_ACQUIRE)
      || !gomp_cl_progress_trylock ())
    return -1;
  __atomic_store_n (full ? &last_full : &last_call, gomp_cl_now_ns (),
		    __ATOMIC_RELAXED);
  int any = cl_pass (full);
  gomp_cl_progress_unlock ();
  return any;
}

void
gomp_cl_waiter_enter (bool full)
{
  __atomic_add_fetch (full ? &full_pollers : &call_pollers, 1,
		      __ATOMIC_SEQ_CST);
}

void
gomp_cl_waiter_leave (bool full)
{
  __atomic_sub_fetch (full ? &full_pollers : &call_pollers, 1,
		      __ATOMIC_SEQ_CST);
}

bool
gomp_cl_progress (void)
{
  return gomp_cl_waiter_pass (true) > 0;
}

void
gomp_cl_poller_enter (void)
{
  __atomic_add_fetch (&full_pollers, 1, __ATOMIC_SEQ_CST);
}

void
gomp_cl_poller_leave (void)
{
  /* No wake-up (a system call at the end of every barrier): the service
     thread looks again within HELPED_SLEEP_NS, as often as it would poll
     MPI when asleep anyway.  */
  __atomic_sub_fetch (&full_pollers, 1, __ATOMIC_SEQ_CST);
}

/* Whether waiters run the passes the service thread would: a waiter in
   gomp_cl_wait does all of it; waiters of gomp_cl_call leave requests to
   the service thread (they wake it) and the deferred messages too.  */
static bool
cl_helped (void)
{
  return cl_full_helper ()
	 || (__atomic_load_n (&call_pollers, __ATOMIC_SEQ_CST) > 0
	     && !gomp_cl_deferred_pending ()
	     && gomp_cl_now_ns () - __atomic_load_n (&last_call, __ATOMIC_RELAXED)
		< HELPED_STALE_NS);
}

static void
cl_svc_sleep (int state, long ns)
{
  __atomic_store_n (&svc_state, state, __ATOMIC_SEQ_CST);
  uint32_t seq = __atomic_load_n (&queue_seq, __ATOMIC_SEQ_CST);
  bool wait = !__atomic_load_n (&svc_stop, __ATOMIC_SEQ_CST)
	      && !__atomic_load_n (&svc_wanted, __ATOMIC_SEQ_CST);
  if (state == SVC_HELPED)
    wait = wait && cl_helped ();
  else
    wait = wait && !__atomic_load_n (&gomp_cl_queue_head, __ATOMIC_SEQ_CST);
  if (wait)
    {
      struct timespec ts = { ns / 1000000000L, ns % 1000000000L };
      gomp_futex_wait_for (&queue_seq, seq, &ts);
    }
  __atomic_store_n (&svc_state, SVC_AWAKE, __ATOMIC_SEQ_CST);
}

static void *
cl_service (void *arg)
{
  prctl (PR_SET_TIMERSLACK, 1UL, 0, 0, 0);
  __atomic_store_n (&last_activity, gomp_cl_now_ns (), __ATOMIC_RELAXED);
  for (;;)
    {
      bool stop = __atomic_load_n (&svc_stop, __ATOMIC_ACQUIRE);
      if (!stop && cl_helped ()
	  && !__atomic_load_n (&svc_wanted, __ATOMIC_SEQ_CST))
	{
	  /* Waiters run the passes.  Afterwards, the sleeps go on from
	     where they were (each short one would take a processor from
	     the node's threads, e.g. between barriers).  */
	  cl_svc_sleep (SVC_HELPED, HELPED_SLEEP_NS);
	  continue;
	}
      __atomic_store_n (&svc_wanted, 0, __ATOMIC_SEQ_CST);
      if (!gomp_cl_progress_trylock ())
	{
	  sched_yield ();
	  continue;
	}
      int any = cl_pass (true);
      gomp_cl_progress_unlock ();
      if (stop && !any && !gomp_cl_sends_pending ())
	break;
      if (any)
	continue;
      long idle = gomp_cl_now_ns () - __atomic_load_n (&last_activity,
					       __ATOMIC_RELAXED);
      if (idle < SPIN_BUSY_NS
	  || (idle < SPIN_NS && gomp_cl_processor_free ()))
	{
	  /* Poll, yielding to whoever wants the processor.  */
	  __atomic_add_fetch (&gomp_cl_counters.svc_spins, 1,
			      __ATOMIC_RELAXED);
	  sched_yield ();
	  continue;
	}
      /* Sleep until a local request or the timeout, then poll MPI.  The
	 timeout grows with the time since the last activity; up to 1 ms
	 while recently busy; a node idle for long (rank 0 computing
	 alone) polls less: 2 ms after 50 ms.  */
      long cap = idle < 50000000L ? SLEEP_MAX_NS : 2 * SLEEP_MAX_NS;
      long sleep_ns = idle / 2;
      sleep_ns = sleep_ns < SLEEP_MIN_NS ? SLEEP_MIN_NS
		 : sleep_ns > cap ? cap : sleep_ns;
      __atomic_add_fetch (&gomp_cl_counters.svc_sleeps, 1, __ATOMIC_RELAXED);
      cl_svc_sleep (SVC_SLEEPING, sleep_ns);
    }
  return NULL;
}

void
gomp_cl_service_start (void)
{
  gomp_cl_processor_free_init ();
  pthread_attr_t attr;
  pthread_attr_init (&attr);
  gomp_cl_thread_stack (&attr, 1 << 20);
  int err = pthread_create (&svc_thread, &attr, cl_service, NULL);
  pthread_attr_destroy (&attr);
  if (err)
    gomp_cl_transport_fatal ("cannot start the service thread", 0);
  __atomic_store_n (&svc_running, 1, __ATOMIC_RELEASE);
}

void
gomp_cl_service_stop (void)
{
  __atomic_store_n (&svc_running, 0, __ATOMIC_RELEASE);
  __atomic_store_n (&svc_stop, 1, __ATOMIC_RELEASE);
  gomp_cl_kick ();
  pthread_join (svc_thread, NULL);
}
