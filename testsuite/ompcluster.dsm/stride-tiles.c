/* Threads walk tiles of 2-D arrays row by row, as a blocked matrix code
   does (c = a + b on a tile; Strassen's quadrants), downwards and
   upwards: each row of a tile is a short run of blocks, the next row a
   fixed number of blocks away, and the streams of a and b interleave,
   so dsm/fetch.c fetches the rows ahead of each stream in the same round
   trip, and they wait PREFETCHED.  Then another thread (another node,
   with several) rewrites the second half of each tile's rows of a, of
   which the reader may hold rows fetched ahead and never touched; after
   the barrier the reader must see the new values.  Every value read is
   checked against its formula, and thread 0 checks all of c.  Two
   shapes: rows of 4 blocks with tiles 2 blocks wide, and rows of 3 blocks
   with tiles 1 block wide starting mid-row.
   ompc-nodes: 1x2 2x1 2x2 3x1
   ompc-timeout: 240
   ompc-output: stride-tiles ok  */

#include <omp.h>
#include <stdio.h>
#include <stdlib.h>

#define ROUNDS 4

struct shape
{
  long rows, cols;		/* The array.  */
  long th, tw, off;		/* A tile: TH rows, TW columns from OFF.  */
};

static const struct shape shapes[2] = {
  { 256, 2048, 32, 1024, 0 },	/* 16 KiB rows, tiles of 8 KiB.  */
  { 192, 1536, 24, 512, 256 }	/* 12 KiB rows, 4 KiB tiles mid-row.  */
};

static double
va (int r, long i, long j, int later)
{
  return r * 7.0 + i * 3.0 + j + (later ? 1000.0 : 0.0);
}

static double
vb (int r, long i, long j)
{
  return r * 5.0 - i + j * 2.0;
}

/* Tile K's first row and column.  */
static void
tile (const struct shape *s, long k, long *i0, long *j0)
{
  long across = (s->cols - s->off) / s->tw;
  *i0 = (k / across) * s->th;
  *j0 = s->off + (k % across) * s->tw;
}

int
main (void)
{
  long bad = 0;
  for (int sh = 0; sh < 2; sh++)
    {
      const struct shape *s = &shapes[sh];
      long n = s->rows * s->cols;
      double *a = malloc (n * sizeof *a), *b = malloc (n * sizeof *b);
      double *c = malloc (n * sizeof *c);
      long tiles = (s->rows / s->th) * ((s->cols - s->off) / s->tw);
      if (!a || !b || !c)
	return 2;
      for (int r = 0; r < ROUNDS; r++)
	{
	  /* Written serially: homed on the first node.  */
	  for (long i = 0; i < s->rows; i++)
	    for (long j = 0; j < s->cols; j++)
	      {
		a[i * s->cols + j] = va (r, i, j, 0);
		b[i * s->cols + j] = vb (r, i, j);
		c[i * s->cols + j] = -1;
	      }
#pragma omp parallel reduction(+:bad)
	  {
	    int t = omp_get_thread_num (), nt = omp_get_num_threads ();
	    long half = s->th / 2;
	    /* The first half of the rows of this thread's tiles, walked
	       down in even tiles and up in odd ones: c = a + b.  */
	    for (long k = t; k < tiles; k += nt)
	      {
		long i0, j0;
		tile (s, k, &i0, &j0);
		for (long q = 0; q < half; q++)
		  {
		    long i = (k + r) % 2 ? i0 + half - 1 - q : i0 + q;
		    for (long j = j0; j < j0 + s->tw; j++)
		      {
			double x = a[i * s->cols + j], y = b[i * s->cols + j];
			bad += x != va (r, i, j, 0) || y != vb (r, i, j);
			c[i * s->cols + j] = x + y;
		      }
		  }
	      }
#pragma omp barrier
	    /* The next thread rewrites the second half of the rows of a
	       in those tiles (the reader may hold them, fetched ahead).  */
	    for (long k = (t + 1) % nt; k < tiles; k += nt)
	      {
		long i0, j0;
		tile (s, k, &i0, &j0);
		for (long i = i0 + half; i < i0 + s->th; i++)
		  for (long j = j0; j < j0 + s->tw; j++)
		    a[i * s->cols + j] = va (r, i, j, 1);
	      }
#pragma omp barrier
	    for (long k = t; k < tiles; k += nt)
	      {
		long i0, j0;
		tile (s, k, &i0, &j0);
		for (long q = half; q < s->th; q++)
		  {
		    long i = (k + r) % 2 ? i0 + s->th - 1 - (q - half) : i0 + q;
		    for (long j = j0; j < j0 + s->tw; j++)
		      {
			double x = a[i * s->cols + j], y = b[i * s->cols + j];
			bad += x != va (r, i, j, 1) || y != vb (r, i, j);
			c[i * s->cols + j] = x + y;
		      }
		  }
	      }
	  }
	  /* Every tile's c, as the threads of every node wrote it.  */
	  for (long k = 0; k < tiles; k++)
	    {
	      long i0, j0;
	      tile (s, k, &i0, &j0);
	      for (long i = i0; i < i0 + s->th; i++)
		for (long j = j0; j < j0 + s->tw; j++)
		  bad += c[i * s->cols + j]
			 != va (r, i, j, i >= i0 + s->th / 2) + vb (r, i, j);
	    }
	}
      free (a);
      free (b);
      free (c);
    }
  if (bad)
    {
      printf ("stride-tiles: %ld wrong values\n", bad);
      return 1;
    }
  printf ("stride-tiles ok\n");
  return 0;
}
