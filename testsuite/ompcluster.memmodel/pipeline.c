/* A wavefront pipeline in the style of NPB LU's SSOR sweeps: each thread
   owns a band of rows; row i of plane k needs row i-1 of plane k (from the
   previous thread at a band's edge) and row i of plane k-1.  The hand-off
   is LU's: the producer writes its row, sets flag[i] = 1 and flushes; the
   consumer spins "while (flag[i-1] == 0) flush" and reads the row at once,
   then clears flag[i-1].  Checked against a serial computation.  The
   data and the flag travel in one release, so a node must never see the
   flag before the data (dsm/order.c).  */
/* ompc-nodes: 1 1x2 2x1 2x2 3x1 */
/* ompc-args: 3 */
/* ompc-timeout: 180 */
#include <omp.h>
#include <stdio.h>
#include <stdlib.h>

#ifndef NK
#define NK 8
#endif
#ifndef NI
#define NI 24
#endif
#ifndef NJ
#define NJ 200
#endif

static double v[NK][NI][NJ], ref[NK][NI][NJ];
static int flag[NI];

static double
f (double up, double left, int k, int i, int j)
{
  return 0.5 * up + 0.25 * left + 0.001 * (k + 2 * i + 3 * j % 7);
}

static void
sweep (void)
{
#pragma omp parallel
  {
    for (int k = 0; k < NK; k++)
      {
	int ist = 0, iend = NI - 1, i;
#pragma omp for nowait schedule(static)
	for (i = ist; i <= iend; i++)
	  {
	    if (i != ist)
	      while (flag[i - 1] == 0)
		{
#pragma omp flush(flag)
		}
	    if (i != iend)
	      while (flag[i] == 1)
		{
#pragma omp flush(flag)
		}
	    for (int j = 0; j < NJ; j++)
	      v[k][i][j] = f (k ? v[k - 1][i][j] : 1.0,
			      i ? v[k][i - 1][j] : 2.0, k, i, j);
	    if (i != ist)
	      flag[i - 1] = 0;
	    if (i != iend)
	      flag[i] = 1;
#pragma omp flush(flag)
	  }
      }
  }
}

int
main (int argc, char **argv)
{
  int reps = argc > 1 ? atoi (argv[1]) : 1;
  for (int k = 0; k < NK; k++)
    for (int i = 0; i < NI; i++)
      for (int j = 0; j < NJ; j++)
	ref[k][i][j] = f (k ? ref[k - 1][i][j] : 1.0,
			  i ? ref[k][i - 1][j] : 2.0, k, i, j);
  long bad = 0;
  double t = omp_get_wtime ();
  for (int r = 0; r < reps; r++)
    {
      sweep ();
      for (int k = 0; k < NK; k++)
	for (int i = 0; i < NI; i++)
	  for (int j = 0; j < NJ; j++)
	    bad += v[k][i][j] != ref[k][i][j];
    }
  t = omp_get_wtime () - t;
  printf ("wavefront %dx%dx%d, %d threads: %ld wrong, %.4f s per sweep\n",
	  NK, NI, NJ, omp_get_max_threads (), bad, t / reps);
  return bad != 0;
}
