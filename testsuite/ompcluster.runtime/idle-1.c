/* Waiting threads spin briefly and then sleep: idle pool threads after a
   region, and threads waiting in a barrier for a late one, use little
   processor time (OMP_WAIT_POLICY unset).  */
/* ompc-compile: plain */
/* ompc-nodes: 1x2 1x4 */
/* ompc-timeout: 60 */

#include <omp.h>
#include <stdio.h>
#include <time.h>
#include <unistd.h>

static double
cpu_seconds (void)
{
  struct timespec ts;
  clock_gettime (CLOCK_PROCESS_CPUTIME_ID, &ts);
  return ts.tv_sec + ts.tv_nsec / 1e9;
}

int
main (void)
{
  int n = 0;
#pragma omp parallel
#pragma omp atomic
  n++;

  /* The pool is idle while the initial thread sleeps.  */
  double c0 = cpu_seconds ();
  usleep (500000);
  double idle = cpu_seconds () - c0;

  /* Threads wait in a barrier for thread 0, which sleeps.  */
  double c1 = 0, waited = 0;
#pragma omp parallel
  {
    if (omp_get_thread_num () == 0)
      {
	c1 = cpu_seconds ();
	usleep (500000);
      }
#pragma omp barrier
#pragma omp master
    waited = cpu_seconds () - c1;
  }
  /* A full spin is some milliseconds; spinning through the half second
     would cost far more.  */
  double limit = 0.03 * (n - 1) + 0.02;
  if (idle > limit || waited > limit)
    {
      fprintf (stderr, "%d threads: %.3f s of processor while idle, %.3f s "
	       "while waiting\n", n, idle, waited);
      return 1;
    }
  return 0;
}
