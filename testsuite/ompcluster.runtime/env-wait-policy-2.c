/* OMP_WAIT_POLICY=active: a waiting thread spins and never sleeps.
   Thread 1 waits at a barrier while thread 0 sleeps 200 ms, ROUNDS
   times; around each wait it reads its own voluntary context switches
   (getrusage RUSAGE_THREAD), which count the times it slept (a yield or
   a preemption is involuntary).  With the default policy it would sleep
   in every wait, after GOMP_SPINCOUNT polls (a few milliseconds of
   processor; on a loaded machine tens of milliseconds of wall time,
   hence the long waits).  */
/* ompc-compile: plain */
/* ompc-nodes: 1 */
/* ompc-env: OMP_WAIT_POLICY=ACTIVE */
/* ompc-timeout: 60 */

#define _GNU_SOURCE 1
#include <omp.h>
#include <stdio.h>
#include <sys/resource.h>
#include <time.h>

#define ROUNDS 5

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
  int nthreads = 0;

#pragma omp parallel num_threads(2)
  {
    int me = omp_get_thread_num ();
    if (me == 0)
      nthreads = omp_get_num_threads ();
    for (int r = 0; r < ROUNDS; r++)
      {
	long v0 = 0;
	if (me == 0)
	  {
	    struct timespec ts = { 0, 200000000 };
	    nanosleep (&ts, NULL);
	  }
	else
	  v0 = voluntary_switches ();
#pragma omp barrier
	if (me == 1)
	  sleeps += voluntary_switches () - v0;
      }
  }
  printf ("waiter: %ld voluntary switches in %d waits of 200 ms\n",
	  sleeps, ROUNDS);
  if (nthreads != 2)
    {
      fprintf (stderr, "team of %d threads, not 2\n", nthreads);
      return 1;
    }
  /* A page fault that waits for I/O would count: allow one.  */
  if (sleeps > 1)
    {
      fprintf (stderr, "the waiter slept in its waits\n");
      return 1;
    }
  return 0;
}
