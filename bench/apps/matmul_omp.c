/* matmul_omp.c -- dense matrix multiply C = A B, plain OpenMP.

   usage: matmul_omp [N]   (default 1536)
   Row-major doubles; rows of A, B and C are shared out by
   schedule(static), in the initialisation too (first touch), and each
   thread computes its rows of C with the i-k-j loop order, reading all of
   B.  Checks: 16 entries of C recomputed serially, and the closed form of
   the sum of C.  The MPI twin is matmul_mpi.c.  */

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include "common.h"

static double
a_val (long i, long k)
{
  return 0.5 * (double) ((i + 2 * k) % 7) - 1.0;
}

static double
b_val (long k, long j)
{
  return (double) ((3 * k + j) % 5) - 1.0;
}

int
main (int argc, char **argv)
{
  long n = argc > 1 ? atol (argv[1]) : 1536;
  double *a = malloc (n * n * sizeof *a), *b = malloc (n * n * sizeof *b);
  double *c = malloc (n * n * sizeof *c);
  if (!a || !b || !c)
    return 2;

#pragma omp parallel for schedule(static)
  for (long i = 0; i < n; i++)
    for (long j = 0; j < n; j++)
      {
	a[i * n + j] = a_val (i, j);
	b[i * n + j] = b_val (i, j);
	c[i * n + j] = 0.0;
      }

  double t0 = bench_now ();
#pragma omp parallel for schedule(static)
  for (long i = 0; i < n; i++)
    for (long k = 0; k < n; k++)
      {
	double aik = a[i * n + k];
	for (long j = 0; j < n; j++)
	  c[i * n + j] += aik * b[k * n + j];
      }
  double t1 = bench_now ();

  double sum = 0.0;
#pragma omp parallel for schedule(static) reduction(+:sum)
  for (long i = 0; i < n; i++)
    for (long j = 0; j < n; j++)
      sum += c[i * n + j];

  /* Sum of C = sum over k of (column sum k of A) (row sum k of B).  */
  double want = 0.0;
  for (long k = 0; k < n; k++)
    {
      double ca = 0.0, rb = 0.0;
      for (long i = 0; i < n; i++)
	{
	  ca += a_val (i, k);
	  rb += b_val (k, i);
	}
      want += ca * rb;
    }
  int bad = fabs (sum - want) > 1e-9 * (fabs (want) + 1.0);
  for (int s = 0; s < 16; s++)
    {
      long i = (s * 7919L) % n, j = (s * 104729L + 13) % n;
      double x = 0.0;
      for (long k = 0; k < n; k++)
	x += a_val (i, k) * b_val (k, j);
      if (x != c[i * n + j])
	bad = 1;
    }
  printf ("time %.6f\ncheck %.10e\nverified %s\n", t1 - t0, sum,
	  bad ? "no (entries or sum of C wrong)" : "yes");
  return bad;
}
