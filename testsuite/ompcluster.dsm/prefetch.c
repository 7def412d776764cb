/* The acquire's prefetch and what it must never get wrong: every
   iteration each thread rewrites its static part of P, then every thread
   reads a varying subset of the pages of P (some prefetched pages are
   used, some are not, some used pages were not prefetched), and all
   threads write interleaved bytes and integers of shared arrays (every
   node writes every page: byte-exact diffs, runs and bitmap forms, and
   prefetched runs opened by a write).  Each read is checked exactly.
   prefetch-used.c runs this with OMPC_STATS to see prefetches happen.
   ompc-nodes: 1 1x2 2x1 2x2 3x1
   ompc-timeout: 180
   ompc-output: prefetch ok  */

#include <omp.h>
#include <stdio.h>
#include <stdlib.h>

#define N (1 << 16)		/* Doubles of P: 128 pages.  */
#define PG 512			/* Doubles a page.  */
#define NB (1 << 15)		/* Bytes of C.  */
#define NK (1 << 14)		/* Integers of K.  */
#define ITERS 12

int
main (void)
{
  double *p = malloc (N * sizeof *p);
  unsigned char *c = malloc (NB);
  int *k = malloc (NK * sizeof *k);
  long bad = 0;
  if (!p || !c || !k)
    return 2;
#pragma omp parallel for schedule(static)
  for (long i = 0; i < N; i++)
    p[i] = -1.0;
#pragma omp parallel for schedule(static)
  for (long i = 0; i < NB; i++)
    c[i] = 0;
#pragma omp parallel for schedule(static)
  for (long i = 0; i < NK; i++)
    k[i] = 0;

  for (int it = 0; it < ITERS; it++)
    {
#pragma omp parallel for schedule(static)
      for (long i = 0; i < N; i++)
	p[i] = it * 1000000.0 + i;
      /* Pages whose number is not IT mod 3: what was used changes.  */
#pragma omp parallel for schedule(static) reduction(+:bad)
      for (long i = 0; i < N; i++)
	{
	  long j = (i * 7919) % N;
	  if ((j / PG) % 3 == it % 3)
	    continue;
	  if (p[j] != it * 1000000.0 + j)
	    bad++;
	}
#pragma omp parallel reduction(+:bad)
      {
	int t = omp_get_thread_num (), nt = omp_get_num_threads ();
	/* Bytes dealt round-robin: every page has every thread's bytes.  */
	for (long i = t; i < NB; i += nt)
	  c[i] = (unsigned char) (it * 31 + i);
	/* Integers in runs of 3 per thread, their high bytes unchanged
	   (the form of a bucket sort's keys).  */
	for (long i = 3 * t; i < NK; i += 3 * nt)
	  for (long m = i; m < i + 3 && m < NK; m++)
	    k[m] = (int) (m * 64 + (it + t) % 64);
#pragma omp barrier
	for (long i = 0; i < NB; i++)
	  if (c[i] != (unsigned char) (it * 31 + i))
	    bad++;
	for (long i = 0; i < NK; i++)
	  if (k[i] != (int) (i * 64 + (it + (i / 3) % nt) % 64))
	    bad++;
      }
    }
  if (bad)
    {
      printf ("prefetch: %ld wrong values\n", bad);
      return 1;
    }
  printf ("prefetch ok\n");
  free (p);
  free (c);
  free (k);
  return 0;
}
