/* Doacross loops (ordered(n) with depend(sink)/depend(source)) across
   nodes: a wavefront over a shared 2-D array, where each cell needs its
   upper and left neighbours, which threads on other nodes computed; with
   static, dynamic and guided schedules, and a 1-deep one whose sink is the
   previous iteration.  The result must equal the sequential one.  */
/* ompc-nodes: 1 1x2 2x1 2x2 3x1 */
/* ompc-timeout: 120 */
#include <omp.h>
#include <stdio.h>

#define N 24
#define M 20
static long a[N][M], chain[200];

static long
expect_cell (int i, int j)
{
  static long s[N][M];
  for (int x = 0; x < N; x++)
    for (int y = 0; y < M; y++)
      s[x][y] = (x ? s[x - 1][y] : 1) + (y ? s[x][y - 1] : 1) + x + y;
  return s[i][j];
}

static int
check (const char *what)
{
  int bad = 0;
  for (int i = 0; i < N; i++)
    for (int j = 0; j < M; j++)
      {
	if (a[i][j] != expect_cell (i, j))
	  bad++;
	a[i][j] = 0;
      }
  if (bad)
    printf ("%s: %d cells wrong\n", what, bad);
  return bad != 0;
}

int
main (void)
{
  int fails = 0;
#pragma omp parallel
  {
#pragma omp for ordered(2) schedule(static, 1)
    for (int i = 0; i < N; i++)
      for (int j = 0; j < M; j++)
	{
#pragma omp ordered depend(sink: i - 1, j) depend(sink: i, j - 1)
	  a[i][j] = (i ? a[i - 1][j] : 1) + (j ? a[i][j - 1] : 1) + i + j;
#pragma omp ordered depend(source)
	}
#pragma omp single
    fails += check ("static,1");
#pragma omp for ordered(2) schedule(dynamic, 2)
    for (int i = 0; i < N; i++)
      for (int j = 0; j < M; j++)
	{
#pragma omp ordered depend(sink: i - 1, j) depend(sink: i, j - 1)
	  a[i][j] = (i ? a[i - 1][j] : 1) + (j ? a[i][j - 1] : 1) + i + j;
#pragma omp ordered depend(source)
	}
#pragma omp single
    fails += check ("dynamic,2");
#pragma omp for ordered(2) schedule(guided)
    for (int i = 0; i < N; i++)
      for (int j = 0; j < M; j++)
	{
#pragma omp ordered depend(sink: i - 1, j) depend(sink: i, j - 1)
	  a[i][j] = (i ? a[i - 1][j] : 1) + (j ? a[i][j - 1] : 1) + i + j;
#pragma omp ordered depend(source)
	}
#pragma omp single
    fails += check ("guided");
#pragma omp for ordered(1) schedule(static, 3)
    for (int i = 0; i < 200; i++)
      {
#pragma omp ordered depend(sink: i - 1)
	chain[i] = (i ? chain[i - 1] : 0) + i;
#pragma omp ordered depend(source)
      }
  }
  for (int i = 0; i < 200; i++)
    if (chain[i] != (long) i * (i + 1) / 2)
      {
	printf ("chain[%d] = %ld, expected %ld\n", i, chain[i],
		(long) i * (i + 1) / 2);
	fails++;
	break;
      }
  if (fails)
    return 1;
  printf ("OK\n");
  return 0;
}
