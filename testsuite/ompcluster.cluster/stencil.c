/* A 2-D stencil iterated many times across nodes, compared point by point
   and by checksum with the same computation done serially.  */
/* ompc-nodes: 1 1x2 2x1 2x2 3x1 */
/* ompc-timeout: 180 */
#include <omp.h>
#include <stdio.h>
#include <string.h>

#define N 192
#define ITERS 150
static double a[N][N], b[N][N], sa[N][N], sb[N][N];

static void
init (double (*g)[N])
{
  for (int i = 0; i < N; i++)
    for (int j = 0; j < N; j++)
      g[i][j] = (i == 0) ? 100.0 : (j == 0) ? 50.0 : (i * 7 + j * 3) % 11;
}

int
main (void)
{
  /* Each node first touches the rows it computes (pages get their homes
     where they are written); the serial copy is rank 0's.  */
#pragma omp parallel for schedule (static)
  for (int i = 0; i < N; i++)
    for (int j = 0; j < N; j++)
      a[i][j] = b[i][j]
	= (i == 0) ? 100.0 : (j == 0) ? 50.0 : (i * 7 + j * 3) % 11;
  init (sa);
  init (sb);
  double (*cur)[N] = a, (*nxt)[N] = b;
  for (int it = 0; it < ITERS; it++)
    {
#pragma omp parallel for schedule (static)
      for (int i = 1; i < N - 1; i++)
	for (int j = 1; j < N - 1; j++)
	  nxt[i][j] = 0.2 * (cur[i][j] + cur[i - 1][j] + cur[i + 1][j]
			     + cur[i][j - 1] + cur[i][j + 1]);
      double (*t)[N] = cur;
      cur = nxt;
      nxt = t;
    }
  double sum = 0;
#pragma omp parallel for reduction (+:sum)
  for (int i = 0; i < N; i++)
    for (int j = 0; j < N; j++)
      sum += cur[i][j];

  double (*scur)[N] = sa, (*snxt)[N] = sb;
  for (int it = 0; it < ITERS; it++)
    {
      for (int i = 1; i < N - 1; i++)
	for (int j = 1; j < N - 1; j++)
	  snxt[i][j] = 0.2 * (scur[i][j] + scur[i - 1][j] + scur[i + 1][j]
			      + scur[i][j - 1] + scur[i][j + 1]);
      double (*t)[N] = scur;
      scur = snxt;
      snxt = t;
    }
  double ssum = 0;
  for (int i = 0; i < N; i++)
    for (int j = 0; j < N; j++)
      ssum += scur[i][j];
  if (memcmp (cur, scur, sizeof a) != 0
      || __builtin_fabs (sum - ssum) > 1e-9 * __builtin_fabs (ssum))
    {
      printf ("WRONG: checksum %.12e, serial %.12e\n", sum, ssum);
      return 1;
    }
  printf ("OK checksum %.12e\n", sum);
  return 0;
}
