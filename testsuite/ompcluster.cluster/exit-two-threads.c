/* Two threads of the last node call exit() at the same moment.  glibc
   2.36 does not serialise exit(): the second thread used to run the exit
   handlers left and end the process while the first was ending the job,
   and hydra reported the rank as killed (signal 9) instead of the
   status, about once in 16 runs at 2x2.  */
/* ompc-nodes: 1x2 2x2 */
/* ompc-exit: 5 */
/* ompc-no-output: BAD TERMINATION|not reached */
/* ompc-timeout: 30 */
#include <omp.h>
#include <stdio.h>
#include <stdlib.h>

int
main (void)
{
#pragma omp parallel
  {
    if (omp_get_thread_num () >= omp_get_num_threads () - 2)
      exit (5);
#pragma omp barrier
  }
  printf ("not reached\n");
  return 0;
}
