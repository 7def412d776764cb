/* Memory freed on another node, handed out again: C11 orders a free
   before the allocation that reuses its memory, so what the freeing node
   wrote before free must never show through the new object.  Thread 1
   (another node) writes a 4 KiB block that thread 0 allocated and frees
   it; thread 0 learns of it through a relaxed atomic (no flush, no
   acquire), allocates the same size again (the same slot) and writes it;
   after the barrier every word must be thread 0's.  Once with malloc and
   a store of 1, once with calloc, where thread 0 cached the block's old
   zeros first and its home is the other node: zeros written over a stale
   copy of zeros change nothing locally.  Before the fix thread 1's late
   diffs landed on the new object: every word wrong at 2x1.  */
/* ompc-nodes: 1 1x2 2x1 2x2 3x1 */
/* ompc-output: wrong elements: 0 */
#include <stdio.h>
#include <stdlib.h>
#include <omp.h>

#define N 512			/* Longs: 4 KiB.  */
#define ROUNDS 20

static long *p, *q;
static int flag;

int
main (void)
{
  int bad = 0;
#pragma omp parallel num_threads(2) reduction(+:bad)
  {
    int t = omp_get_thread_num ();
    for (int round = 0; round < 2 * ROUNDS; round++)
      {
	int use_calloc = round & 1;
	if (t == 0)
	  {
	    p = malloc (N * sizeof *p);
	    __atomic_store_n (&flag, 0, __ATOMIC_RELAXED);
	  }
#pragma omp barrier
	if (t == 1 || omp_get_num_threads () == 1)
	  for (int i = 0; i < N; i++)
	    p[i] = 0;
#pragma omp barrier
	long seen = 0;
	if (t == 0)
	  for (int i = 0; i < N; i++)
	    seen += p[i];
	bad += seen != 0;
#pragma omp barrier
	if (t == 1 || omp_get_num_threads () == 1)
	  {
	    for (int i = 0; i < N; i++)
	      p[i] = 7;
	    free (p);
	    __atomic_store_n (&flag, 1, __ATOMIC_RELAXED);
	  }
	if (t == 0)
	  {
	    while (!__atomic_load_n (&flag, __ATOMIC_RELAXED))
	      ;
	    if (use_calloc)
	      q = calloc (N, sizeof *q);
	    else
	      {
		q = malloc (N * sizeof *q);
		for (int i = 0; i < N; i++)
		  q[i] = 1;
	      }
	  }
#pragma omp barrier
	if (t == 0)
	  {
	    for (int i = 0; i < N; i++)
	      bad += q[i] != (use_calloc ? 0 : 1);
	    free (q);
	  }
#pragma omp barrier
      }
  }
  printf ("wrong elements: %d\n", bad);
  return bad != 0;
}
