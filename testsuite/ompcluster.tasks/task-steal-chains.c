/* Every thread of the team makes a chain of small tasks, each depending
   on the one before (depend(inout) on the thread's own element), as
   EPCC taskbench's PARALLEL TASK DEPS does, with OMPC_TASK_STEAL=1.
   Most of them are too small to move, so each node keeps a chain whose
   next task becomes ready only when its predecessor completes.  A node
   whose only thread waited for another node's answer to a steal kept
   that node's own request waiting too, while both had a ready task of
   their own: at 3x1 about one launch in six never ended.  Each chain's
   result shows the order its tasks ran in.
   ompc-nodes: 1 2x1 2x2 3x1
   ompc-env: OMPC_TASK_STEAL=1
   ompc-timeout: 120
   ompc-output: task-steal-chains ok  */

#include <omp.h>
#include <stdio.h>
#include <stdlib.h>

#define CHAIN 2000
#define REGIONS 20

static long
step (long v, int j)
{
  for (int i = 0; i < 50; i++)
    v = (v * 31 + j + i) % 1000000007L;
  return v;
}

int
main (void)
{
  int n = omp_get_max_threads ();
  long *a = calloc (n, sizeof *a);
  if (!a)
    return 2;
  for (int r = 0; r < REGIONS; r++)
    {
#pragma omp parallel
      {
	int id = omp_get_thread_num ();
	for (int j = 0; j < CHAIN; j++)
	  {
#pragma omp task depend(inout: a[id]) firstprivate(id, j)
	    a[id] = step (a[id], j);
	  }
      }
    }
  int bad = 0;
  for (int id = 0; id < n; id++)
    {
      long v = 0;
      for (int r = 0; r < REGIONS; r++)
	for (int j = 0; j < CHAIN; j++)
	  v = step (v, j);
      if (a[id] != v)
	{
	  printf ("thread %d: %ld, expected %ld\n", id, a[id], v);
	  bad = 1;
	}
    }
  if (bad)
    return 1;
  printf ("task-steal-chains ok\n");
  return 0;
}
