/* wavefront.c -- the pipeline of NPB LU's SSOR sweeps, as issue 12 times
   it: NK planes of NI rows of NJ doubles; each thread owns a band of rows
   (a static loop), and row i of plane k needs row i-1 of plane k (from
   the thread before at a band's edge) and row i of plane k-1.  The
   hand-off is LU's: the producer writes its row, sets flag[i] = 1 and
   flushes; the consumer spins "while (flag[i-1] == 0) flush" and reads
   the row at once (no flush between the flag and the data), then clears
   the flag.  Across nodes this costs round trips, and must never move a
   page that did not change.

     wavefront [SWEEPS]

   Prints "wavefront NKxNIxNJ T threads: S s per sweep (N wrong)", the
   time of the sweeps alone (the check against a serial computation
   comes after); exits 1 when a value is wrong.  */

#include <omp.h>
#include <stdio.h>
#include <stdlib.h>

#define NK 24
#define NI 96
#define NJ 384

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
  for (int k = 0; k < NK; k++)
    {
      int i;
#pragma omp for nowait schedule(static)
      for (i = 0; i < NI; i++)
	{
	  if (i != 0)
	    while (flag[i - 1] == 0)
	      {
#pragma omp flush(flag)
	      }
	  if (i != NI - 1)
	    while (flag[i] == 1)
	      {
#pragma omp flush(flag)
	      }
	  for (int j = 0; j < NJ; j++)
	    v[k][i][j] = f (k ? v[k - 1][i][j] : 1.0, i ? v[k][i - 1][j] : 2.0,
			    k, i, j);
	  if (i != 0)
	    flag[i - 1] = 0;
	  if (i != NI - 1)
	    flag[i] = 1;
#pragma omp flush(flag)
	}
    }
}

int
main (int argc, char **argv)
{
  int sweeps = argc > 1 ? atoi (argv[1]) : 3;
  if (sweeps < 1)
    sweeps = 1;
  for (int k = 0; k < NK; k++)
    for (int i = 0; i < NI; i++)
      for (int j = 0; j < NJ; j++)
	ref[k][i][j] = f (k ? ref[k - 1][i][j] : 1.0,
			  i ? ref[k][i - 1][j] : 2.0, k, i, j);
  /* One sweep untimed: the first touches and the first fetches.  */
  sweep ();
  double t = omp_get_wtime ();
  for (int r = 0; r < sweeps; r++)
    sweep ();
  t = omp_get_wtime () - t;
  long bad = 0;
  for (int k = 0; k < NK; k++)
    for (int i = 0; i < NI; i++)
      for (int j = 0; j < NJ; j++)
	bad += v[k][i][j] != ref[k][i][j];
  printf ("wavefront %dx%dx%d %d threads: %.6f s per sweep (%ld wrong)\n",
	  NK, NI, NJ, omp_get_max_threads (), t / sweeps, bad);
  return bad != 0;
}
