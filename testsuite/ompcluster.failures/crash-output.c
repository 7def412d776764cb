/* What a rank other than 0 printed before it died is not lost with the
   job: its output, which goes through rank 0 (OMPC_ORDERED_OUTPUT), is
   written straight out when the rank aborts.  */
/* ompc-nodes: 2x1 3x1 */
/* ompc-exit: 134 */
/* ompc-output: last words of thread [12] */
/* ompc-output: rank [12]: fatal signal SIGABRT */
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
    int t = omp_get_thread_num ();
    if (t == omp_get_num_threads () - 1)
      {
	printf ("last words of thread %d\n", t);
	abort ();
      }
#pragma omp barrier
  }
  printf ("not reached\n");
  return 0;
}
