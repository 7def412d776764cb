/* Tasks made in the worksharing loops of one region, one barrier after
   the other, on every node at once, with stealing on and one thread per
   node: every node gives tasks away and every node's only thread turns
   thief at each barrier.  A thief waiting for an answer must take the
   completions of its own tasks given away meanwhile: until then its
   node counts as busy to the others, and two nodes whose threads asked
   each other kept each other's requests waiting for ever (BOTS
   sparselu_for at 3x1 and 4x1 hung in about half of the runs; this
   program in 6 of 6 at 4x1 with the cost model of tasksite.c turned
   off).  Every value is checked.  */
/* ompc-nodes: 1 2x1 3x1 4x1 */
/* ompc-env: OMPC_TASK_STEAL=1 */
/* ompc-output: ok */
/* ompc-timeout: 90 */
#include <stdio.h>
#include <stdlib.h>

#define N 48
#define B 256
#define STEPS 100

static double *blk[N];

static void
work (double *p, int k)
{
  for (int r = 0; r < 400; r++)
    for (int i = 0; i < B; i++)
      p[i] = p[i] * 0.5 + k + i * 1e-3;
}

int
main (void)
{
  for (int i = 0; i < N; i++)
    if (!(blk[i] = calloc (B, sizeof (double))))
      return 2;
#pragma omp parallel
  for (int k = 0; k < STEPS; k++)
    {
#pragma omp for
      for (int i = 0; i < N; i++)
#pragma omp task firstprivate (i, k)
	work (blk[i], k);
    }
  int bad = 0;
  double *ref = calloc (B, sizeof (double));
  if (!ref)
    return 2;
  for (int k = 0; k < STEPS; k++)
    work (ref, k);
  for (int i = 0; i < N; i++)
    for (int j = 0; j < B; j++)
      bad += blk[i][j] != ref[j];
  printf ("%s (%d wrong)\n", bad ? "WRONG" : "ok", bad);
  return bad != 0;
}
