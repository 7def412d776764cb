/* Blocks a node writes without being their home stay writable after a
   release while they keep changing, and for a few releases after they
   stop (dsm/release.c, KEEP_IDLE).  Here each thread writes its slice
   of a cyclically homed array (most of its blocks are homed elsewhere)
   in some intervals and not in others -- gaps of 0 to 9 barriers, longer
   than the keep -- and every thread checks the whole array after every
   barrier, so a write lost while a block was kept, or after it went back
   to READ, shows.  In A the slices share blocks (disjoint bytes, every
   node's notices reach every block); in C each block has one writer,
   never its home, and nobody else writes it.
   ompc-nodes: 1x2 2x1 2x2 3x1
   ompc-env: OMPC_DSM_HOME=cyclic
   ompc-timeout: 180
   ompc-output: keep-writable ok  */

#include <omp.h>
#include <stdio.h>
#include <stdlib.h>

#define N (1 << 17)		/* Ints: 128 blocks.  */
#define STEPS 60

/* Whether thread T writes at step S: gaps that grow and shrink.  */
static int
writes_at (int t, int s)
{
  int period = 1 + (t + s / 10) % 10;
  return s % period == 0;
}

int
main (void)
{
  int *a = malloc (N * sizeof *a), *c = malloc (N * sizeof *c);
  long bad = 0;
  if (!a || !c)
    return 2;
#pragma omp parallel for schedule(static)
  for (long i = 0; i < N; i++)
    a[i] = c[i] = -1;
#pragma omp parallel reduction(+:bad)
  {
    int t = omp_get_thread_num (), nt = omp_get_num_threads ();
    /* What each thread last wrote, known to every thread.  */
    int *last = calloc (nt, sizeof *last);
    for (int u = 0; u < nt; u++)
      last[u] = -1;
    for (int s = 0; s < STEPS; s++)
      {
	/* Thread T owns the elements I with I % 7 % NT == T: interleaved
	   runs, every block written by every thread.  */
	/* In C the owner of the 4 KiB block K is thread (K + 1) % NT: with
	   cyclic homes, never a thread of K's home at 2x1 and 3x1.  */
	if (writes_at (t, s))
	  for (long i = 0; i < N; i++)
	    {
	      if (i % 7 % nt == t)
		a[i] = s * 1000 + t;
	      if ((i / 1024 + 1) % nt == t)
		c[i] = s * 1000 + t;
	    }
	for (int u = 0; u < nt; u++)
	  if (writes_at (u, s))
	    last[u] = s * 1000 + u;
#pragma omp barrier
	for (long i = 0; i < N; i += 13)
	  if (a[i] != last[i % 7 % nt] || c[i] != last[(i / 1024 + 1) % nt])
	    bad++;
#pragma omp barrier
      }
    free (last);
  }
  if (bad)
    {
      printf ("keep-writable: %ld wrong values\n", bad);
      return 1;
    }
  printf ("keep-writable ok\n");
  free (a);
  free (c);
  return 0;
}
