/* A team larger than a node's barrier can count (16382 threads per
   node): the runtime says so, naming its limit and what to ask for
   instead, before it creates any thread; GCC's libgomp would create
   them.  */
/* ompc-nodes: 1 */
/* ompc-exit: 1 */
/* ompc-output: fatal error: a team of 20000 threads on one node is more than this runtime supports \(16382 threads per node */
/* ompc-output: ask for fewer \(num_threads clause, OMP_NUM_THREADS\) */
/* ompc-no-output: ran with */
/* ompc-within: 10 */
/* ompc-timeout: 30 */
#include <stdio.h>

int
main (void)
{
  int n = 0;
#pragma omp parallel num_threads (20000) reduction (+:n)
  n++;
  printf ("ran with %d threads\n", n);
  return 0;
}
