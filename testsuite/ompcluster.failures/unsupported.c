/* A construct the runtime does not support across nodes (here a doacross
   loop, ordered depend, in a region spanning the nodes): the job ends with
   "not supported", naming it, and a failure status; no rank is left
   waiting.  When doacross loops work across nodes, pick another
   construct that still calls gomp_unsupported in cluster mode.  */
/* ompc-nodes: 2x1 2x2 */
/* ompc-exit: 1 */
/* ompc-output: fatal error: not supported: doacross loops */
/* ompc-no-output: not reached */
/* ompc-within: 10 */
/* ompc-timeout: 20 */
#include <stdio.h>

int a[64];

int
main (void)
{
#pragma omp parallel
#pragma omp for ordered(1)
  for (int i = 1; i < 64; i++)
    {
#pragma omp ordered depend(sink: i - 1)
      a[i] = a[i - 1] + 1;
#pragma omp ordered depend(source)
    }
  printf ("not reached: %d\n", a[63]);
  return 0;
}
