/* A home keeps writing blocks that other nodes cache: each write after
   another node fetched the block again must reach that node as a write
   notice (dsm/fault.c: a write fault on HOME_RO), while other nodes
   write the same blocks and send diffs.  Every thread writes in some
   intervals and not in others (gaps of 0 to 9 barriers, longer than the
   releases a written block stays writable unchanged, dsm/release.c's
   KEEP_IDLE), and checks everything after every barrier:
   - in A every block is written by every thread at disjoint ints (the
     home must apply the other nodes' diffs without losing its own
     writes);
   - in B each thread writes the blocks its node is home of (first
     touch), out of order, which every thread reads;
   - in C the threads take turns in a critical section to add one to
     every element of two blocks homed at node 0: the home's writes must
     reach the next holder through the lock's release, not a barrier.
   ompc-nodes: 1x2 2x1 2x2 3x1
   ompc-timeout: 180
   ompc-output: home-writes ok  */

#include <omp.h>
#include <stdio.h>
#include <stdlib.h>

#define N (1 << 16)		/* Ints: 64 blocks.  */
#define NC 2048			/* Ints of C: 2 blocks.  */
#define STEPS 60
#define TURNS 20

static int
writes_at (int t, int s)
{
  int period = 1 + (t + s / 10) % 10;
  return s % period == 0;
}

int
main (void)
{
  int *a = malloc (N * sizeof *a), *b = malloc (N * sizeof *b);
  int *c = malloc (NC * sizeof *c);
  long bad = 0;
  if (!a || !b || !c)
    return 2;
#pragma omp parallel for schedule(static)
  for (long i = 0; i < N; i++)
    a[i] = b[i] = -1;
  for (long i = 0; i < NC; i++)
    c[i] = 0;
#pragma omp parallel reduction(+:bad)
  {
    int t = omp_get_thread_num (), nt = omp_get_num_threads ();
    long lo = N * t / nt, hi = N * (t + 1) / nt;
    int *last = calloc (nt, sizeof *last);
    for (int u = 0; u < nt; u++)
      last[u] = -1;
    for (int s = 0; s < STEPS; s++)
      {
	if (writes_at (t, s))
	  {
	    for (long i = t; i < N; i += nt)
	      a[i] = s * 1000 + t;
	    /* Block by block out of order (the 16 to 32 pieces of 1024
	       ints a thread has here are prime to 5), so that the home's
	       faults make no streak: each one opens a single block.  */
	    long np = (hi - lo + 1023) / 1024;
	    for (long j = 0; j < np; j++)
	      {
		long p = lo + (j * 5 % np) * 1024;
		for (long i = p; i < p + 1024 && i < hi; i++)
		  b[i] = s * 1000 + t;
	      }
	  }
	for (int u = 0; u < nt; u++)
	  if (writes_at (u, s))
	    last[u] = s * 1000 + u;
#pragma omp barrier
	for (long i = 0; i < N; i += 7)
	  {
	    int ub = 0;
	    while ((ub + 1) < nt && i >= N * (ub + 1) / nt)
	      ub++;
	    if (a[i] != last[i % nt] || b[i] != last[ub])
	      bad++;
	  }
#pragma omp barrier
      }
    for (int k = 0; k < TURNS; k++)
      {
#pragma omp critical
	{
	  int v = c[0];
	  for (long i = 0; i < NC; i++)
	    {
	      if (c[i] != v)
		bad++;
	      c[i] = v + 1;
	    }
	}
	/* Some work outside, so that the holders alternate.  */
	for (volatile int w = 0; w < 20000 * (t + 1); w++)
	  ;
      }
#pragma omp barrier
    for (long i = 0; i < NC; i++)
      if (c[i] != nt * TURNS)
	bad++;
    free (last);
  }
  if (bad)
    {
      printf ("home-writes: %ld wrong values\n", bad);
      return 1;
    }
  printf ("home-writes ok\n");
  free (a);
  free (b);
  free (c);
  return 0;
}
