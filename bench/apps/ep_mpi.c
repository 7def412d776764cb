/* ep_mpi.c -- an embarrassingly parallel kernel in the manner of NPB EP,
   hand-written MPI: the twin of ep_omp.c.

   usage: mpiexec -n P ep_mpi [M]
   Rank r computes the block of batches schedule(static) gives thread r;
   the sums and counts meet at rank 0 in one reduction.  */

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include "common.h"
#include "mpicount.h"

#define BATCH 65536
#define NQ 10

int
main (int argc, char **argv)
{
  MPI_Init (&argc, &argv);
  int rank, size;
  MPI_Comm_rank (MPI_COMM_WORLD, &rank);
  MPI_Comm_size (MPI_COMM_WORLD, &size);
  int m = argc > 1 ? atoi (argv[1]) : 27;
  long batches = (1L << m) / BATCH;
  long qt = batches / size, rem = batches % size;
  long lo = rank * qt + (rank < rem ? rank : rem), hi = lo + qt + (rank < rem);
  double sums[2] = { 0.0, 0.0 }, allsums[2];
  long q[NQ + 1] = { 0 }, allq[NQ + 1];	/* q[NQ]: accepted pairs.  */

  MPI_Barrier (MPI_COMM_WORLD);
  double t0 = bench_now ();
  for (long b = lo; b < hi; b++)
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
	      sums[0] += gx;
	      sums[1] += gy;
	      q[NQ]++;
	    }
	}
    }
  bench_reduce (sums, allsums, 2, MPI_DOUBLE, MPI_SUM);
  bench_reduce (q, allq, NQ + 1, MPI_LONG, MPI_SUM);
  double t1 = bench_now ();

  if (rank == 0)
    {
      long total = 0;
      for (int l = 0; l < NQ; l++)
	total += allq[l];
      double rate = (double) allq[NQ] / (double) (batches * BATCH);
      int bad = total != allq[NQ] || fabs (rate / (M_PI / 4) - 1.0) > 1e-3;
      printf ("time %.6f\ncheck %.10e\nverified %s\n", t1 - t0,
	      allsums[0] + 2.0 * allsums[1],
	      bad ? "no (counts or acceptance rate wrong)" : "yes");
      printf ("ep sx %.12e sy %.12e accepted %ld q0 %ld\n", allsums[0],
	      allsums[1], allq[NQ], allq[0]);
    }
  bench_count_report ();
  MPI_Finalize ();
  return 0;
}
