/* cg_omp.c -- conjugate gradient on a sparse matrix in the manner of NPB
   CG, plain OpenMP.

   usage: cg_omp [LOG2N [ITERS]]   (default N = 2^19, 100 iterations)
   Solves A x = b (A and b from cg.h) by unpreconditioned CG for ITERS
   iterations, written the usual way: one `parallel for` per vector
   operation, schedule(static) everywhere (first touch in the parallel
   set-up places each block of rows, and of every vector, on its node).
   Checks: the true residual |b - A x| agrees with CG's recurrence and has
   fallen below 1e-3 |b|.  The MPI twin is cg_mpi.c.  */

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include "cg.h"

int
main (int argc, char **argv)
{
  int lg = argc > 1 ? atoi (argv[1]) : 19;
  int iters = argc > 2 ? atoi (argv[2]) : 100;
  long n = 1L << lg;
  int *col = malloc (n * CG_W * sizeof *col);
  double *val = malloc (n * CG_W * sizeof *val);
  double *x = malloc (n * sizeof *x), *r = malloc (n * sizeof *r);
  double *p = malloc (n * sizeof *p), *q = malloc (n * sizeof *q);
  if (!col || !val || !x || !r || !p || !q)
    return 2;

#pragma omp parallel for schedule(static)
  for (long i = 0; i < n; i++)
    {
      cg_row (n, i, col + i * CG_W, val + i * CG_W);
      x[i] = 0.0;
      r[i] = p[i] = cg_rhs (i);
      q[i] = 0.0;
    }
  double rho = 0.0;
#pragma omp parallel for schedule(static) reduction(+:rho)
  for (long i = 0; i < n; i++)
    rho += r[i] * r[i];
  double bnorm = sqrt (rho);

  double t0 = bench_now ();
  for (int it = 0; it < iters; it++)
    {
#pragma omp parallel for schedule(static)
      for (long i = 0; i < n; i++)
	{
	  double s = 0.0;
	  for (int k = 0; k < CG_W; k++)
	    s += val[i * CG_W + k] * p[col[i * CG_W + k]];
	  q[i] = s;
	}
      double pq = 0.0;
#pragma omp parallel for schedule(static) reduction(+:pq)
      for (long i = 0; i < n; i++)
	pq += p[i] * q[i];
      double alpha = rho / pq, rho_new = 0.0;
#pragma omp parallel for schedule(static) reduction(+:rho_new)
      for (long i = 0; i < n; i++)
	{
	  x[i] += alpha * p[i];
	  r[i] -= alpha * q[i];
	  rho_new += r[i] * r[i];
	}
      double beta = rho_new / rho;
      rho = rho_new;
#pragma omp parallel for schedule(static)
      for (long i = 0; i < n; i++)
	p[i] = r[i] + beta * p[i];
    }
  double t1 = bench_now ();

  double res = 0.0, xx = 0.0;
#pragma omp parallel for schedule(static) reduction(+:res, xx)
  for (long i = 0; i < n; i++)
    {
      double s = 0.0;
      for (int k = 0; k < CG_W; k++)
	s += val[i * CG_W + k] * x[col[i * CG_W + k]];
      res += (cg_rhs (i) - s) * (cg_rhs (i) - s);
      xx += x[i] * x[i];
    }
  res = sqrt (res);
  int bad = !(res < 1e-3 * bnorm) || fabs (res - sqrt (rho)) > 1e-8 * bnorm;
  printf ("time %.6f\ncheck %.10e\nverified %s\n", t1 - t0, sqrt (xx),
	  bad ? "no (residual too large or not CG's)" : "yes");
  printf ("cg residual %.3e recurrence %.3e\n", res / bnorm, sqrt (rho) / bnorm);
  return bad;
}
