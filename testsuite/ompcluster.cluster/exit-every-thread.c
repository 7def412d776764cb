/* Every thread of every node calls exit() at the same moment.  Only rank
   0 may end the job with MPI_Abort (the other ranks ask it to): when two
   ranks aborted together, hydra sometimes reported a signal (9 or 1,
   "BAD TERMINATION") instead of the status.  The job must end with the
   status, once, and nothing after the exit() may run.  */
/* ompc-nodes: 2x2 3x2 */
/* ompc-exit: 7 */
/* ompc-no-output: BAD TERMINATION|signal|not reached|did not end the job */
/* ompc-timeout: 30 */
#include <omp.h>
#include <stdio.h>
#include <stdlib.h>

int
main (void)
{
#pragma omp parallel
  {
#pragma omp barrier
    exit (7);
  }
  printf ("not reached\n");
  return 0;
}
