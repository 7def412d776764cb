/* More thread stacks than a node's stack area holds (OMPC_STACK_AREA at
   its minimum, 64M, and a team of 64 threads per node of 8 MiB stacks):
   the job ends at once with a message that names the stack area, how
   many stacks it holds and the two variables to change.  */
/* ompc-nodes: 2x1 */
/* ompc-env: OMPC_STACK_AREA=64M */
/* ompc-exit: 1 */
/* ompc-output: dsm: the stack area of this node is full: [0-9]+ thread stacks use */
/* ompc-output: raise OMPC_STACK_AREA \(each node's, now 64 MiB */
/* ompc-output: or lower OMP_STACKSIZE */
/* ompc-no-output: ran with */
/* ompc-within: 15 */
/* ompc-timeout: 30 */
#include <stdio.h>

int
main (void)
{
  int n = 0;
#pragma omp parallel num_threads (128) reduction (+:n)
  n++;
  printf ("ran with %d threads\n", n);
  return 0;
}
