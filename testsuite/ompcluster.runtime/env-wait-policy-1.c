/* OMP_WAIT_POLICY=passive: a waiting thread sleeps at once, without
   spinning first.  Thread 1 waits at a barrier while thread 0 sleeps
   30 ms, ROUNDS times; around each wait it reads its own voluntary
   context switches (getrusage RUSAGE_THREAD) and processor time
   (CLOCK_THREAD_CPUTIME_ID).  It must have slept in every wait and used
   well under a millisecond of processor in each: the default policy
   spins for GOMP_SPINCOUNT polls first, milliseconds of processor.  */
/* ompc-compile: plain */
/* ompc-nodes: 1 */
/* ompc-env: OMP_WAIT_POLICY=passive */
/* ompc-timeout: 60 */

#define _GNU_SOURCE 1
#include <omp.h>
#include <stdio.h>
#include <sys/resource.h>
#include <time.h>

#define ROUNDS 10

static double
thread_cpu_ms (void)
{
  struct timespec ts;
  clock_gettime (CLOCK_THREAD_CPUTIME_ID, &ts);
  return ts.tv_sec * 1e3 + ts.tv_nsec * 1e-6;
}

static long
voluntary_switches (void)
{
  struct rusage ru;
  getrusage (RUSAGE_THREAD, &ru);
  return ru.ru_nvcsw;
}

int
main (void)
{
  long sleeps = 0;
  double cpu_ms = 0;
  int nthreads = 0;

#pragma omp parallel num_threads(2)
  {
    int me = omp_get_thread_num ();
    if (me == 0)
      nthreads = omp_get_num_threads ();
    for (int r = 0; r < ROUNDS; r++)
      {
	long v0 = 0;
	double c0 = 0;
	if (me == 0)
	  {
	    struct timespec ts = { 0, 30000000 };
	    nanosleep (&ts, NULL);
	  }
	else
	  {
	    v0 = voluntary_switches ();
	    c0 = thread_cpu_ms ();
	  }
#pragma omp barrier
	if (me == 1)
	  {
	    cpu_ms += thread_cpu_ms () - c0;
	    sleeps += voluntary_switches () - v0;
	  }
      }
  }
  printf ("waiter: %ld voluntary switches, %.3f ms of processor in %d "
	  "waits of 30 ms\n", sleeps, cpu_ms, ROUNDS);
  if (nthreads != 2)
    {
      fprintf (stderr, "team of %d threads, not 2\n", nthreads);
      return 1;
    }
  if (sleeps < ROUNDS)
    {
      fprintf (stderr, "the waiter slept in fewer than %d waits\n", ROUNDS);
      return 1;
    }
  if (cpu_ms > 0.5 * ROUNDS)
    {
      fprintf (stderr, "the waiter spun: %.3f ms of processor per wait\n",
	       cpu_ms / ROUNDS);
      return 1;
    }
  return 0;
}
