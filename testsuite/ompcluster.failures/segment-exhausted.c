/* The shared heap runs out (a small OMPC_SEGMENT_SIZE and a malloc loop):
   a fatal error names OMPC_SEGMENT_SIZE and the job ends, on every
   rank.  */
/* ompc-nodes: 2x1 2x2 */
/* ompc-env: OMPC_SEGMENT_SIZE=256M */
/* ompc-exit: 1 */
/* ompc-output: rank 0: dsm: the shared heap of this node is exhausted */
/* ompc-output: raise OMPC_SEGMENT_SIZE */
/* ompc-no-output: not reached */
/* ompc-within: 10 */
/* ompc-timeout: 20 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int
main (void)
{
  for (int i = 0; i < 1000; i++)
    {
      char *p = malloc (1 << 20);
      if (!p)
	{
	  printf ("malloc returned NULL after %d MiB, without a message\n", i);
	  return 3;
	}
      memset (p, 1, 4096);
    }
  printf ("not reached\n");
  return 0;
}
