/* OMP_NUM_THREADS past what an int holds (2^32 would wrap to 0 in 32
   bits, 2^31 to a negative omp_get_max_threads) is reported with the
   variable's name and its range, and ignored: the default stays.  */
/* ompc-compile: plain */
/* ompc-nodes: 1 */
/* ompc-env: OMP_NUM_THREADS=4,4294967296 */
/* ompc-output: invalid value '4,4294967296' for environment variable OMP_NUM_THREADS \(expected list of integers, 1 to 2147483647\) */
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
