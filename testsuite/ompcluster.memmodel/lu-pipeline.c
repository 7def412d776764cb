/* NPB LU's pipeline, as LU writes it: rows v[i][j][k][m] (k inner), each
   plane first updated by every thread on its own rows (part 1), then
   swept in a wavefront (part 2) where the consumer of row i-1 spins
   "while (flag[i-1] == 0) flush(flag)" and reads the row at once, with
   no flush between the flag and the data, and the producer writes its
   row, then the flags, then flushes.  Neighbour rows share DSM blocks,
   written by both nodes.  The values the first row of a band reads from
   the previous band are recorded and checked against a serial run, as
   is the whole array.  The flag reaches the reader by a fetch (labelled
   with its home's release), or by a diff applied at its home only with
   the acquire that names it (dsm/stage.c).  At 2x2 two threads of a
   node race: one releases while the other writes (the release's cut,
   dsm/release.c), and one opens a block another fetched before that one
   caught up with its label (dsm/fault.c).  */
/* ompc-nodes: 1 1x2 2x1 2x2 3x1 */
/* ompc-args: 10 */
/* ompc-timeout: 180 */
#include <omp.h>
#include <stdio.h>
#include <stdlib.h>
#define NK 13
#define NI 12
#define NJ 13
#define M 5
static double v[NI][NJ][NK][M], ref[NI][NJ][NK][M];
static int flag[NI];
static double seen[NK][NJ][M];
static int seen_i[NK];

static void
sweep (double (*a)[NJ][NK][M], int par)
{
#pragma omp parallel if (par)
  for (int k = 1; k < NK; k++)
    {
      int i;
#pragma omp for nowait schedule(static)
      for (i = 0; i < NI; i++)
	for (int j = 0; j < NJ; j++)
	  for (int m = 0; m < M; m++)
	    a[i][j][k][m] = 0.5 * a[i][j][k][m] + 0.25 * a[i][j][k - 1][m];
#pragma omp for nowait schedule(static)
      for (i = 0; i < NI; i++)
	{
	  if (par && i != 0)
	    while (flag[i - 1] == 0)
	      {
#pragma omp flush(flag)
	      }
	  if (par && i != NI - 1)
	    while (flag[i] == 1)
	      {
#pragma omp flush(flag)
	      }
	  if (par && i != 0 && omp_get_thread_num () == 1 && i == NI / 2)
	    {
	      seen_i[k] = i;
	      for (int j = 0; j < NJ; j++)
		for (int m = 0; m < M; m++)
		  seen[k][j][m] = a[i - 1][j][k][m];
	    }
	  for (int j = 0; j < NJ; j++)
	    for (int m = 0; m < M; m++)
	      a[i][j][k][m] = a[i][j][k][m]
		- 0.125 * ((i ? a[i - 1][j][k][m] : 1.0)
			   + (j ? a[i][j - 1][k][m] : 1.0));
	  if (par && i != 0)
	    flag[i - 1] = 0;
	  if (par && i != NI - 1)
	    flag[i] = 1;
#pragma omp flush(flag)
	}
    }
}

int
main (int argc, char **argv)
{
  int reps = argc > 1 ? atoi (argv[1]) : 50;
  for (int i = 0; i < NI; i++)
    for (int j = 0; j < NJ; j++)
      for (int k = 0; k < NK; k++)
	for (int m = 0; m < M; m++)
	  v[i][j][k][m] = ref[i][j][k][m] = 1.0 + i + 0.1 * j + 0.01 * k + m;
  long bad = 0;
  double t = omp_get_wtime ();
  for (int r = 0; r < reps; r++)
    {
      sweep (ref, 0);
      sweep (v, 1);
      for (int k = 1; k < NK; k++)
	for (int j = 0; j < NJ; j++)
	  for (int m = 0; m < M; m++)
	    if (seen_i[k] && seen[k][j][m] != ref[NI / 2 - 1][j][k][m]
		&& ++bad)
	      printf ("rep %d: stale read of row %d j %d k %d m %d (offset %ld)\n", r, NI / 2 - 1, j, k, m,
		      (long) ((char *) &ref[NI / 2 - 1][j][k][m] - (char *) ref));
      for (int i = 0; i < NI; i++)
	for (int j = 0; j < NJ; j++)
	  for (int k = 0; k < NK; k++)
	    for (int m = 0; m < M; m++)
	      if (v[i][j][k][m] != ref[i][j][k][m])
		{
		  if (!bad)
		    printf ("rep %d first wrong at %d %d %d %d: %g vs %g\n", r, i, j, k, m, v[i][j][k][m], ref[i][j][k][m]);
		  bad++;
		  v[i][j][k][m] = ref[i][j][k][m];
		}
    }
  printf ("%ld wrong, %.4f s\n", bad, omp_get_wtime () - t);
  (void) t;
  return bad != 0;
}
