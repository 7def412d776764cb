/* A construct the runtime does not support across nodes (here a dynamic
   unsigned long long loop of more than LONG_MAX iterations in a region
   spanning the nodes, whose global counter hands out iteration numbers
   in long): the job ends with "not supported", naming it, and a failure
   status; no rank is left waiting.  When such a loop works across nodes,
   pick another construct that still calls gomp_unsupported in cluster
   mode.  */
/* ompc-nodes: 2x1 2x2 */
/* ompc-exit: 1 */
/* ompc-output: fatal error: not supported: unsigned long long loop */
/* ompc-no-output: not reached */
/* ompc-within: 10 */
/* ompc-timeout: 20 */
#include <omp.h>
#include <stdio.h>

int a[64];

int
main (void)
{
  unsigned long long end = ~0ULL;
#pragma omp parallel for schedule(dynamic)
  for (unsigned long long i = 0; i < end; i++)
    if (i < 64)
      a[i] = i;
  printf ("not reached: %d\n", a[63]);
  return 0;
}
