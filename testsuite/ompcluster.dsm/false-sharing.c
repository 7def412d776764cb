/* One page written by every thread of every node at disjoint bytes (false
   sharing): the homes must merge byte-exact diffs, round after round.
   ompc-nodes: 1 1x2 2x1 2x2 3x1
   ompc-timeout: 120
   ompc-output: false sharing ok  */

#include <omp.h>
#include <stdio.h>

static unsigned char page[4096] __attribute__ ((aligned (4096)));
static unsigned char wide[3 * 4096 + 100];

int
main (void)
{
  int bad = 0;
  for (int round = 1; round <= 30; round++)
    {
#pragma omp parallel
      {
	int t = omp_get_thread_num (), n = omp_get_num_threads ();
	for (int i = t; i < 4096; i += n)
	  page[i] = (unsigned char) (i * 13 + round);
	for (int i = t; i < (int) sizeof wide; i += n)
	  wide[i] = (unsigned char) (i + round * 3);
#pragma omp barrier
	/* Every thread checks everybody's bytes after the barrier.  */
	for (int i = 0; i < 4096; i++)
	  if (page[i] != (unsigned char) (i * 13 + round))
	    {
#pragma omp atomic write
	      bad = round;
	    }
      }
      for (int i = 0; i < (int) sizeof wide; i++)
	if (wide[i] != (unsigned char) (i + round * 3))
	  bad = 1000 + round;
      if (bad)
	{
	  printf ("wrong byte in round %d\n", bad);
	  return 1;
	}
    }
  printf ("false sharing ok\n");
  return 0;
}
