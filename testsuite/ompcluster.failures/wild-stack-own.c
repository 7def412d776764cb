/* A worker thread of the last node (its stack lies in that node's part
   of the segment's stack area; a node's first thread runs on the
   process's own stack) reads its node's stack area where no thread's
   stack is, 128 MiB above its local: that node knows its stacks and ends
   the job naming the address.  */
/* ompc-nodes: 2x2 */
/* ompc-exit: 139 */
/* ompc-output: rank [12] thread [0-9]+: segmentation fault: address 0x[0-9a-f]+ is not allocated shared memory \(wild pointer\?\) */
/* ompc-no-output: overflowed its stack */
/* ompc-no-output: not reached */
/* ompc-within: 15 */
/* ompc-timeout: 40 */
#include <omp.h>
#include <stdio.h>

int
main (void)
{
  int sum = 0;
#pragma omp parallel reduction(+:sum)
  if (omp_get_thread_num () == omp_get_num_threads () - 1)
    {
      int y = 2;
      /* Opaque to the compiler, which would see the access out of Y.  */
      int *volatile hide = &y;
      volatile int *p = hide;
      sum += p[32 << 20];
    }
  printf ("not reached: %d\n", sum);
  return 0;
}
