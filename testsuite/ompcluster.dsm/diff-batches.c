/* A release with more diffs for one home than one batch holds: the
   master first touches all of A (node 0 is its home), then every
   thread rewrites its static share of it, every byte of every int
   changed each round.  At 2 x 1 node 1's release has ~10 MiB of diffs
   for node 0, sent in 1 MiB batches as they are encoded, more than the
   8 that may be unanswered at once (dsm/diff.c, diff_post); every
   thread then checks all of A.
   ompc-nodes: 1x2 2x1 3x1
   ompc-timeout: 180
   ompc-output: diff-batches ok  */

#include <omp.h>
#include <stdio.h>
#include <stdlib.h>

#define N (5L << 20)		/* Ints: 20 MiB.  */
#define ROUNDS 3

/* Int I's value in round R: every byte differs from round R-1's.  */
static int
value (long i, int r)
{
  unsigned x = (unsigned) i * 2654435761u;
  return (int) ((x & 0x7f7f7f7fu) + (unsigned) (r + 1) * 0x01010101u);
}

int
main (void)
{
  int *a = malloc (N * sizeof *a);
  long bad = 0;
  if (!a)
    return 2;
  for (long i = 0; i < N; i++)
    a[i] = value (i, -1);
#pragma omp parallel reduction(+:bad)
  for (int r = 0; r < ROUNDS; r++)
    {
#pragma omp for schedule(static)
      for (long i = 0; i < N; i++)
	a[i] = value (i, r);
      for (long i = 0; i < N; i++)
	if (a[i] != value (i, r))
	  {
	    if (bad < 3)
	      fprintf (stderr, "diff-batches: thread %d, round %d: a[%ld] is "
		       "%d, not %d\n", omp_get_thread_num (), r, i, a[i],
		       value (i, r));
	    bad++;
	  }
#pragma omp barrier
    }
  if (bad)
    {
      printf ("diff-batches: %ld wrong values\n", bad);
      return 1;
    }
  printf ("diff-batches ok\n");
  free (a);
  return 0;
}
