/* OMP_NUM_THREADS one past the largest int is reported with the
   variable's name and its range, and ignored: the default stays.  */
/* ompc-compile: plain */
/* ompc-nodes: 1 */
/* ompc-env: OMP_NUM_THREADS=2147483648 */
/* ompc-output: invalid value '2147483648' for environment variable OMP_NUM_THREADS \(expected list of integers, 1 to 2147483647\) */
/* ompc-timeout: 60 */

#include <omp.h>
#include <stdio.h>

int
main (void)
{
  if (omp_get_max_threads () != omp_get_num_procs ())
    {
      printf ("max threads %d, not the default %d\n", omp_get_max_threads (),
	      omp_get_num_procs ());
      return 1;
    }
  return 0;
}
