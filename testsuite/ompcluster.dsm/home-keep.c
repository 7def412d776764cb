/* Home blocks that their own node rewrites now and then while the other
   nodes read them: each block is first touched, so homed, by the thread
   that writes it afterwards, at gaps of 1 to 150 barriers, with new
   values every third time.  The other nodes read the whole array after
   every barrier, so each block has a twin at its home (dsm/release.c,
   snapshot_home): kept while releases find it written, dropped and the
   block write-protected again after KEEP_IDLE counted releases without a
   change (one in KEEP_STEP << M_KEEP counting), kept longer after a
   write that comes soon after the drop.  A write lost while the twin was
   kept, when it was dropped, or after the fault that makes the next one,
   shows in the checks every thread makes after every barrier.
   ompc-nodes: 1x2 2x1 2x2 3x1
   ompc-timeout: 180
   ompc-output: home-keep ok  */

#include <omp.h>
#include <stdio.h>
#include <stdlib.h>

#define BLOCK_INTS 1024		/* 4 KiB.  */
#define NBLK 64
#define N (NBLK * BLOCK_INTS)
#define STEPS 600

#include "keep-gaps.h"

int
main (void)
{
  int *a = aligned_alloc (4096, N * sizeof *a);
  long bad = 0;
  if (!a)
    return 2;
#pragma omp parallel reduction(+:bad)
  {
    int t = omp_get_thread_num (), nt = omp_get_num_threads ();
    /* The writer of each block touches it first: its node is the home.  */
    for (long k = 0; k < NBLK; k++)
      if ((k + 1) % nt == t)
	for (long i = k * BLOCK_INTS; i < (k + 1) * BLOCK_INTS; i++)
	  a[i] = -1;
#pragma omp barrier
    for (int s = 0; s < STEPS; s++)
      {
	int cnt;
	for (long k = 0; k < NBLK; k++)
	  if ((k + 1) % nt == t && writes_at (k, s, &cnt))
	    for (long i = k * BLOCK_INTS; i < (k + 1) * BLOCK_INTS; i++)
	      a[i] = (int) (cnt / 3 * 100000 + i);
#pragma omp barrier
	for (long k = 0; k < NBLK; k++)
	  {
	    int w = writes_at (k, s, &cnt);
	    /* Writes so far: CNT before step S, one more if it wrote at S.  */
	    int want = cnt + w == 0 ? -1 : (cnt + w - 1) / 3 * 100000;
	    for (long i = k * BLOCK_INTS + t % 7; i < (k + 1) * BLOCK_INTS;
		 i += 97)
	      if (a[i] != (want < 0 ? -1 : (int) (want + i)))
		bad++;
	  }
#pragma omp barrier
      }
  }
  if (bad)
    {
      printf ("home-keep: %ld wrong values\n", bad);
      return 1;
    }
  printf ("home-keep ok\n");
  free (a);
  return 0;
}
