/* Rank 0 sends the stack blocks other nodes read along with a region's
   start (gomp_dsm_push_pack) instead of letting them fetch those from a
   rank that is already running the region.  What must never go wrong:
   main's locals (scalars, and an array over several pages of main's
   stack) change in the serial code between regions and every thread of
   every node reads them right at the start of the next region; inside
   some regions the threads also write disjoint elements of a local of
   main, so that a pushed page is being written on its receiver (it is
   then invalidated as usual), and a region reads what an earlier one
   wrote there.  Every value is checked.  region-push-used.c runs this
   with OMPC_STATS to see blocks pushed.
   ompc-nodes: 1 1x2 2x1 2x2 3x1
   ompc-timeout: 180
   ompc-output: region-push ok  */

#include <omp.h>
#include <stdio.h>
#include <string.h>

#define NL 1536			/* Doubles of LOCAL: 3 pages.  */
#define NW 64
#define ITERS 60

int
main (void)
{
  double local[NL];
  long written[NW];
  double alpha = 0.0, beta = 1.0;
  long bad = 0, regions = 0;
  int last = -1;			/* The region that last wrote WRITTEN.  */
  memset (written, 0, sizeof written);
  for (int it = 0; it < ITERS; it++)
    {
      /* Serial code changes what the region reads.  */
      alpha = it * 3.0 + 1.0;
      beta = it * 5.0 - 2.0;
      for (int i = 0; i < NL; i++)
	local[i] = it * 10000.0 + i;
#pragma omp parallel reduction(+:bad)
      {
	int t = omp_get_thread_num (), nt = omp_get_num_threads ();
	if (alpha != it * 3.0 + 1.0 || beta != it * 5.0 - 2.0)
	  bad++;
	for (int k = 0; k < NL; k++)
	  {
	    int i = (k + t * 97) % NL;
	    if (local[i] != it * 10000.0 + i)
	      bad++;
	  }
	/* What an earlier region wrote here.  */
	for (int i = 0; i < NW && last >= 0; i++)
	  if (written[i] != (long) last * 1000 + i)
	    bad++;
	/* Two regions in three write disjoint elements of WRITTEN, once
	   every thread has checked them.  */
	if (it % 3 != 1)
	  {
#pragma omp barrier
	    for (int i = t; i < NW; i += nt)
	      written[i] = (long) it * 1000 + i;
	  }
      }
      if (it % 3 != 1)
	last = it;
      regions++;
    }
  if (bad)
    {
      printf ("region-push: %ld wrong values\n", bad);
      return 1;
    }
  printf ("region-push ok (%ld regions)\n", regions);
  return 0;
}
