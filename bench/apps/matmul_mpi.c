/* matmul_mpi.c -- dense matrix multiply C = A B, hand-written MPI: the twin
   of matmul_omp.c.

   usage: mpiexec -n P matmul_mpi [N]
   Rank r owns the block of rows of A, B and C that schedule(static) gives
   thread r; it initialises its rows of A and B, gathers all of B from the
   others (every rank sends its block of B to every other rank), and
   computes its rows of C in the same i-k-j order.  */

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include "common.h"
#include "mpicount.h"

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
  MPI_Init (&argc, &argv);
  int rank, size;
  MPI_Comm_rank (MPI_COMM_WORLD, &rank);
  MPI_Comm_size (MPI_COMM_WORLD, &size);
  long n = argc > 1 ? atol (argv[1]) : 1536;
  long q = n / size, rem = n % size;
  long *lo = malloc ((size + 1) * sizeof *lo);
  for (int r = 0; r <= size; r++)
    lo[r] = r * q + (r < rem ? r : rem);
  long rows = lo[rank + 1] - lo[rank];
  double *a = malloc (rows * n * sizeof *a), *b = malloc (n * n * sizeof *b);
  double *c = malloc (rows * n * sizeof *c);
  if (!a || !b || !c)
    MPI_Abort (MPI_COMM_WORLD, 2);
  for (long i = 0; i < rows; i++)
    for (long j = 0; j < n; j++)
      {
	a[i * n + j] = a_val (lo[rank] + i, j);
	b[(lo[rank] + i) * n + j] = b_val (lo[rank] + i, j);
	c[i * n + j] = 0.0;
      }

  MPI_Barrier (MPI_COMM_WORLD);
  double t0 = bench_now ();
  /* All of B everywhere: each rank's block to every other rank.  */
  MPI_Request *req = malloc (2 * size * sizeof *req);
  MPI_Status *st = malloc (2 * size * sizeof *st);
  int nreq = 0;
  for (int r = 0; r < size; r++)
    if (r != rank)
      {
	MPI_Irecv (b + lo[r] * n, (lo[r + 1] - lo[r]) * n, MPI_DOUBLE, r, 0,
		   MPI_COMM_WORLD, &req[nreq++]);
	bench_isend (b + lo[rank] * n, rows * n, MPI_DOUBLE, r, 0, &req[nreq++]);
      }
  MPI_Waitall (nreq, req, st);
  for (long i = 0; i < rows; i++)
    for (long k = 0; k < n; k++)
      {
	double aik = a[i * n + k];
	for (long j = 0; j < n; j++)
	  c[i * n + j] += aik * b[k * n + j];
      }
  MPI_Barrier (MPI_COMM_WORLD);
  double t1 = bench_now ();

  double sum = 0.0, all = 0.0;
  for (long i = 0; i < rows * n; i++)
    sum += c[i];
  bench_reduce (&sum, &all, 1, MPI_DOUBLE, MPI_SUM);
  int bad = 0, allbad = 0;
  for (int s = 0; s < 16; s++)
    {
      long i = (s * 7919L) % n, j = (s * 104729L + 13) % n;
      if (i < lo[rank] || i >= lo[rank + 1])
	continue;
      double x = 0.0;
      for (long k = 0; k < n; k++)
	x += a_val (i, k) * b_val (k, j);
      if (x != c[(i - lo[rank]) * n + j])
	bad = 1;
    }
  bench_reduce (&bad, &allbad, 1, MPI_INT, MPI_SUM);
  if (rank == 0)
    {
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
      if (fabs (all - want) > 1e-9 * (fabs (want) + 1.0))
	allbad = 1;
      printf ("time %.6f\ncheck %.10e\nverified %s\n", t1 - t0, all,
	      allbad ? "no (entries or sum of C wrong)" : "yes");
    }
  bench_count_report ();
  MPI_Finalize ();
  return 0;
}
