/* Each thread merges two sorted runs of arrays homed on the first node,
   as a merge sort's merge does: binary searches first (they fetch
   single blocks here and there in both runs), then both runs read in
   step, two streams whose faults interleave, each fetching ahead as far
   as the blocks it holds before the fault (dsm/fetch.c) up to the
   islands the searches left.  Then another thread (another node, with
   several) rewrites the runs, of which the reader may hold blocks
   fetched ahead and never touched; after the barrier the next merge
   must see the new values.  Every output value is checked.
   ompc-nodes: 1x2 2x1 2x2 3x1
   ompc-timeout: 180
   ompc-output: merge-streams ok  */

#include <omp.h>
#include <stdio.h>
#include <stdlib.h>

#define N (1L << 19)		/* 2 MiB of ints per run.  */
#define ROUNDS 4

/* The first index of A[0..N) whose value is >= K.  */
static long
lower (const int *a, long n, int k)
{
  long lo = 0, hi = n;
  while (lo < hi)
    {
      long mid = (lo + hi) / 2;
      if (a[mid] < k)
	lo = mid + 1;
      else
	hi = mid;
    }
  return lo;
}

/* Run A holds the even values from BASE on, run B the odd ones: their
   merge is BASE, BASE + 1, BASE + 2 ...  */
static void
fill (int *a, int *b, long lo, long hi, int base)
{
  for (long i = lo; i < hi; i++)
    {
      a[i] = base + 2 * (int) i;
      b[i] = base + 2 * (int) i + 1;
    }
}

int
main (void)
{
  int *a = malloc (N * sizeof *a), *b = malloc (N * sizeof *b);
  int *out = malloc (2 * N * sizeof *out);
  long bad = 0;
  if (!a || !b || !out)
    return 2;
  fill (a, b, 0, N, 0);
  for (int r = 0; r < ROUNDS; r++)
    {
      int base = r * 7;
#pragma omp parallel reduction(+:bad)
      {
	int t = omp_get_thread_num (), nt = omp_get_num_threads ();
	/* This thread's share of the output: values LO .. HI - 1 (past
	   BASE), found in both runs by binary search.  */
	long lo = 2 * N * t / nt, hi = 2 * N * (t + 1) / nt;
	long ia = lower (a, N, base + (int) lo);
	long ib = lower (b, N, base + (int) lo);
	long ea = lower (a, N, base + (int) hi);
	long eb = lower (b, N, base + (int) hi);
	long o = lo;
	while (ia < ea && ib < eb)
	  out[o++] = a[ia] <= b[ib] ? a[ia++] : b[ib++];
	while (ia < ea)
	  out[o++] = a[ia++];
	while (ib < eb)
	  out[o++] = b[ib++];
	bad += o != hi;
	for (long i = lo; i < hi; i++)
	  bad += out[i] != base + (int) i;
#pragma omp barrier
	/* The next round's runs, written by each thread for a part the
	   next thread reads first (a part of a fetched ahead and never
	   touched, maybe).  */
	fill (a, b, N * t / nt, N * (t + 1) / nt, base + 7);
      }
    }
  free (a);
  free (b);
  free (out);
  if (bad)
    {
      printf ("merge-streams: %ld wrong values\n", bad);
      return 1;
    }
  printf ("merge-streams ok\n");
  return 0;
}
