/* A program with a known hot global array and a hot heap buffer, for the
   sharing report (OMPC_REPORT): every node writes its part of both in
   each of many parallel loops, and reads its neighbours' boundaries, so
   both move between nodes; the per-thread counters in hot_counts are
   written by every thread (false sharing).  Checks its own results.  */

/* ompc-nodes: 1 2x1 2x2
   ompc-options: -g
   ompc-output: ok */

#include <omp.h>
#include <stdio.h>
#include <stdlib.h>

#define N (1 << 16)
#define STEPS 20

double hot_global[N];
long hot_counts[64];

int
main (void)
{
  double *hot_heap = malloc (N * sizeof *hot_heap);	/* HOT-MALLOC-LINE */
  if (!hot_heap)
    return 1;
  for (int i = 0; i < N; i++)
    {
      hot_global[i] = i;
      hot_heap[i] = 0;
    }
  for (int s = 0; s < STEPS; s++)
    {
#pragma omp parallel for schedule(static)
      for (int i = 0; i < N; i++)
	{
	  double left = hot_global[(i + N - 1) % N];
	  hot_heap[i] = left + 1;
	  hot_counts[omp_get_thread_num () % 64]++;
	}
#pragma omp parallel for schedule(static)
      for (int i = 0; i < N; i++)
	hot_global[i] = hot_heap[(i + 1) % N] - 1;
    }
  /* Each step moves every element one place right and back.  */
  for (int i = 0; i < N; i++)
    if (hot_global[i] != (double) i)
      {
	fprintf (stderr, "wrong value at %d: %g\n", i, hot_global[i]);
	return 1;
      }
  long total = 0;
  for (int t = 0; t < 64; t++)
    total += hot_counts[t];
  if (total != (long) N * STEPS)
    {
      fprintf (stderr, "wrong count %ld\n", total);
      return 1;
    }
  free (hot_heap);
  printf ("ok\n");
  return 0;
}
