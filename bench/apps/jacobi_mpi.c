/* jacobi_mpi.c -- 2-D Jacobi stencil, hand-written MPI: the twin of
   jacobi_omp.c.

   usage: mpiexec -n P jacobi_mpi [N [ITERS]]
   The same problem and sweeps; rank r holds the block of rows that
   schedule(static) gives thread r (plus one halo row above and below) and
   exchanges its edge rows with its neighbours before every sweep.  */

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include "common.h"
#include "mpicount.h"

int
main (int argc, char **argv)
{
  MPI_Init (&argc, &argv);
  int rank, size;
  MPI_Comm_rank (MPI_COMM_WORLD, &rank);
  MPI_Comm_size (MPI_COMM_WORLD, &size);
  long n = argc > 1 ? atol (argv[1]) : 2048;
  int iters = argc > 2 ? atoi (argv[2]) : 500;
  long w = n + 2;
  /* Interior rows 1..N, split as schedule(static) splits them.  */
  long q = n / size, rem = n % size;
  long lo = 1 + rank * q + (rank < rem ? rank : rem);
  long rows = q + (rank < rem);
  long lr = rows + 2;		/* Local rows: halo, ROWS, halo.  */
  double *u = malloc (lr * w * sizeof *u), *v = malloc (lr * w * sizeof *v);
  if (!u || !v)
    MPI_Abort (MPI_COMM_WORLD, 2);
  for (long i = 0; i < lr; i++)
    for (long j = 0; j < w; j++)
      u[i * w + j] = v[i * w + j] = lo - 1 + i == 0 ? 1.0 : 0.0;
  int up = rank > 0 ? rank - 1 : MPI_PROC_NULL;
  int down = rank < size - 1 ? rank + 1 : MPI_PROC_NULL;

  MPI_Barrier (MPI_COMM_WORLD);
  double t0 = bench_now ();
  for (int it = 0; it < iters; it++)
    {
      bench_sendrecv (u + 1 * w, w, up, u + (rows + 1) * w, w, down,
		      MPI_DOUBLE, 0);
      bench_sendrecv (u + rows * w, w, down, u, w, up, MPI_DOUBLE, 1);
      for (long i = 1; i <= rows; i++)
	for (long j = 1; j <= n; j++)
	  v[i * w + j] = 0.25 * (u[(i - 1) * w + j] + u[(i + 1) * w + j]
				 + u[i * w + j - 1] + u[i * w + j + 1]);
      double *t = u;
      u = v;
      v = t;
    }
  MPI_Barrier (MPI_COMM_WORLD);
  double t1 = bench_now ();

  double sum = 0.0, all;
  long bad = 0, allbad;
  for (long i = 1; i <= rows; i++)
    for (long j = 1; j <= n; j++)
      {
	double x = u[i * w + j];
	sum += x;
	if (!(x >= 0.0 && x <= 1.0)
	    || fabs (x - u[i * w + (n + 1 - j)]) > 1e-12)
	  bad++;
      }
  bench_reduce (&sum, &all, 1, MPI_DOUBLE, MPI_SUM);
  bench_reduce (&bad, &allbad, 1, MPI_LONG, MPI_SUM);
  if (rank == 0)
    printf ("time %.6f\ncheck %.10e\nverified %s\n", t1 - t0, all,
	    allbad ? "no (values out of range or asymmetric)" : "yes");
  bench_count_report ();
  free (u);
  free (v);
  MPI_Finalize ();
  return 0;
}
