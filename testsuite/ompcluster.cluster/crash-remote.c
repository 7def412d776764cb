/* A crash on a rank other than 0, inside a region, ends the whole job at
   once with the signal's status, naming the rank (hydra alone would not
   end a multi-host job whose rank died without MPI_Abort).  */
/* ompc-nodes: 2x1 2x2 3x1 */
/* ompc-exit: 139 */
/* ompc-output: rank [12]: fatal signal SIGSEGV at address 0x10 */
/* ompc-no-output: not reached */
/* ompc-timeout: 30 */
#include <omp.h>
#include <stdio.h>

int
main (void)
{
#pragma omp parallel
  {
    if (omp_get_thread_num () == omp_get_num_threads () - 1)
      {
	volatile int *p = (int *) 16;
	*p = 1;
      }
#pragma omp barrier
  }
  printf ("not reached\n");
  return 0;
}
