/* First touch in a parallel initialisation (a static loop, the way
   applications place their data): each thread touches the first element
   of its part, then the rest in sequence.  The node that reaches the end
   of its part claims blocks ahead, but never past a block another node
   already touched, so every block of every part is homed where it is
   written, and the timed loop, in which each thread rewrites only its own
   part, sends no diff at all.
   ompc-nodes: 1x2 2x1 2x2 3x1
   ompc-env: OMPC_STATS=1
   ompc-output: first touch ok
   ompc-no-output: diffs sent [1-9]  */

#include <omp.h>
#include <stdio.h>
#include <stdlib.h>

#define N (3 << 20)		/* Doubles of each array: 24 MiB.  */

int
main (void)
{
  double *a = malloc (N * sizeof *a), *b = malloc (N * sizeof *b);
  long bad = 0;
  if (!a || !b)
    return 2;
#pragma omp parallel
  {
    int t = omp_get_thread_num (), nt = omp_get_num_threads ();
    long lo = N / nt * t, hi = t == nt - 1 ? N : N / nt * (t + 1);
    a[lo] = b[lo] = 0.0;
#pragma omp barrier
    for (long i = lo; i < hi; i++)
      a[i] = b[i] = (double) t;
  }
  for (int it = 1; it <= 5; it++)
    {
#pragma omp parallel
      {
	int t = omp_get_thread_num (), nt = omp_get_num_threads ();
	long lo = N / nt * t, hi = t == nt - 1 ? N : N / nt * (t + 1);
	for (long i = lo; i < hi; i++)
	  {
	    a[i] += it;
	    b[i] = a[i] * 2.0;
	  }
      }
    }
#pragma omp parallel for schedule(static) reduction(+:bad)
  for (long i = 0; i < N; i++)
    if (b[i] != 2.0 * a[i] || a[i] < 15.0)
      bad++;
  if (bad)
    {
      printf ("first touch: %ld wrong values\n", bad);
      return 1;
    }
  printf ("first touch ok\n");
  return 0;
}
