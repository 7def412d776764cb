/* Scan (reduction(inscan)) loops across nodes, inclusive and exclusive,
   and lastprivate(conditional): GCC keeps per-thread state in memory the
   runtime gives the loop, which the threads of every node must share.  */
/* ompc-nodes: 1 1x2 2x1 2x2 3x1 */
/* ompc-timeout: 60 */
#include <omp.h>
#include <stdio.h>

#define N 1000
static int a[N], b[N], c[N];
static long r, s;

int
main (void)
{
  for (int i = 0; i < N; i++)
    a[i] = i % 13 - 4;
  int last = -1;
#pragma omp parallel
  {
#pragma omp for reduction(inscan, +: r)
    for (int i = 0; i < N; i++)
      {
	r += a[i];
#pragma omp scan inclusive(r)
	b[i] = r;
      }
#pragma omp for reduction(inscan, +: s)
    for (int i = 0; i < N; i++)
      {
	c[i] = s;
#pragma omp scan exclusive(s)
	s += a[i];
      }
#pragma omp for lastprivate(conditional: last)
    for (int i = 0; i < N; i++)
      if (a[i] == 5)
	last = i;
  }
  long acc = 0;
  for (int i = 0; i < N; i++)
    {
      if (c[i] != acc)
	{
	  printf ("exclusive scan: c[%d] = %d, expected %ld\n", i, c[i], acc);
	  return 1;
	}
      acc += a[i];
      if (b[i] != acc)
	{
	  printf ("inclusive scan: b[%d] = %d, expected %ld\n", i, b[i], acc);
	  return 1;
	}
    }
  if (r != acc || s != acc)
    {
      printf ("scan totals %ld %ld, expected %ld\n", r, s, acc);
      return 1;
    }
  int want = -1;
  for (int i = 0; i < N; i++)
    if (a[i] == 5)
      want = i;
  if (last != want)
    {
      printf ("lastprivate(conditional): %d, expected %d\n", last, want);
      return 1;
    }
  printf ("OK\n");
  return 0;
}
