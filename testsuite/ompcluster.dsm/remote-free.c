/* Memory freed on another node, handed out again: C11 orders a free
   before the allocation that reuses its memory, so what the freeing node
   wrote before free must never show through the new object.  Thread 1
   (another node) writes a block that thread 0 allocated and frees it;
   thread 0 learns of it through a relaxed atomic (no flush, no acquire),
   allocates the same size again (the same slot) and writes it; after
   the barrier every word must be thread 0's.  Three ways, each with its
   own size (its own slots): malloc and a store of 1 where thread 1
   touched the memory first (its home), calloc there (thread 0 read the
   old zeros first: zeros written over a stale copy of zeros change
   nothing locally), and malloc where thread 0 touched it first (the
   freeing node's diffs wait at thread 0's node until it acquires them).
   Before the fix the late diffs landed on the new object: every word
   wrong at 2x1, some rounds at 2x2.  */
/* ompc-nodes: 1 1x2 2x1 2x2 3x1 */
/* ompc-output: wrong elements: 0 */
#include <stdio.h>
#include <stdlib.h>
#include <omp.h>

#define N 512			/* Longs: 4 KiB.  */
#define ROUNDS 12

static long *p, *q;
static int flag;

int
main (void)
{
  int bad = 0;
#pragma omp parallel num_threads(2) reduction(+:bad)
  {
    int t = omp_get_thread_num (), one = omp_get_num_threads () == 1;
    for (int round = 0; round < 3 * ROUNDS; round++)
      {
	int mode = round % 3, n = N + 64 * mode;
	if (t == 0)
	  {
	    p = malloc (n * sizeof *p);
	    if (mode == 2)
	      for (int i = 0; i < n; i++)
		p[i] = 0;
	    __atomic_store_n (&flag, 0, __ATOMIC_RELAXED);
	  }
#pragma omp barrier
	if (mode != 2 && (t == 1 || one))
	  for (int i = 0; i < n; i++)
	    p[i] = 0;
#pragma omp barrier
	long seen = 0;
	if (t == 0)
	  for (int i = 0; i < n; i++)
	    seen += p[i];
	bad += seen != 0;
#pragma omp barrier
	if (t == 1 || one)
	  {
	    for (int i = 0; i < n; i++)
	      p[i] = 7;
	    free (p);
	    __atomic_store_n (&flag, 1, __ATOMIC_RELAXED);
	  }
	if (t == 0)
	  {
	    while (!__atomic_load_n (&flag, __ATOMIC_RELAXED))
	      ;
	    if (mode == 1)
	      q = calloc (n, sizeof *q);
	    else
	      {
		q = malloc (n * sizeof *q);
		for (int i = 0; i < n; i++)
		  q[i] = 1;
	      }
	  }
#pragma omp barrier
	if (t == 0)
	  {
	    for (int i = 0; i < n; i++)
	      bad += q[i] != (mode == 1 ? 0 : 1);
	    free (q);
	  }
#pragma omp barrier
      }
  }
  printf ("wrong elements: %d\n", bad);
  return bad != 0;
}
