/* First touches chunk by chunk from the top down (home.c, streams of
   fresh blocks): one thread of the last node fills a fresh array that
   node 0 allocated (node 0 manages its homes), each chunk of 48 blocks
   upwards, the chunks from the last one down, as the merges of a merge
   sort fill their output.  A stream that starts just below where
   another started goes on from that one's length, so a chunk needs one
   or two lookups; it started over from one block before (about 700
   lookups at 2 x 1).  Every value is checked; no node may need 400
   lookups.
   ompc-nodes: 1x2 2x1 2x2 3x1
   ompc-env: OMPC_STATS=1
   ompc-output: chunk first touch ok
   ompc-no-output: home lookups ([4-9][0-9][0-9]|[0-9]{4,})  */

#include <omp.h>
#include <stdio.h>
#include <stdlib.h>

#define BLOCK 4096
#define CHUNK (48 * BLOCK / sizeof (long))
#define NCHUNKS 128

int
main (void)
{
  long n = CHUNK * NCHUNKS, bad = 0;
  long *a = malloc (n * sizeof *a);
  if (!a)
    return 2;
#pragma omp parallel
  if (omp_get_thread_num () == omp_get_num_threads () - 1)
    for (long c = NCHUNKS - 1; c >= 0; c--)
      for (long i = c * CHUNK; i < (c + 1) * CHUNK; i++)
	a[i] = i * 3 + 1;
#pragma omp parallel for reduction(+:bad) schedule(static)
  for (long i = 0; i < n; i++)
    if (a[i] != i * 3 + 1)
      bad++;
  if (bad)
    {
      printf ("chunk first touch: %ld wrong values\n", bad);
      return 1;
    }
  printf ("chunk first touch ok\n");
  return 0;
}
