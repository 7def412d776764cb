/* Threads walk their part of arrays homed on the first node downwards:
   a loop that runs from the top, and memcpy between two arrays a
   multiple of 4 KiB apart (glibc then copies backwards).  dsm/fetch.c
   fetches the blocks below a fault in the same round trip once a thread
   walks down, and they wait PREFETCHED.  Then another thread (another
   node, with several) rewrites the lower half of each part, of which the
   reader may hold blocks fetched ahead and never touched; after the
   barrier the reader must see the new values.  Every value is checked.
   ompc-nodes: 1x2 2x1 2x2 3x1
   ompc-timeout: 180
   ompc-output: backward-walk ok  */

#include <omp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define N (1L << 20)		/* 4 MiB of ints per array.  */
#define ROUNDS 4

static int
val (int r, long i, int later)
{
  return (int) (i * 7 + r * 1000003 + (later ? 500 : 0));
}

int
main (void)
{
  /* X and Y are 4 MiB apart: memcpy between them copies backwards.  */
  int *x = malloc (2 * N * sizeof *x), *y = x + N;
  int *z = malloc (N * sizeof *z);
  long bad = 0;
  if (!x || !z)
    return 2;
  for (int r = 0; r < ROUNDS; r++)
    {
      for (long i = 0; i < N; i++)
	{
	  x[i] = val (r, i, 0);
	  y[i] = -1;
	  z[i] = -1;
	}
#pragma omp parallel reduction(+:bad)
      {
	int t = omp_get_thread_num (), nt = omp_get_num_threads ();
	long lo = N * t / nt, hi = N * (t + 1) / nt, mid = (lo + hi) / 2;
	/* The upper half of this part, from the top down.  */
	for (long i = hi - 1; i >= mid; i--)
	  {
	    bad += x[i] != val (r, i, 0);
	    z[i] = x[i] + 1;
	  }
	memcpy (y + mid, x + mid, (hi - mid) * sizeof *y);
#pragma omp barrier
	/* The next thread's part: its lower half rewritten.  */
	int u = (t + 1) % nt;
	long ulo = N * u / nt, umid = (ulo + N * (u + 1) / nt) / 2;
	for (long i = ulo; i < umid; i++)
	  x[i] = val (r, i, 1);
#pragma omp barrier
	for (long i = mid - 1; i >= lo; i--)
	  {
	    bad += x[i] != val (r, i, 1);
	    z[i] = x[i] + 1;
	  }
	memcpy (y + lo, x + lo, (mid - lo) * sizeof *y);
      }
      int nt = 0;
#pragma omp parallel
#pragma omp single
      nt = omp_get_num_threads ();
      for (int t = 0; t < nt; t++)
	{
	  long lo = N * t / nt, hi = N * (t + 1) / nt, mid = (lo + hi) / 2;
	  for (long i = lo; i < hi; i++)
	    {
	      int v = val (r, i, i < mid);
	      bad += y[i] != v || z[i] != v + 1;
	    }
	}
    }
  free (x);
  free (z);
  if (bad)
    {
      printf ("backward-walk: %ld wrong values\n", bad);
      return 1;
    }
  printf ("backward-walk ok\n");
  return 0;
}
