/* abort() on a rank other than 0, inside a region, ends the whole job
   within 10 s with the shell's status for SIGABRT, naming the rank and the
   signal; no rank, proxy or mpiexec is left running.  */
/* ompc-nodes: 2x1 3x1 */
/* ompc-exit: 134 */
/* ompc-output: rank [12]: fatal signal SIGABRT */
/* ompc-no-output: not reached */
/* ompc-within: 10 */
/* ompc-timeout: 20 */
#include <omp.h>
#include <stdio.h>
#include <stdlib.h>

int
main (void)
{
#pragma omp parallel
  {
    if (omp_get_thread_num () == omp_get_num_threads () - 1)
      abort ();
#pragma omp barrier
  }
  printf ("not reached\n");
  return 0;
}
