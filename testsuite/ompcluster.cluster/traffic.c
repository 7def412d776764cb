/* The bar for stencils: at 2 nodes, each node moves per iteration no more
   than twice the bytes of its boundary rows (issue 4), counted by
   OMPC_STATS (pages fetched plus diffs sent).  Rows of 512 doubles are one
   4 KiB page; each node has one boundary row, so at most 8 KiB per
   iteration per node.  The program also checks its result.  */
/* ompc-nodes: 1 2x1 */
/* ompc-timeout: 120 */
/* ompc-check: out=$(OMPC_STATS=1 OMP_NUM_THREADS=1 timeout -k 5 100 ${OMPC_BUILD:-$(dirname %exe)/../..}/bin/ompcrun -n 2 %exe 2>&1) || { echo "$out"; exit 1; }; echo "$out" | awk '/pages fetched/ { match($0, /rank [0-9]+/); r = substr($0, RSTART + 5, RLENGTH - 5); match($0, /pages fetched [0-9]+ \([0-9]+ bytes/); split(substr($0, RSTART, RLENGTH), a, /[( ]+/); match($0, /diffs sent [0-9]+ \([0-9]+ bytes/); split(substr($0, RSTART, RLENGTH), b, /[( ]+/); n++; bytes = a[4] + b[4]; printf "rank %s: %d bytes, %.0f per iteration\n", r, bytes, bytes / 100; if (bytes > 100 * 2 * 4096) bad = 1 } END { exit (n != 2 || bad) }' */
#include <omp.h>
#include <stdio.h>
#include <stdlib.h>

#define N 512
#define ITERS 100

int
main (void)
{
  double *a = malloc (sizeof (double) * N * N);
  double *b = malloc (sizeof (double) * N * N);
  double sum = 0;
#pragma omp parallel reduction (+:sum)
  {
    double *src = a, *dst = b;
#pragma omp for schedule (static)
    for (int i = 0; i < N; i++)
      for (int j = 0; j < N; j++)
	src[i * N + j] = dst[i * N + j] = i == 0 ? 1.0 : 0.0;
    for (int it = 0; it < ITERS; it++)
      {
#pragma omp for schedule (static)
	for (int i = 1; i < N - 1; i++)
	  for (int j = 1; j < N - 1; j++)
	    dst[i * N + j] = 0.25 * (src[(i - 1) * N + j]
				     + src[(i + 1) * N + j]
				     + src[i * N + j - 1]
				     + src[i * N + j + 1]);
	double *t = src;
	src = dst;
	dst = t;
      }
#pragma omp for schedule (static)
    for (int i = 0; i < N; i++)
      for (int j = 0; j < N; j++)
	sum += src[i * N + j];
  }
  /* Heat only leaves through the cold edges: the sum stays positive and
     below what entered from the hot row.  */
  if (!(sum > N - 2 && sum < N + ITERS * (double) N))
    {
      printf ("WRONG sum %g\n", sum);
      return 1;
    }
  printf ("OK sum %.6f\n", sum);
  return 0;
}
