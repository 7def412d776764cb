/* Rank 1's initial thread overflows its stack (endless recursion).  It
   serves regions on a stack in the shared segment as big as the stack
   limit (ulimit -s), so that other nodes can address its locals, with a
   guard page below: the DSM names the guard page and the stack limit and
   aborts the job (status 134, SIGABRT), and nothing is left running.
   stack-overflow-worker.c: a worker thread.  */
/* ompc-nodes: 2x1 */
/* ompc-exit: 134 */
/* ompc-output: rank 1: dsm: a thread overflowed its stack in the shared segment \(it hit the guard page\); raise OMP_STACKSIZE or the stack limit */
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
