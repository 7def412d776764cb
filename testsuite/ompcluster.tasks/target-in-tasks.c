/* Target regions with a parallel loop inside explicit tasks of a region
   spanning the nodes (GCC's libgomp.fortran/target7.f90 in C, with more
   chunks): each target region's team must run inside the encountering
   node, on rank 0's data, and the threads each one starts must be given
   back or reused (they used to fill the shared stack area at 2x2).  */
/* ompc-nodes: 1 1x2 2x1 2x2 */
/* ompc-options: -foffload=disable */
/* ompc-timeout: 120 */
#include <omp.h>
#include <stdio.h>

#define N 4000
#define C 50

static float
foo (float x)
{
  return x + 1;
}
#pragma omp declare target to(foo)

int
main (void)
{
  float a[N];
  int teams_seen = 0;
  for (int i = 0; i < N; i++)
    a[i] = i;
#pragma omp parallel
#pragma omp single
  for (int i = 0; i < N; i += C)
#pragma omp task shared(a, teams_seen)
#pragma omp target map(a[i:C]) map(tofrom: teams_seen)
#pragma omp parallel for
  for (int j = i; j < i + C; j++)
    {
      a[j] = foo (a[j]);
      if (omp_get_num_threads () > 1 && j == i)
#pragma omp atomic write
	teams_seen = 1;
    }
  for (int i = 0; i < N; i++)
    if (a[i] != i + 1)
      {
	printf ("a[%d] = %g, not %d\n", i, a[i], i + 1);
	return 1;
      }
  printf ("OK (%d)\n", teams_seen);
  return 0;
}
