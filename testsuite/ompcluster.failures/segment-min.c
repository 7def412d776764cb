/* The smallest OMPC_SEGMENT_SIZE the table accepts starts two nodes of
   one thread each with the default stacks, and the program runs.  */
/* ompc-nodes: 2x1 */
/* ompc-env: OMPC_SEGMENT_SIZE=64M */
/* ompc-output: ran with 2 threads */
/* ompc-no-output: invalid value */
/* ompc-timeout: 60 */
#include <stdio.h>

int
main (void)
{
  int n = 0;
#pragma omp parallel reduction (+:n)
  n++;
  printf ("ran with %d threads\n", n);
  return n != 2;
}
