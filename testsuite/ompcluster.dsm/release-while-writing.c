/* A release diffs the blocks this node wrote without write-protecting
   those that stay writable (dsm/release.c: the twin becomes a snapshot
   of what was sent).  Here, in each node, some threads keep writing
   their elements of blocks homed elsewhere while other threads of the
   same node release again and again (each flush is a release of the
   whole node's writes): a write that lands while a release diffs its
   block must still reach the home, at a later release.  Every value is
   checked after every round by every thread.
   ompc-nodes: 1x2 2x1 2x2 3x1
   ompc-env: OMPC_DSM_HOME=cyclic
   ompc-timeout: 180
   ompc-output: release-while-writing ok  */

#include <omp.h>
#include <stdio.h>
#include <stdlib.h>

#define N (1 << 16)		/* Longs: 128 blocks.  */
#define ROUNDS 16

int
main (void)
{
  long *a = malloc (N * sizeof *a), bad = 0, flushes = 0;
  int *done = calloc (256, sizeof *done);
  if (!a || !done)
    return 2;
#pragma omp parallel for schedule(static)
  for (long i = 0; i < N; i++)
    a[i] = -1;
#pragma omp parallel reduction(+:bad, flushes)
  {
    int t = omp_get_thread_num (), nt = omp_get_num_threads ();
    for (int r = 0; r < ROUNDS; r++)
      {
	/* Element I belongs to thread I % NT: every block has writers on
	   every node.  Each is written once a round, so a write a release
	   lost would be the last one.  Even threads write slowly while the
	   odd thread after them (on the same node at 2x2) releases until
	   they are done.  */
	for (long i = t; i < N; i += nt)
	  {
	    a[i] = (long) r * 1000 + t;
	    if (t % 2 == 0 && i % 64 < nt)
	      for (volatile int z = 0; z < 20000; z++)
		;
	  }
	if (t % 2 == 0)
	  {
#pragma omp atomic write seq_cst
	    done[t] = r + 1;
	  }
	else
	  for (;;)
	    {
	      int d;
	      flushes++;
#pragma omp flush
#pragma omp atomic read seq_cst
	      d = done[t - 1];
	      if (d > r)
		break;
	    }
#pragma omp barrier
	for (long i = 0; i < N; i++)
	  if (a[i] != (long) r * 1000 + i % nt)
	    bad++;
#pragma omp barrier
      }
  }
  if (bad)
    {
      printf ("release-while-writing: %ld wrong values\n", bad);
      return 1;
    }
  printf ("release-while-writing ok (%ld flushes)\n", flushes);
  free (a);
  free (done);
  return 0;
}
