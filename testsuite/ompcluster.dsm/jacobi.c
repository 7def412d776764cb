/* A Jacobi stencil on global arrays, iterated many times, with a checksum
   against a serial run of the same sweeps; the grid is initialised in
   parallel (first touch places each node's rows at home).
   ompc-nodes: 1 1x2 2x1 2x2 3x1
   ompc-timeout: 120
   ompc-output: jacobi ok  */

#include <math.h>
#include <omp.h>
#include <stdio.h>
#include <stdlib.h>

#define N 256
#define ITERS 100

static double a[N][N], b[N][N];
static double sa[N][N], sb[N][N];

static void
sweep (double (*dst)[N], double (*src)[N])
{
#pragma omp parallel for schedule(static)
  for (int i = 1; i < N - 1; i++)
    for (int j = 1; j < N - 1; j++)
      dst[i][j] = 0.25 * (src[i - 1][j] + src[i + 1][j] + src[i][j - 1]
			  + src[i][j + 1]);
}

int
main (void)
{
#pragma omp parallel for schedule(static)
  for (int i = 0; i < N; i++)
    for (int j = 0; j < N; j++)
      a[i][j] = b[i][j] = (i == 0 || j == 0) ? 1.0 : (i * 7 + j) % 3;
  for (int it = 0; it < ITERS; it += 2)
    {
      sweep (b, a);
      sweep (a, b);
    }
  /* The same sweeps, serially.  */
  for (int i = 0; i < N; i++)
    for (int j = 0; j < N; j++)
      sa[i][j] = sb[i][j] = (i == 0 || j == 0) ? 1.0 : (i * 7 + j) % 3;
  for (int it = 0; it < ITERS; it += 2)
    {
      for (int i = 1; i < N - 1; i++)
	for (int j = 1; j < N - 1; j++)
	  sb[i][j] = 0.25 * (sa[i - 1][j] + sa[i + 1][j] + sa[i][j - 1]
			     + sa[i][j + 1]);
      for (int i = 1; i < N - 1; i++)
	for (int j = 1; j < N - 1; j++)
	  sa[i][j] = 0.25 * (sb[i - 1][j] + sb[i + 1][j] + sb[i][j - 1]
			     + sb[i][j + 1]);
    }
  double sum = 0, ssum = 0;
  for (int i = 0; i < N; i++)
    for (int j = 0; j < N; j++)
      {
	if (a[i][j] != sa[i][j])
	  {
	    printf ("a[%d][%d] = %.17g, serial %.17g\n", i, j, a[i][j],
		    sa[i][j]);
	    return 1;
	  }
	sum += a[i][j];
	ssum += sa[i][j];
      }
  printf ("jacobi ok: checksum %.12f (%d threads)\n", sum,
	  omp_get_max_threads ());
  return sum == ssum ? 0 : 1;
}
