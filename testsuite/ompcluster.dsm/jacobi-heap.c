/* A Jacobi solver written the usual way: heap arrays allocated and
   initialised serially by the master (so every block is homed on the
   first node), one parallel region around the iterations, work-shared
   sweeps, a max-reduction for convergence, a single swapping the
   pointers; the result must equal a serial run exactly.
   ompc-nodes: 1 1x2 2x1 2x2 3x1
   ompc-timeout: 180
   ompc-output: jacobi-heap ok  */

#include <math.h>
#include <omp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define N 200
#define MAXIT 60

static int
solve (double *u, double *v, int parallel)
{
  double *src = u, *dst = v;
  int it = 0;
  double dmax = 0;
  int done = 0;
#pragma omp parallel if (parallel) shared(src, dst, it, dmax, done)
  for (;;)
    {
#pragma omp for reduction(max:dmax) schedule(static)
      for (int i = 1; i < N - 1; i++)
	for (int j = 1; j < N - 1; j++)
	  {
	    double x = 0.25 * (src[(i - 1) * N + j] + src[(i + 1) * N + j]
			       + src[i * N + j - 1] + src[i * N + j + 1]);
	    dst[i * N + j] = x;
	    if (fabs (x - src[i * N + j]) > dmax)
	      dmax = fabs (x - src[i * N + j]);
	  }
      /* The for's implicit barrier completed dmax everywhere.  */
#pragma omp single
      {
	double *t = src;
	src = dst;
	dst = t;
	it++;
	done = it >= MAXIT || dmax <= 1e-9;
	/* Reset here: no thread reads dmax again before the next for.  */
	dmax = 0;
      }
      if (done)
	break;
    }
  return it;
}

int
main (void)
{
  double *a = malloc (N * N * sizeof *a), *b = malloc (N * N * sizeof *b);
  double *sa = malloc (N * N * sizeof *a), *sb = malloc (N * N * sizeof *b);
  for (int i = 0; i < N * N; i++)
    a[i] = b[i] = (i < N || i % N == 0) ? 100.0 : 0.0;
  memcpy (sa, a, N * N * sizeof *a);
  memcpy (sb, b, N * N * sizeof *b);
  int it = solve (a, b, 1);
  int sit = solve (sa, sb, 0);
  double *r = it & 1 ? b : a, *sr = sit & 1 ? sb : sa;
  double sum = 0;
  for (int i = 0; i < N * N; i++)
    {
      if (r[i] != sr[i])
	{
	  printf ("element %d: %.17g, serial %.17g (it %d/%d)\n", i, r[i],
		  sr[i], it, sit);
	  return 1;
	}
      sum += r[i];
    }
  printf ("jacobi-heap ok: %d iterations, checksum %.10f\n", it, sum);
  free (a);
  free (b);
  free (sa);
  free (sb);
  return 0;
}
