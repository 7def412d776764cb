/* A node reads an array of which another node wrote only the first
   blocks: its fetches ahead run on into blocks nobody touched yet, whose
   home it has not looked up (dsm/fetch.c, home_may_be).  The writer
   serves only its own blocks; the blocks after them must keep what they
   hold here (zeros), since the reader's first touch then makes them its
   own as they are.  A reply's label once landed in the first block not
   served, and GCC's uns-outer-4.c summed a 1 into a zero array at 2x2.
   The untouched blocks are then written by the reader and read back by
   every thread.
   ompc-nodes: 1x2 2x1 2x2 3x1
   ompc-output: fetch-untouched ok  */

#include <omp.h>
#include <stdio.h>

#define N (1 << 18)		/* 2 MiB of doubles.  */
#define WRITTEN 3000		/* Elements the first thread writes.  */
#define START 512		/* Where the reader starts: 4 KiB in.  */

static double z[N];
static double big[N];

int
main (void)
{
  long bad = 0;
  for (int round = 0; round < 2; round++)
    {
      double *a = round ? big : z;
#pragma omp parallel reduction(+:bad)
      {
	int t = omp_get_thread_num (), nt = omp_get_num_threads ();
	if (t == 0)
	  for (long i = 0; i < WRITTEN; i++)
	    a[i] = i + 1;
#pragma omp barrier
	if (t == nt - 1)
	  {
	    /* Read the array in sequence from its second block (the
	       writer's claims and these fetches, both doubling from their
	       first block, then end at different blocks), then write past
	       what the first thread wrote.  */
	    for (long i = START; i < N; i++)
	      bad += a[i] != (i < WRITTEN ? i + 1 : 0);
	    for (long i = WRITTEN; i < N; i++)
	      a[i] = -(double) i;
	  }
#pragma omp barrier
	for (long i = t; i < N; i += nt)
	  bad += a[i] != (i < WRITTEN ? i + 1 : -(double) i);
      }
    }
  if (bad)
    {
      printf ("fetch-untouched: %ld wrong values\n", bad);
      return 1;
    }
  printf ("fetch-untouched ok\n");
  return 0;
}
