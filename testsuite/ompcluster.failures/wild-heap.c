/* A read of the shared heap where nothing was ever allocated, 256 MiB
   past a fresh block of rank 0's arena, by a thread of the last node:
   rank 0, the arena's owner and the manager of its blocks, refuses the
   block, and the reading rank ends the job naming the address, as a
   segmentation fault.  wild-heap-local.c: rank 0 itself reads.  */
/* ompc-nodes: 2x1 2x2 3x1 */
/* ompc-exit: 139 */
/* ompc-output: rank [12] thread [0-9]+: segmentation fault: address 0x[0-9a-f]+ is not allocated shared memory \(wild pointer\?\) */
/* ompc-no-output: not reached */
/* ompc-within: 15 */
/* ompc-timeout: 40 */
#include <omp.h>
#include <stdio.h>
#include <stdlib.h>

int
main (void)
{
  char *volatile hide = malloc (100);
  volatile char *q = hide;
  q[0] = 1;
  int sum = 0;
#pragma omp parallel reduction(+:sum)
  if (omp_get_thread_num () == omp_get_num_threads () - 1)
    sum += q[256 << 20];
  printf ("not reached: %d\n", sum);
  return 0;
}
