/* Main's local array, 32 DSM blocks on rank 0's stack, read by every
   thread of every node between flushes of every thread.  A release
   announces a stack block that other nodes hold only when it changed
   since they were given it (its twin, dsm/release.c): the flushes of the
   master, which does not write the array, must not make the others
   fetch it again (before, each of them announced every block the others
   had fetched: 9000 to 29000 fetches a node at 2x1, 2x2 and 3x1; now
   under 700, the block of the region's data block, which the master's
   frames share, and those of the slices written).  The slices that a
   thread writes in turn, on the master's node or another (a diff to the
   stack's home), must be seen by every thread after the barrier.
   ompc-nodes: 1 1x2 2x1 2x2 3x1
   ompc-env: OMPC_STATS=1
   ompc-timeout: 120
   ompc-output: stack-twin ok
   ompc-no-output: pages fetched [0-9]{5,}  */

#include <omp.h>
#include <stdio.h>

#define N 16384			/* 128 KiB.  */
#define ROUNDS 40
#define FLUSHES 20
#define SLICE 300

int
main (void)
{
  long a[N], bad = 0;
  for (int i = 0; i < N; i++)
    a[i] = i;
#pragma omp parallel reduction(+: bad)
  {
    int t = omp_get_thread_num (), n = omp_get_num_threads ();
    for (int r = 0; r < ROUNDS; r++)
      {
	long want = (long) N * (N - 1) / 2 + (long) SLICE * r;
	for (int f = 0; f < FLUSHES; f++)
	  {
	    long s = 0;
	    for (int i = 0; i < N; i++)
	      s += a[i];
	    bad += s != want;
#pragma omp flush
	  }
#pragma omp barrier
	if (t == r % n)
	  for (int k = 0, i = (r * 517) % N; k < SLICE; k++, i = (i + 1) % N)
	    a[i] += 1;
#pragma omp barrier
      }
  }
  if (bad)
    {
      printf ("stack-twin: %ld stale sums\n", bad);
      return 1;
    }
  printf ("stack-twin ok\n");
  return 0;
}
