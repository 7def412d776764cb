/* Rank 0's main reads 0x1000f0000000: with the default segment (4 GiB,
   its last eighth for stacks) at 2 nodes, the first block of rank 1's
   stack part, the guard page below rank 1's first stack.  Not a stack
   overflow (no thread's stack pointer is near it) but a wild pointer,
   which rank 1, the block's home, refuses: the job ends naming the
   address.  */
/* ompc-nodes: 2x1 */
/* ompc-exit: 139 */
/* ompc-output: rank 0 thread 0: segmentation fault: address 0x1000f0000000 is not allocated shared memory \(wild pointer\?\) */
/* ompc-no-output: overflowed its stack */
/* ompc-no-output: not reached */
/* ompc-within: 15 */
/* ompc-timeout: 40 */
#include <stdio.h>

int
main (void)
{
  volatile char *g = (volatile char *) 0x1000f0000000UL;
  printf ("not reached: %d\n", g[0]);
  return 0;
}
