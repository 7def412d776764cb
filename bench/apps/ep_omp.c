/* ep_omp.c -- an embarrassingly parallel kernel in the manner of NPB EP,
   plain OpenMP.

   usage: ep_omp [M]   (2^M pairs of uniform random numbers, default 27)
   Pairs from NPB's generator (common.h) become Gaussian pairs by the
   Marsaglia polar method; the kernel counts them in square annuli and sums
   them.  The pairs come in batches of 2^16 whose seeds are found by
   jumping ahead, so batches are independent; schedule(static) shares them
   out.  Checks: the annulus counts add up to the accepted pairs, and the
   acceptance rate is pi/4 within 0.1%.  The MPI twin is ep_mpi.c.  */

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include "common.h"

#define BATCH 65536
#define NQ 10

int
main (int argc, char **argv)
{
  int m = argc > 1 ? atoi (argv[1]) : 27;
  long batches = (1L << m) / BATCH;
  double sx = 0.0, sy = 0.0;
  long q[NQ] = { 0 }, accepted = 0;

  double t0 = bench_now ();
#pragma omp parallel for schedule(static) reduction(+:sx, sy, accepted, q[:NQ])
  for (long b = 0; b < batches; b++)
    {
      uint64_t x = bench_rand_skip (BENCH_RAND_SEED, 2 * BATCH * b);
      for (long i = 0; i < BATCH; i++)
	{
	  double x1 = 2.0 * bench_rand (&x) - 1.0;
	  double x2 = 2.0 * bench_rand (&x) - 1.0;
	  double t = x1 * x1 + x2 * x2;
	  if (t <= 1.0 && t > 0.0)
	    {
	      double f = sqrt (-2.0 * log (t) / t);
	      double gx = x1 * f, gy = x2 * f;
	      int l = (int) fmax (fabs (gx), fabs (gy));
	      if (l < NQ)
		q[l]++;
	      sx += gx;
	      sy += gy;
	      accepted++;
	    }
	}
    }
  double t1 = bench_now ();

  long total = 0;
  for (int l = 0; l < NQ; l++)
    total += q[l];
  double rate = (double) accepted / (double) (batches * BATCH);
  int bad = total != accepted || fabs (rate / (M_PI / 4) - 1.0) > 1e-3;
  printf ("time %.6f\ncheck %.10e\nverified %s\n", t1 - t0, sx + 2.0 * sy,
	  bad ? "no (counts or acceptance rate wrong)" : "yes");
  printf ("ep sx %.12e sy %.12e accepted %ld q0 %ld\n", sx, sy, accepted, q[0]);
  return bad;
}
