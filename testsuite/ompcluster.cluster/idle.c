/* Idle ranks do not burn the processor: while rank 0 computes alone for a
   while, every other process uses under 5% of a core (its waiting thread
   and its service thread together).  */
/* ompc-nodes: 2x1 3x1 */
/* ompc-timeout: 60 */
#include <omp.h>
#include <stdio.h>
#include <time.h>
#include <unistd.h>

#define MAX 256
static double cpu0[MAX], cpu1[MAX];
static int pid[MAX];

static double
cpu_now (void)
{
  struct timespec ts;
  clock_gettime (CLOCK_PROCESS_CPUTIME_ID, &ts);
  return ts.tv_sec + ts.tv_nsec * 1e-9;
}

int
main (void)
{
  int team = 0;
  volatile double x = 0;
#pragma omp parallel
  {
    int me = omp_get_thread_num ();
#pragma omp master
    team = omp_get_num_threads ();
    cpu0[me] = cpu_now ();
    pid[me] = getpid ();
  }
  /* Rank 0 alone: about 3 s of computation.  */
  double t0 = omp_get_wtime ();
  while (omp_get_wtime () - t0 < 3.0)
    for (int i = 0; i < 100000; i++)
      x += i * 0.5;
  double wall = omp_get_wtime () - t0;
#pragma omp parallel
  cpu1[omp_get_thread_num ()] = cpu_now ();
  int bad = 0;
  for (int i = 0; i < team; i++)
    if (pid[i] != getpid ())
      {
	double share = (cpu1[i] - cpu0[i]) / wall;
	printf ("thread %d (pid %d): %.1f%% of a core while idle\n", i,
		pid[i], 100 * share);
	if (share > 0.05)
	  bad = 1;
      }
  return bad;
}
