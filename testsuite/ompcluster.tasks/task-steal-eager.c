/* A region of many barriers that never makes a task, then a single
   construct that makes coarse ones, in a program that makes tasks, with
   stealing on and one thread per node.  A node stops asking the others
   for tasks in every barrier once several in a row gave nothing (each
   ask costs a round of messages: a loop of worksharing constructs ran
   3-5 times as slow at 2x2 with them), but it still asks in the barrier
   that ends the single construct it left to rank 0: rank 1 must run
   some of the single's tasks, and must have asked in only a few of the
   region's ~400 barriers (its "steal" calls).  Every result is
   checked.  */
/* ompc-nodes: 2x1 */
/* ompc-env: OMPC_STATS=1 OMPC_TASK_STEAL=1 */
/* ompc-output: ok */
/* ompc-output: rank 1: tasks [0-9]+ of this node run here, [1-9][0-9]* of other nodes run here \(stolen\) */
/* ompc-output: rank 1: calls by kind: .*steal [0-9]{1,2} \( */
/* ompc-timeout: 120 */
#include <stdio.h>
#include "task-work.h"

#define N 4096
#define STEPS 400
#define NT 16

static double a[N];
static long res[NT];

int
main (void)
{
#pragma omp parallel
  {
    for (int k = 0; k < STEPS; k++)
      {
#pragma omp for
	for (int i = 0; i < N; i++)
	  a[i] += k * 1e-3 + i;
      }
#pragma omp single
    for (int t = 0; t < NT; t++)
#pragma omp task firstprivate (t)
      res[t] = work (t, 8000000);
  }
  int bad = 0;
  for (int t = 0; t < NT; t++)
    bad += res[t] != work (t, 8000000);
  for (int i = 0; i < N; i++)
    bad += a[i] != a[i] || a[i] < i * (double) STEPS;
  printf ("%s (%d wrong)\n", bad ? "WRONG" : "ok", bad);
  return bad != 0;
}
