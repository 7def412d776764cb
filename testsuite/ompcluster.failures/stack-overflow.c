/* Rank 1's initial thread overflows its stack (endless recursion): it
   runs on the process's own stack, outside the shared segment, so the
   crash handler must call it a stack overflow (the faulting address next
   to the stack pointer), not memory that is not shared; the job ends with
   status 139 and nothing is left running.  stack-overflow-worker.c: a
   worker thread, whose stack is in the shared segment.  */
/* ompc-nodes: 2x1 */
/* ompc-exit: 139 */
/* ompc-output: rank 1: fatal signal SIGSEGV at address 0x[0-9a-f]+, just below the thread's stack pointer 0x[0-9a-f]+: a stack overflow .*raise the stack limit \(ulimit -s\) */
/* ompc-no-output: not shared */
/* ompc-no-output: not reached */
/* ompc-within: 15 */
/* ompc-timeout: 40 */
#include <omp.h>
#include <stdio.h>

static int
deep (int n)
{
  volatile char frame[512];
  frame[0] = (char) n;
  return deep (n + 1) + frame[0];
}

int
main (void)
{
  int r = 0;
#pragma omp parallel reduction(+ : r)
  {
    if (omp_get_thread_num () == omp_get_num_threads () - 1)
      r += deep (0);
  }
  printf ("not reached %d\n", r);
  return 0;
}
