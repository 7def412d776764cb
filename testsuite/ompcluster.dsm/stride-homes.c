/* Rows of a matrix homed at different nodes in bands (first touch by
   the threads of a static loop), read by every thread in tiles that
   cross the bands: dsm/fetch.c runs its fetches on into blocks whose
   home the reader has not looked up yet, guessing the home of the
   block that faulted; a home serves only its own blocks, so a guess
   that crosses into another node's band comes back short or empty, and
   what came teaches the reader homes (their later diffs and faults go
   there).  Two shapes: a tile one block wide beside its neighbour, the
   two read in turns (A11 + A12 of Strassen's scheme: each row a stream
   of its own, one block apart), and a tile two blocks wide in rows of
   four (a stride).  Then each band's node rewrites its band, and every
   thread must read the new values.  Every value read is checked.
   ompc-nodes: 1x2 2x1 2x2 3x1
   ompc-timeout: 240
   ompc-output: stride-homes ok  */

#include <omp.h>
#include <stdio.h>
#include <stdlib.h>

#define BAND 24			/* Rows per band: not a multiple of the
				   manager groups' 64 blocks.  */

static double
val (int sh, long i, long j, int later)
{
  return sh * 100000.0 + i * 3.0 + j * 0.5 + (later ? 7.0 : 0.0);
}

int
main (void)
{
  static const long shape_cols[2] = { 1024, 2048 };	/* 2 or 4 blocks.  */
  const long rows = 1536;
  long bad = 0;
  for (int sh = 0; sh < 2; sh++)
    {
      long cols = shape_cols[sh], w = sh ? 1024 : 512;
      double *a = malloc (rows * cols * sizeof *a);
      if (!a)
	return 2;
#pragma omp parallel reduction(+:bad)
      {
	int t = omp_get_thread_num (), nt = omp_get_num_threads ();
	for (int later = 0; later < 2; later++)
	  {
#pragma omp for schedule(static, BAND)
	    for (long i = 0; i < rows; i++)
	      for (long j = 0; j < cols; j++)
		a[i * cols + j] = val (sh, i, j, later);
	    /* Every row, from a different row for each thread.  */
	    double sum = 0;
	    for (long q = 0; q < rows; q++)
	      {
		long i = (q + t * (rows / nt)) % rows;
		const double *x = a + i * cols;
		if (sh == 0)
		  for (long j = 0; j < w; j++)
		    {
		      /* Column J of both tiles, in turns.  */
		      double u = x[j], v = x[j + w];
		      bad += u != val (sh, i, j, later)
			     || v != val (sh, i, j + w, later);
		      sum += u + v;
		    }
		else
		  for (long j = w / 2; j < w / 2 + w; j++)
		    {
		      bad += x[j] != val (sh, i, j, later);
		      sum += x[j];
		    }
	      }
	    bad += sum != sum;
#pragma omp barrier
	  }
      }
      free (a);
    }
  if (bad)
    {
      printf ("stride-homes: %ld wrong values\n", bad);
      return 1;
    }
  printf ("stride-homes ok\n");
  return 0;
}
