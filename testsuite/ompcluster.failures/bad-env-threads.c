/* OMP_NUM_THREADS=-3 and OMP_SCHEDULE=foo at two nodes: one node would
   ignore them (as GCC's libgomp does); several nodes refuse to start,
   rank 0 naming each variable once.  */
/* ompc-nodes: 2x1 */
/* ompc-run: OMP_NUM_THREADS=-3 OMP_SCHEDULE=foo %build/bin/ompcrun -n %nodes %exe */
/* ompc-exit: 1 */
/* ompc-output: invalid value '-3' for environment variable OMP_NUM_THREADS */
/* ompc-output: invalid value 'foo' for environment variable OMP_SCHEDULE */
/* ompc-output: fatal error: 2 environment variables above have an invalid value: fix them before running on 2 nodes */
/* ompc-no-output: OMP_NUM_THREADS(.|\n)*OMP_NUM_THREADS */
/* ompc-no-output: ran with */
/* ompc-within: 10 */
/* ompc-timeout: 20 */
#include <stdio.h>

int
main (void)
{
  int n = 0;
#pragma omp parallel reduction (+:n)
  n++;
  printf ("ran with %d threads\n", n);
  return 0;
}
