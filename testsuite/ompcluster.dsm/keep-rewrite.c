/* Blocks that a node rewrites now and then, mostly with the values they
   already hold, after gaps long enough that they go back to READ
   (dsm/release.c: KEEP_IDLE counted releases, one in KEEP_STEP <<
   M_KEEP counting, M_KEEP raised by each write fault on a block that
   went back): each block has one writer, never a thread of its home
   (cyclic homes, as keep-writable.c's C), which writes it at gaps of 1
   to 150 barriers, with new values every third time.  Every thread
   checks the array after every barrier, so a write lost while a block
   was kept, when it went back to READ, or after a fault made it
   writable again, shows.
   ompc-nodes: 1x2 2x1 2x2 3x1
   ompc-env: OMPC_DSM_HOME=cyclic
   ompc-timeout: 180
   ompc-output: keep-rewrite ok  */

#include <omp.h>
#include <stdio.h>
#include <stdlib.h>

#define N (1 << 16)		/* Ints: 64 blocks.  */
#define STEPS 600

#include "keep-gaps.h"

int
main (void)
{
  int *a = malloc (N * sizeof *a);
  long bad = 0;
  if (!a)
    return 2;
#pragma omp parallel for schedule(static)
  for (long i = 0; i < N; i++)
    a[i] = -1;
#pragma omp parallel reduction(+:bad)
  {
    int t = omp_get_thread_num (), nt = omp_get_num_threads ();
    for (int s = 0; s < STEPS; s++)
      {
	int cnt;
	for (long k = 0; k < N / 1024; k++)
	  if ((k + 1) % nt == t && writes_at (k, s, &cnt))
	    for (long i = k * 1024; i < (k + 1) * 1024; i++)
	      a[i] = (int) (cnt / 3 * 100000 + i);
#pragma omp barrier
	for (long k = 0; k < N / 1024; k++)
	  {
	    int w = writes_at (k, s, &cnt);
	    /* Writes so far: CNT before step S, one more if it wrote at S.  */
	    int want = cnt + w == 0 ? -1 : (cnt + w - 1) / 3 * 100000;
	    for (long i = k * 1024 + t % 7; i < (k + 1) * 1024; i += 97)
	      if (a[i] != (want < 0 ? -1 : (int) (want + i)))
		bad++;
	  }
#pragma omp barrier
      }
  }
  if (bad)
    {
      printf ("keep-rewrite: %ld wrong values\n", bad);
      return 1;
    }
  printf ("keep-rewrite ok\n");
  free (a);
  return 0;
}
