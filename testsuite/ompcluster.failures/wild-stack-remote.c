/* A wild pointer from main's local into the unused part of rank 0's
   stack area (p = &x; p[1 << 24], 64 MiB above), read by a thread of the
   last node: rank 0, the home of that stack area, answers that the block
   holds nothing, and the reading rank ends the job naming the address,
   its rank and thread, as a segmentation fault; nothing is left running.
   (One node: the process's own stack, a plain SIGSEGV.)  */
/* ompc-nodes: 2x1 2x2 3x1 */
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
  int x = 1;
  /* Opaque to the compiler, which would see the access out of X.  */
  int *volatile hide = &x;
  volatile int *p = hide;
  int sum = 0;
#pragma omp parallel reduction(+:sum)
  if (omp_get_thread_num () == omp_get_num_threads () - 1)
    sum += p[1 << 24];
  printf ("not reached: %d\n", sum);
  return 0;
}
