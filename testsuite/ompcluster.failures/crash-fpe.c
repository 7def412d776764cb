/* An integer division by zero on a rank other than 0: SIGFPE, named with
   the rank and the faulting instruction; the job ends with status 136 and
   nothing is left running.  */
/* ompc-nodes: 2x1 2x2 */
/* ompc-exit: 136 */
/* ompc-output: rank 1: fatal signal SIGFPE at instruction 0x[0-9a-f]+; ending the job */
/* ompc-no-output: not reached */
/* ompc-within: 10 */
/* ompc-timeout: 20 */
#include <omp.h>
#include <stdio.h>

volatile int zero;

int
main (void)
{
  int sum = 0;
#pragma omp parallel reduction (+:sum)
  {
    if (omp_get_thread_num () == omp_get_num_threads () - 1)
      sum += 1 / zero;
  }
  printf ("not reached: %d\n", sum);
  return 0;
}
