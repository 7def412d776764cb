/* Homes that follow the writer who writes most (dsm/migrate.c): the
   master initialises an array alone (first touch homes it on node 0),
   then, step after step, the last node's thread writes all of it, the
   master writes all of it, and the last node's thread writes it again:
   the last node writes each block in two intervals of every three, its
   home in the third, so the blocks move to the last node (the former
   rule, one node alone in four intervals in a row, never moved them:
   NPB FT's pattern).  Each writer checks what the one before it wrote:
   the hand-offs must lose no write.  OMPC_STATS shows them.
   ompc-nodes: 2x1 3x1
   ompc-env: OMPC_STATS=1
   ompc-timeout: 120
   ompc-output: majority ok
   ompc-output: homes moved [1-9]  */

#include <omp.h>
#include <stdio.h>

#define N (1 << 16)		/* Ints: 64 blocks of 4 KiB.  */
#define STEPS 6

static int g[N];

static int
val (int step, int phase, int i)
{
  return (step * 3 + phase) * 1000003 + i;
}

/* Checks that G holds phase PREV_PHASE of step PREV_STEP (PREV_STEP
   -1: the start), then writes phase PHASE of STEP; returns the wrong
   values seen.  */
static long
check_write (int prev_step, int prev_phase, int step, int phase)
{
  long bad = 0;
  for (int i = 0; i < N; i++)
    {
      int want = prev_step < 0 ? -1 - i : val (prev_step, prev_phase, i);
      if (g[i] != want)
	bad++;
      g[i] = val (step, phase, i);
    }
  return bad;
}

int
main (void)
{
  long bad = 0;
  for (int i = 0; i < N; i++)
    g[i] = -1 - i;
  for (int step = 0; step < STEPS; step++)
    {
      /* Phases 0, 1, 2 of the step: the last thread, the master, the
	 last thread, each checking the phase before.  */
#pragma omp parallel reduction(+:bad)
      if (omp_get_thread_num () == omp_get_num_threads () - 1)
	bad += check_write (step - 1, 2, step, 0);
#pragma omp parallel reduction(+:bad)
      if (omp_get_thread_num () == 0)
	bad += check_write (step, 0, step, 1);
#pragma omp parallel reduction(+:bad)
      if (omp_get_thread_num () == omp_get_num_threads () - 1)
	bad += check_write (step, 1, step, 2);
    }
  for (int i = 0; i < N; i++)
    if (g[i] != val (STEPS - 1, 2, i))
      bad++;
  if (bad)
    {
      printf ("majority: %ld wrong values\n", bad);
      return 1;
    }
  printf ("majority ok\n");
  return 0;
}
