/* task_barriers.c -- what task stealing costs a program that is not made
   of tasks: one task, then many short worksharing loops, each ending in a
   barrier (a solver that makes a task for its set-up, say).  No speed-up
   is to be had across nodes (the loops are a few microseconds of work
   against a barrier); the figure to look at is the time with stealing
   (the default) against the time with OMPC_TASK_STEAL=0 at the same
   configuration.  Each element's value is checked against the same
   arithmetic done serially.  Usage: task_barriers [LOOPS].  */

#include <stdio.h>
#include <stdlib.h>
#include "common.h"

#define N 4096

static double a[N], setup;

int
main (int argc, char **argv)
{
  int loops = argc > 1 ? atoi (argv[1]) : 300000;
  double t0 = bench_now ();
#pragma omp parallel
  {
#pragma omp single
#pragma omp task
    setup = 1.0;
    for (int k = 0; k < loops; k++)
      {
#pragma omp for
	for (int i = 0; i < N; i++)
	  a[i] = a[i] * 0.5 + i * setup;
      }
  }
  double t = bench_now () - t0;
  int bad = 0;
  double sum = 0;
  for (int i = 0; i < N; i++)
    sum += a[i];
  for (int i = 0; i < N; i += 127)
    {
      double v = 0;
      for (int k = 0; k < loops; k++)
	v = v * 0.5 + i * 1.0;
      bad += v != a[i];
    }
  printf ("time %.6f\ncheck %.17g\nverified %s\n", t, sum,
	  bad ? "no" : "yes");
  return bad != 0;
}
