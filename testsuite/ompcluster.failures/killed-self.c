/* A rank that dies of SIGKILL (as from the OOM killer) inside a region
   cannot say anything itself: the launcher ends the job within 10 s with
   the signal's number as status and says which process was killed; nothing
   is left running.  */
/* ompc-nodes: 2x1 3x1 */
/* ompc-exit: 9 */
/* ompc-output: signal 9 */
/* ompc-no-output: not reached */
/* ompc-within: 10 */
/* ompc-timeout: 20 */
#include <omp.h>
#include <signal.h>
#include <stdio.h>

int
main (void)
{
#pragma omp parallel
  {
    if (omp_get_thread_num () == omp_get_num_threads () - 1)
      raise (SIGKILL);
#pragma omp barrier
  }
  printf ("not reached\n");
  return 0;
}
