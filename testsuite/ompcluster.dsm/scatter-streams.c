/* Threads scatter keys to their buckets' places in one array (buckets in
   order, threads in order within a bucket, as NPB IS's OpenMP version
   does): each node writes many short runs of blocks homed elsewhere, the
   runs' faults interleaved, so dsm/fetch.c fetches ahead of each stream
   (as far as the blocks just before the faulting one that the node holds)
   and takes blocks the next stream's writer writes.  Keys change every
   round; after the scatter every thread checks the whole array against
   the keys, so a block fetched ahead and then written by another node
   (its home or not) must show that node's values.
   ompc-nodes: 1x2 2x1 2x2 3x1
   ompc-timeout: 180
   ompc-output: scatter-streams ok  */

#include <omp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define N (1 << 20)
#define NB 256
#define ROUNDS 6

/* Key I of round R: the mean of two hashes, so that the middle buckets
   hold more keys (runs of several blocks) than the outer ones (runs
   shorter than a block).  */
static int
key_of (long i, int r)
{
  unsigned long x = (unsigned long) i * 2654435761UL + (unsigned long) r * 40503UL;
  x ^= x >> 13;
  x *= 0x9e3779b97f4a7c15UL;
  unsigned a = (x >> 20) % (NB * 64), b = (x >> 40) % (NB * 64);
  return (int) ((a + b) / 2);
}

int
main (void)
{
  int *key = malloc (N * sizeof *key), *buf = malloc (N * sizeof *buf);
  int maxt = omp_get_max_threads () * 64;
  long *hist = malloc ((long) maxt * NB * sizeof *hist);
  long bad = 0;
  if (!key || !buf || !hist)
    return 2;
#pragma omp parallel for schedule(static)
  for (long i = 0; i < N; i++)
    buf[i] = -1;
  for (int r = 0; r < ROUNDS; r++)
    {
#pragma omp parallel reduction(+:bad)
      {
	int t = omp_get_thread_num (), nt = omp_get_num_threads ();
	long lo = N * t / nt, hi = N * (t + 1) / nt;
	long *h = hist + (long) t * NB;
	long *o = malloc (NB * sizeof *o);
	memset (h, 0, NB * sizeof *h);
	for (long i = lo; i < hi; i++)
	  {
	    key[i] = key_of (i, r);
	    h[key[i] >> 6]++;
	  }
#pragma omp barrier
	/* Where thread U's keys of bucket B start.  */
	long *start = malloc ((long) nt * NB * sizeof *start), base = 0;
	for (int b = 0; b < NB; b++)
	  for (int u = 0; u < nt; u++)
	    {
	      start[(long) u * NB + b] = base;
	      base += hist[(long) u * NB + b];
	    }
	memcpy (o, start + (long) t * NB, NB * sizeof *o);
	for (long i = lo; i < hi; i++)
	  buf[o[key[i] >> 6]++] = key[i];
#pragma omp barrier
	for (int u = 0; u < nt; u++)
	  {
	    long *p = start + (long) u * NB;
	    for (long i = N * u / nt; i < N * (u + 1) / nt; i++)
	      {
		int k = key_of (i, r);
		if (buf[p[k >> 6]++] != k)
		  bad++;
	      }
	  }
	free (start);
	free (o);
      }
    }
  if (bad)
    {
      printf ("scatter-streams: %ld wrong values\n", bad);
      return 1;
    }
  printf ("scatter-streams ok\n");
  free (key);
  free (buf);
  free (hist);
  return 0;
}
