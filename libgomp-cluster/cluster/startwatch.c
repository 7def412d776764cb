/* startwatch.c -- a rank whose partners never start MPI: the job ends
   with a message instead of waiting in MPI_Init_thread for ever.

   Why.  MPI_Init_thread returns only when every rank of the job has
   started MPI.  A rank that runs a program built without the ompcluster
   plugin never does: on GCC's libgomp it runs the whole program by
   itself and exits, on ours it refuses to run (start.c) and exits; a rank
   that runs some other program entirely does the same.  Hydra ends a job
   only when a rank dies from a signal or aborts, so the ranks that did
   start MPI would wait for ever, saying nothing.

   How.  Around MPI_Init_thread a thread of the module waits for
   OMPC_HEARTBEAT seconds (the limit of the liveness check that takes over
   once the ranks are started, heartbeat.c; 0 turns both off).  When the
   time runs out it names the likely causes and what to do, and ends the
   process with status 1 (MPI cannot abort a job that has not started).
   Time during which the watch itself got no processor (an overloaded
   machine) does not count.  */

#include "cluster-int.h"
#include <errno.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

/* Checks of the clock per limit.  */
#define GOMP_CL_START_STEPS 10

static pthread_t gomp_cl_sw_thread;
static bool gomp_cl_sw_running, gomp_cl_sw_done;
static pthread_mutex_t gomp_cl_sw_mutex = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t gomp_cl_sw_cond;
static long gomp_cl_sw_limit_s;

static void *
gomp_cl_sw_main (void *arg)
{
  long step = gomp_cl_sw_limit_s * 1000000000L / GOMP_CL_START_STEPS;
  long waited = 0, prev = gomp_cl_now_ns ();

  (void) arg;
  pthread_mutex_lock (&gomp_cl_sw_mutex);
  while (!gomp_cl_sw_done)
    {
      long wake = prev + step;
      struct timespec ts = { wake / 1000000000L, wake % 1000000000L };
      while (!gomp_cl_sw_done
	     && pthread_cond_timedwait (&gomp_cl_sw_cond, &gomp_cl_sw_mutex,
					&ts) != ETIMEDOUT)
	;
      if (gomp_cl_sw_done)
	break;
      long now = gomp_cl_now_ns ();
      /* Woken more than a step late: count one step only.  */
      waited += now - prev > 2 * step ? step : now - prev;
      prev = now;
      if (waited < gomp_cl_sw_limit_s * 1000000000L)
	continue;
      char rank[16] = "?";
      if (gomp_cl_host->env.launcher_rank >= 0)
	snprintf (rank, sizeof rank, "%d", gomp_cl_host->env.launcher_rank);
      gomp_cl_say ("ompcluster: rank %s: fatal error: MPI_Init_thread has "
		   "waited %ld s for the other ranks of the job to start MPI: "
		   "a rank that never does runs another program, or one not "
		   "compiled with the ompcluster plugin (plain gcc -fopenmp), "
		   "which runs by itself or refuses to.  Rebuild the program "
		   "with bin/ompcc (or gcc -fopenmp -fplugin=ompcluster) and "
		   "run that same binary on every rank (OMPC_HEARTBEAT=%ld "
		   "sets this limit)\n", rank, gomp_cl_sw_limit_s,
		   gomp_cl_sw_limit_s);
      _exit (EXIT_FAILURE);
    }
  pthread_mutex_unlock (&gomp_cl_sw_mutex);
  return NULL;
}

void
gomp_cl_start_watch (void)
{
  pthread_condattr_t ca;
  pthread_attr_t attr;

  gomp_cl_sw_limit_s = gomp_cl_host->env.heartbeat;
  if (gomp_cl_sw_limit_s == 0)
    return;
  pthread_condattr_init (&ca);
  pthread_condattr_setclock (&ca, CLOCK_MONOTONIC);
  pthread_cond_init (&gomp_cl_sw_cond, &ca);
  pthread_condattr_destroy (&ca);
  pthread_attr_init (&attr);
  gomp_cl_thread_stack (&attr, 64 << 10);
  if (pthread_create (&gomp_cl_sw_thread, &attr, gomp_cl_sw_main, NULL) != 0)
    gomp_cl_fatal ("cannot start the thread that watches MPI_Init_thread");
  pthread_attr_destroy (&attr);
  gomp_cl_sw_running = true;
}

void
gomp_cl_start_watch_end (void)
{
  if (!gomp_cl_sw_running)
    return;
  pthread_mutex_lock (&gomp_cl_sw_mutex);
  gomp_cl_sw_done = true;
  pthread_cond_signal (&gomp_cl_sw_cond);
  pthread_mutex_unlock (&gomp_cl_sw_mutex);
  pthread_join (gomp_cl_sw_thread, NULL);
  gomp_cl_sw_running = false;
}
