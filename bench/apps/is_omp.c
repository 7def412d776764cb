/* is_omp.c -- integer bucket sort in the manner of NPB IS, plain OpenMP.

   usage: is_omp [LOG2N]   (default 2^23 keys; IS_ITERS sorts)
   In one parallel region per sort: each thread counts the keys of its
   static block per bucket, works out where its keys of each bucket go,
   scatters them there, and after a barrier counting-sorts the keys of its
   static block of buckets.  The keys of thread D's buckets are laid out as
   is_mpi.c's rank D receives them: thread 0's keys of those buckets (in
   bucket order), then thread 1's, and so on, so each thread writes one
   contiguous run per destination, as each MPI rank sends one message per
   destination.  (NPB's OpenMP IS lays the keys out bucket-major instead,
   every thread's keys of bucket 0 first: see IS_BUCKET_MAJOR.)  Checks:
   the result is ordered and holds the same keys (sum and xor).  The MPI
   twin is is_mpi.c.  */

#include <omp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "is.h"

#ifndef IS_BUCKET_MAJOR
#define IS_BUCKET_MAJOR 0
#endif

int
main (int argc, char **argv)
{
  int lg = argc > 1 ? atoi (argv[1]) : 23;
  long n = 1L << lg;
  int maxt = omp_get_max_threads () * 64;	/* Room for any team.  */
  int *key = malloc (n * sizeof *key), *buf = malloc (n * sizeof *buf);
  int *sorted = malloc (n * sizeof *sorted);
  long *hist = malloc ((long) maxt * IS_NB * sizeof *hist);
  long *off = malloc ((long) maxt * IS_NB * sizeof *off);
  long *cnt = malloc (IS_MAXKEY * sizeof *cnt);
  if (!key || !buf || !sorted || !hist || !off || !cnt)
    return 2;

#pragma omp parallel
  {
    int t = omp_get_thread_num (), nt = omp_get_num_threads ();
    long lo = n * t / nt, hi = n * (t + 1) / nt;
    is_keys (lo, hi, key + lo);
    memset (buf + lo, 0, (hi - lo) * sizeof *buf);
    memset (sorted + lo, 0, (hi - lo) * sizeof *sorted);
    long klo = IS_MAXKEY * t / nt, khi = IS_MAXKEY * (t + 1) / nt;
    memset (cnt + klo, 0, (khi - klo) * sizeof *cnt);
  }

  /* Sort -1 is NPB's untimed first iteration (is.h).  */
  double t0 = bench_now (), warm = 0;
  for (int it = -1; it < IS_ITERS; it++)
    {
      if (it == 0)
	{
	  warm = bench_now () - t0;
	  t0 = bench_now ();
	}
      int k = it < 0 ? 0 : it;
      key[k] = k;
      key[k + IS_ITERS] = IS_MAXKEY - 1 - k;
#pragma omp parallel
      {
	int t = omp_get_thread_num (), nt = omp_get_num_threads ();
	long lo = n * t / nt, hi = n * (t + 1) / nt;
	long *h = hist + (long) t * IS_NB, *o = off + (long) t * IS_NB;
	memset (h, 0, IS_NB * sizeof *h);
	for (long i = lo; i < hi; i++)
	  h[key[i] >> IS_SHIFT]++;
#pragma omp barrier
	long base = 0;
#if IS_BUCKET_MAJOR
	/* Bucket by bucket, threads in order within a bucket.  */
	for (int b = 0; b < IS_NB; b++)
	  for (int u = 0; u < nt; u++)
	    {
	      if (u == t)
		o[b] = base;
	      base += hist[(long) u * IS_NB + b];
	    }
#else
	/* Destination by destination; within one, thread by thread; within
	   a thread's run, bucket by bucket.  */
	for (int d = 0; d < nt; d++)
	  {
	    int dlo = IS_NB * d / nt, dhi = IS_NB * (d + 1) / nt;
	    for (int u = 0; u < nt; u++)
	      for (int b = dlo; b < dhi; b++)
		{
		  if (u == t)
		    o[b] = base;
		  base += hist[(long) u * IS_NB + b];
		}
	  }
#endif
	for (long i = lo; i < hi; i++)
	  buf[o[key[i] >> IS_SHIFT]++] = key[i];
#pragma omp barrier
	/* My buckets [BLO, BHI) start where the keys of the buckets before
	   them end.  */
	int blo = IS_NB * t / nt, bhi = IS_NB * (t + 1) / nt;
	long start = 0, end;
	for (int b = 0; b < blo; b++)
	  for (int u = 0; u < nt; u++)
	    start += hist[(long) u * IS_NB + b];
	end = start;
	for (int b = blo; b < bhi; b++)
	  for (int u = 0; u < nt; u++)
	    end += hist[(long) u * IS_NB + b];
	long klo = (long) blo << IS_SHIFT, khi = (long) bhi << IS_SHIFT;
	memset (cnt + klo, 0, (khi - klo) * sizeof *cnt);
	for (long i = start; i < end; i++)
	  cnt[buf[i]]++;
	long pos = start;
	for (long k = klo; k < khi; k++)
	  for (long c = cnt[k]; c > 0; c--)
	    sorted[pos++] = (int) k;
      }
    }
  double t1 = bench_now ();

  long bad = 0, sum_in = 0, sum_out = 0, x_in = 0, x_out = 0, check = 0;
#pragma omp parallel for schedule(static) reduction(+:bad, sum_in, sum_out, check) reduction(^:x_in, x_out)
  for (long i = 0; i < n; i++)
    {
      if (i > 0 && sorted[i - 1] > sorted[i])
	bad++;
      sum_in += key[i];
      sum_out += sorted[i];
      x_in ^= key[i] * 2654435761L;
      x_out ^= sorted[i] * 2654435761L;
      check += sorted[i] * is_weight (i);
    }
  bad += sum_in != sum_out || x_in != x_out;
  printf ("time %.6f\nwarmup %.6f\ncheck %ld\nverified %s\n", t1 - t0, warm,
	  check,
	  bad ? "no (not ordered, or keys lost)" : "yes");
  return bad != 0;
}
