/* exit() on a rank other than 0 cannot end the job in step: it ends it at
   once with that status, saying so.  */
/* ompc-nodes: 2x1 2x2 3x1 */
/* ompc-exit: 6 */
/* ompc-output: rank [12]: exit\(6\) called on a rank other than 0 */
/* ompc-no-output: not reached */
/* ompc-timeout: 30 */
#include <omp.h>
#include <stdio.h>
#include <stdlib.h>

int
main (void)
{
#pragma omp parallel
  {
    if (omp_get_thread_num () == omp_get_num_threads () - 1)
      exit (6);
#pragma omp barrier
  }
  printf ("not reached\n");
  return 0;
}
