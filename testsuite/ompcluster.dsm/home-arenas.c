/* Each thread fills a buffer it allocated (in its node's heap arena),
   and after a barrier every thread reads every other thread's buffer
   through: a node looks up the homes of blocks in another node's arena,
   whose owner manages them, and each answer covers the homes of several
   manager groups (dsm/home.c, reply_end).  A group of 64 blocks may
   straddle two arenas (the heap's first block is not aligned to a
   group): an answer whose end was computed from the group's first
   block instead of the block asked for covered one block, and the
   reader stopped with "the manager gave no home".  Three rounds, the
   buffers freed and allocated again, of different sizes.
   ompc-nodes: 1x2 2x1 2x2 3x1
   ompc-output: home-arenas ok  */

#include <omp.h>
#include <stdio.h>
#include <stdlib.h>

#define MAXT 16

int
main (void)
{
  static double *buf[MAXT];
  static long len[MAXT];
  long bad = 0;
  for (int round = 0; round < 3; round++)
    {
#pragma omp parallel reduction(+:bad)
      {
	int t = omp_get_thread_num (), nt = omp_get_num_threads ();
	if (nt > MAXT)
	  nt = MAXT;
	if (t < nt)
	  {
	    len[t] = (1L << (15 + round)) + 1000 * t;
	    buf[t] = malloc (len[t] * sizeof (double));
	    if (buf[t] == NULL)
	      bad++;
	    else
	      for (long i = 0; i < len[t]; i++)
		buf[t][i] = t * 1e7 + i + round;
	  }
#pragma omp barrier
	if (t < nt)
	  for (int u = 0; u < nt; u++)
	    {
	      int v = (t + u + 1) % nt;
	      if (buf[v] == NULL)
		continue;
	      for (long i = 0; i < len[v]; i++)
		if (buf[v][i] != v * 1e7 + i + round)
		  {
		    bad++;
		    break;
		  }
	    }
#pragma omp barrier
	if (t < nt)
	  free (buf[t]);
      }
    }
  if (bad)
    {
      printf ("home-arenas: %ld bad\n", bad);
      return 1;
    }
  printf ("home-arenas ok\n");
  return 0;
}
