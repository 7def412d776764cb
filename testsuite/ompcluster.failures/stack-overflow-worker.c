/* A worker thread of rank 1 overflows its stack (endless recursion): the
   workers' stacks live in the shared segment with a guard page below
   each, so the fault is inside the segment but not the DSM's to serve;
   the DSM names the guard page and OMP_STACKSIZE and aborts the job
   (status 134, SIGABRT), and nothing is left running.  */
/* ompc-nodes: 2x2 */
/* ompc-env: OMP_STACKSIZE=1M */
/* ompc-exit: 134 */
/* ompc-output: rank 1: dsm: a thread overflowed its stack in the shared segment \(it hit the guard page\); raise OMP_STACKSIZE */
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
