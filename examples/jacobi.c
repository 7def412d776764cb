/* jacobi.c -- a 2-D Jacobi stencil in plain OpenMP.

   Solves Laplace's equation on an N x N grid with fixed boundary values by
   Jacobi iteration, in parallel, then repeats the computation serially and
   checks that both give the same grid (the same operations in the same
   order per point, so the same bits) and the same checksum (a parallel
   reduction against a serial sum).  Nothing in it knows about clusters:

     bin/ompcc -O2 examples/jacobi.c -o jacobi
     ./jacobi                     # one node
     bin/ompcrun -n 2 ./jacobi    # two nodes

   Usage: jacobi [N [ITERATIONS]]  (default 512 200).  Exit status 0 when
   the results agree, 1 otherwise.  */

#include <math.h>
#include <omp.h>
#include <stdio.h>
#include <stdlib.h>

static int n = 512, iterations = 200;
static double *grid, *next, *ref, *ref_next;

static double
boundary (int i, int j)
{
  /* Hot top edge, a warm left edge, cold elsewhere.  */
  if (i == 0)
    return 100.0;
  if (j == 0)
    return 50.0 * (double) (n - 1 - i) / (n - 1);
  return 0.0;
}

static void
init (double *g)
{
  for (int i = 0; i < n; i++)
    for (int j = 0; j < n; j++)
      g[i * n + j] = (i == 0 || j == 0 || i == n - 1 || j == n - 1)
		     ? boundary (i, j) : 0.0;
}

int
main (int argc, char **argv)
{
  if (argc > 1)
    n = atoi (argv[1]);
  if (argc > 2)
    iterations = atoi (argv[2]);
  if (n < 3 || iterations < 1)
    {
      fprintf (stderr, "usage: jacobi [N>=3 [ITERATIONS>=1]]\n");
      return 2;
    }
  size_t bytes = (size_t) n * n * sizeof (double);
  grid = malloc (bytes);
  next = malloc (bytes);
  ref = malloc (bytes);
  ref_next = malloc (bytes);
  if (!grid || !next || !ref || !ref_next)
    {
      fprintf (stderr, "jacobi: out of memory\n");
      return 2;
    }

  /* Parallel: each thread initialises the rows it will compute, so that
     their pages live where they are used.  */
  int threads = 0;
  double t0 = omp_get_wtime ();
#pragma omp parallel
  {
    /* Every thread swaps its own copy of the two pointers: no shared
       write, no message.  */
    double *src = grid, *dst = next;
#pragma omp single
    threads = omp_get_num_threads ();
#pragma omp for schedule(static)
    for (int i = 0; i < n; i++)
      for (int j = 0; j < n; j++)
	src[i * n + j] = dst[i * n + j]
	  = (i == 0 || j == 0 || i == n - 1 || j == n - 1)
	    ? boundary (i, j) : 0.0;
    for (int it = 0; it < iterations; it++)
      {
#pragma omp for schedule(static)
	for (int i = 1; i < n - 1; i++)
	  for (int j = 1; j < n - 1; j++)
	    dst[i * n + j] = 0.25 * (src[(i - 1) * n + j]
				     + src[(i + 1) * n + j]
				     + src[i * n + j - 1]
				     + src[i * n + j + 1]);
	double *t = src;
	src = dst;
	dst = t;
      }
  }
  if (iterations % 2)
    {
      double *t = grid;
      grid = next;
      next = t;
    }
  double t_par = omp_get_wtime () - t0;

  double sum = 0.0;
#pragma omp parallel for reduction(+:sum) schedule(static)
  for (int i = 0; i < n; i++)
    for (int j = 0; j < n; j++)
      sum += grid[i * n + j];

  /* Serial reference.  */
  init (ref);
  init (ref_next);
  for (int it = 0; it < iterations; it++)
    {
      for (int i = 1; i < n - 1; i++)
	for (int j = 1; j < n - 1; j++)
	  ref_next[i * n + j] = 0.25 * (ref[(i - 1) * n + j]
					+ ref[(i + 1) * n + j]
					+ ref[i * n + j - 1]
					+ ref[i * n + j + 1]);
      double *t = ref;
      ref = ref_next;
      ref_next = t;
    }
  double ref_sum = 0.0;
  long differ = 0;
  for (int i = 0; i < n; i++)
    for (int j = 0; j < n; j++)
      {
	ref_sum += ref[i * n + j];
	if (ref[i * n + j] != grid[i * n + j])
	  differ++;
      }

  int ok = differ == 0 && fabs (sum - ref_sum) <= 1e-9 * fabs (ref_sum);
  printf ("jacobi %dx%d, %d iterations, %d threads: checksum %.10e "
	  "(serial %.10e), %ld points differ: %s (%.3f s)\n", n, n,
	  iterations, threads, sum, ref_sum, differ, ok ? "OK" : "WRONG",
	  t_par);
  free (grid);
  free (next);
  free (ref);
  free (ref_next);
  return ok ? 0 : 1;
}
