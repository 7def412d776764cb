/* A construct the runtime does not support across nodes (here cancel
   parallel in a region spanning the nodes): the job ends with "not
   supported", naming it, and a failure status; no rank is left waiting.
   When cancelling such a region works across nodes, pick another
   construct that still calls gomp_unsupported in cluster mode.  */
/* ompc-nodes: 2x1 2x2 */
/* ompc-env: OMP_CANCELLATION=true */
/* ompc-exit: 1 */
/* ompc-output: fatal error: not supported: cancel parallel */
/* ompc-no-output: not reached */
/* ompc-within: 10 */
/* ompc-timeout: 20 */
#include <omp.h>
#include <stdio.h>

int a[64];

int
main (void)
{
#pragma omp parallel
  {
    if (omp_get_thread_num () == omp_get_num_threads () - 1)
      {
#pragma omp cancel parallel
      }
#pragma omp for
    for (int i = 1; i < 64; i++)
      a[i] = i;
  }
  printf ("not reached: %d\n", a[63]);
  return 0;
}
