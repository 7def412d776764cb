/* A parallel region inside a target region that a deferred task runs, in
   a team that does not span the nodes (one thread), uses the task's
   firstprivate data, which is the task's own private memory on rank 0:
   the region must stay in that node.  */
/* ompc-nodes: 1 1x2 2x1 2x2 */
/* ompc-options: -foffload=disable */
/* ompc-timeout: 60 */
#include <omp.h>
#include <stdio.h>

int
main (void)
{
  int bad = 0;
#pragma omp parallel num_threads(1) shared(bad)
#pragma omp single
  for (int k = 0; k < 4; k++)
    {
      int v[64];
      for (int i = 0; i < 64; i++)
	v[i] = i + k;
#pragma omp task firstprivate(v, k) shared(bad)
      {
	int s = 0, nth = 0;
#pragma omp target map(tofrom: v, s, nth)
#pragma omp parallel reduction(+: s)
	{
#pragma omp master
	  nth = omp_get_num_threads ();
#pragma omp for
	  for (int i = 0; i < 64; i++)
	    {
	      s += v[i];
	      v[i] = -1;
	    }
	}
	for (int i = 0; i < 64; i++)
	  if (v[i] != -1)
	    bad = 1;
	if (s != 64 * 63 / 2 + 64 * k)
	  {
	    printf ("task %d: sum %d over %d threads\n", k, s, nth);
#pragma omp atomic write
	    bad = 1;
	  }
      }
    }
  if (bad)
    return 1;
  printf ("OK\n");
  return 0;
}
