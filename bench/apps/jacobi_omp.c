/* jacobi_omp.c -- 2-D Jacobi stencil, plain OpenMP.

   usage: jacobi_omp [N [ITERS]]   (default 2048 x 2048, 500 sweeps)
   An N x N interior with a fixed boundary (1 on the top edge, 0 elsewhere);
   each sweep sets every interior point to the mean of its four neighbours.
   Rows are shared out by schedule(static), so first touch in the parallel
   initialisation puts each block of rows on the node that updates it.
   Checks: values in [0, 1] and the left-right symmetry of the problem.
   The MPI twin is jacobi_mpi.c.  */

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include "common.h"

int
main (int argc, char **argv)
{
  long n = argc > 1 ? atol (argv[1]) : 2048;
  int iters = argc > 2 ? atoi (argv[2]) : 500;
  long w = n + 2;
  double *u = malloc (w * w * sizeof *u), *v = malloc (w * w * sizeof *v);
  if (!u || !v)
    return 2;

#pragma omp parallel for schedule(static)
  for (long i = 0; i < w; i++)
    for (long j = 0; j < w; j++)
      u[i * w + j] = v[i * w + j] = i == 0 ? 1.0 : 0.0;

  double t0 = bench_now ();
  for (int it = 0; it < iters; it++)
    {
#pragma omp parallel for schedule(static)
      for (long i = 1; i <= n; i++)
	for (long j = 1; j <= n; j++)
	  v[i * w + j] = 0.25 * (u[(i - 1) * w + j] + u[(i + 1) * w + j]
				 + u[i * w + j - 1] + u[i * w + j + 1]);
      double *t = u;
      u = v;
      v = t;
    }
  double t1 = bench_now ();

  double sum = 0.0;
  long bad = 0;
#pragma omp parallel for schedule(static) reduction(+:sum, bad)
  for (long i = 1; i <= n; i++)
    for (long j = 1; j <= n; j++)
      {
	double x = u[i * w + j];
	sum += x;
	if (!(x >= 0.0 && x <= 1.0)
	    || fabs (x - u[i * w + (n + 1 - j)]) > 1e-12)
	  bad++;
      }
  printf ("time %.6f\ncheck %.10e\nverified %s\n", t1 - t0, sum,
	  bad ? "no (values out of range or asymmetric)" : "yes");
  free (u);
  free (v);
  return bad != 0;
}
