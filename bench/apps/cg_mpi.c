/* cg_mpi.c -- conjugate gradient on a sparse matrix in the manner of NPB
   CG, hand-written MPI: the twin of cg_omp.c.

   usage: mpiexec -n P cg_mpi [LOG2N [ITERS]]
   Rank r owns the block of rows (and of every vector) that
   schedule(static) gives thread r.  Every iteration gathers the whole
   search direction p on every rank (each rank sends its block to every
   other rank) for the matrix-vector product, and two scalar allreduces
   give the dot products.  */

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include "cg.h"
#include "mpicount.h"

int
main (int argc, char **argv)
{
  MPI_Init (&argc, &argv);
  int rank, size;
  MPI_Comm_rank (MPI_COMM_WORLD, &rank);
  MPI_Comm_size (MPI_COMM_WORLD, &size);
  int lg = argc > 1 ? atoi (argv[1]) : 19;
  int iters = argc > 2 ? atoi (argv[2]) : 100;
  long n = 1L << lg;
  long qt = n / size, rem = n % size;
  long *lo = malloc ((size + 1) * sizeof *lo);
  for (int k = 0; k <= size; k++)
    lo[k] = k * qt + (k < rem ? k : rem);
  long l0 = lo[rank], rows = lo[rank + 1] - l0;
  int *col = malloc (rows * CG_W * sizeof *col);
  double *val = malloc (rows * CG_W * sizeof *val);
  double *x = malloc (rows * sizeof *x), *r = malloc (rows * sizeof *r);
  double *q = malloc (rows * sizeof *q);
  double *p = malloc (n * sizeof *p);	/* The whole vector.  */
  MPI_Request *req = malloc (2 * size * sizeof *req);
  MPI_Status *st = malloc (2 * size * sizeof *st);
  if (!col || !val || !x || !r || !p || !q)
    MPI_Abort (MPI_COMM_WORLD, 2);
  for (long i = 0; i < rows; i++)
    {
      cg_row (n, l0 + i, col + i * CG_W, val + i * CG_W);
      x[i] = 0.0;
      r[i] = p[l0 + i] = cg_rhs (l0 + i);
      q[i] = 0.0;
    }
  double rho = 0.0, bnorm;
  for (long i = 0; i < rows; i++)
    rho += r[i] * r[i];
  bench_allreduce (&rho, &bnorm, 1, MPI_DOUBLE, MPI_SUM);
  rho = bnorm;
  bnorm = sqrt (bnorm);

  MPI_Barrier (MPI_COMM_WORLD);
  double t0 = bench_now ();
  for (int it = 0; it < iters; it++)
    {
      int nreq = 0;
      for (int k = 0; k < size; k++)
	if (k != rank)
	  {
	    MPI_Irecv (p + lo[k], lo[k + 1] - lo[k], MPI_DOUBLE, k, it,
		       MPI_COMM_WORLD, &req[nreq++]);
	    bench_isend (p + l0, rows, MPI_DOUBLE, k, it, &req[nreq++]);
	  }
      MPI_Waitall (nreq, req, st);
      for (long i = 0; i < rows; i++)
	{
	  double s = 0.0;
	  for (int k = 0; k < CG_W; k++)
	    s += val[i * CG_W + k] * p[col[i * CG_W + k]];
	  q[i] = s;
	}
      double pq = 0.0, all;
      for (long i = 0; i < rows; i++)
	pq += p[l0 + i] * q[i];
      bench_allreduce (&pq, &all, 1, MPI_DOUBLE, MPI_SUM);
      double alpha = rho / all, rho_new = 0.0;
      for (long i = 0; i < rows; i++)
	{
	  x[i] += alpha * p[l0 + i];
	  r[i] -= alpha * q[i];
	  rho_new += r[i] * r[i];
	}
      bench_allreduce (&rho_new, &all, 1, MPI_DOUBLE, MPI_SUM);
      double beta = all / rho;
      rho = all;
      for (long i = 0; i < rows; i++)
	p[l0 + i] = r[i] + beta * p[l0 + i];
    }
  MPI_Barrier (MPI_COMM_WORLD);
  double t1 = bench_now ();

  /* The true residual needs the whole x: gather it like p.  */
  for (long i = 0; i < rows; i++)
    p[l0 + i] = x[i];
  int nreq = 0;
  for (int k = 0; k < size; k++)
    if (k != rank)
      {
	MPI_Irecv (p + lo[k], lo[k + 1] - lo[k], MPI_DOUBLE, k, iters + 1,
		   MPI_COMM_WORLD, &req[nreq++]);
	bench_isend (p + l0, rows, MPI_DOUBLE, k, iters + 1, &req[nreq++]);
      }
  MPI_Waitall (nreq, req, st);
  double sums[2] = { 0.0, 0.0 }, all[2];
  for (long i = 0; i < rows; i++)
    {
      double s = 0.0;
      for (int k = 0; k < CG_W; k++)
	s += val[i * CG_W + k] * p[col[i * CG_W + k]];
      sums[0] += (cg_rhs (l0 + i) - s) * (cg_rhs (l0 + i) - s);
      sums[1] += x[i] * x[i];
    }
  bench_reduce (sums, all, 2, MPI_DOUBLE, MPI_SUM);
  if (rank == 0)
    {
      double res = sqrt (all[0]);
      int bad = !(res < 1e-3 * bnorm) || fabs (res - sqrt (rho)) > 1e-8 * bnorm;
      printf ("time %.6f\ncheck %.10e\nverified %s\n", t1 - t0, sqrt (all[1]),
	      bad ? "no (residual too large or not CG's)" : "yes");
      printf ("cg residual %.3e recurrence %.3e\n", res / bnorm,
	      sqrt (rho) / bnorm);
    }
  bench_count_report ();
  MPI_Finalize ();
  return 0;
}
