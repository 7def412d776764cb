/* The block of rank 0's stack that holds a region's data (the shared
   variables' addresses and main's locals) is sent along with the
   region's start, and rank 0's master runs the region in frames that
   start on the next block down, so that the other nodes keep their copy
   through the region's barriers.  What must never go wrong: rank 0's
   master writes a local of main inside the region, between two
   barriers, and every thread of every node must read the new value
   after the second one (that release announces the block again, after
   the dispatch announced it: the notice must be acquired, not taken
   for the dispatch's); the serial code changes the locals between
   regions; deep calls on every thread write their own frames meanwhile.
   Every value is checked, through a volatile pointer so that each read
   reaches memory.
   ompc-nodes: 1 1x2 2x1 2x2 3x1
   ompc-timeout: 180
   ompc-output: region-data ok  */

#include <omp.h>
#include <stdio.h>
#include <string.h>

#define ITERS 100
#define STEPS 4

/* Writes DEPTH frames of 512 bytes each on the calling thread's stack.  */
static void __attribute__ ((noinline))
deep (int depth, volatile double *sink)
{
  char buf[512];
  memset (buf, depth + 1, sizeof buf);
  __asm__ volatile ("" : : "r" (buf) : "memory");
  *sink += buf[depth * 7 % 512];
  if (depth)
    deep (depth - 1, sink);
}

int
main (void)
{
  double scale = 0.0;
  long base = 0, bad = 0;
  for (int it = 0; it < ITERS; it++)
    {
      scale = it * 2.0 + 1.0;
      base = it * 1000L;
#pragma omp parallel reduction(+:bad)
      {
	volatile double *vs = &scale;
	volatile long *vb = &base;
	for (int s = 0; s < STEPS; s++)
	  {
	    double sink = 0;
	    deep (8, &sink);
	    if (*vs != it * 2.0 + 1.0 + s || *vb != it * 1000L + s)
	      bad++;
#pragma omp barrier
#pragma omp master
	    {
	      deep (4, &sink);
	      *vs = *vs + 1.0;
	      *vb = *vb + 1;
	    }
#pragma omp barrier
	  }
	if (*vs != it * 2.0 + 1.0 + STEPS)
	  bad++;
      }
      if (scale != it * 2.0 + 1.0 + STEPS || base != it * 1000L + STEPS)
	bad++;
    }
  if (bad)
    {
      printf ("region-data: %ld wrong values\n", bad);
      return 1;
    }
  printf ("region-data ok\n");
  return 0;
}
