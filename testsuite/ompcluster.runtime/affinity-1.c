/* Thread affinity (OpenMP 5.1 section 2.6.2) on four places made of the
   processors 0 and 1 twice: primary, close and spread policies from the
   proc_bind clause, place partitions of spread teams, and a nested close
   team inside a spread partition.  */
/* ompc-compile: plain */
/* ompc-nodes: 1 */
/* ompc-env: OMP_PLACES={0},{1},{0},{1} OMP_PROC_BIND=spread,close OMP_NUM_THREADS=2,2 */
/* ompc-timeout: 60 */

#include <omp.h>
#include <stdio.h>

static int errors;
#define CHECK(c) \
  do { if (!(c)) { fprintf (stderr, "line %d: %s\n", __LINE__, #c); \
		   __atomic_add_fetch (&errors, 1, __ATOMIC_RELAXED); } } while (0)

int
main (void)
{
  if (omp_get_num_procs () < 2)
    return 0;	/* the places need processors 0 and 1 */
  CHECK (omp_get_num_places () == 4);
  CHECK (omp_get_partition_num_places () == 4);

#pragma omp parallel num_threads(4) proc_bind(primary)
  CHECK (omp_get_place_num () == 0);

#pragma omp parallel num_threads(4) proc_bind(close)
  CHECK (omp_get_place_num () == omp_get_thread_num ());

  /* spread: two subpartitions of two places.  */
#pragma omp parallel
  {
    int t = omp_get_thread_num ();
    CHECK (omp_get_num_threads () == 2);
    CHECK (omp_get_place_num () == 2 * t);
    CHECK (omp_get_partition_num_places () == 2);
    int nums[4] = { -1, -1, -1, -1 };
    omp_get_partition_place_nums (nums);
    CHECK (nums[0] == 2 * t && nums[1] == 2 * t + 1);
    /* Nested: bind-var is close at level 1, inside the partition.  */
#pragma omp parallel
    {
      CHECK (omp_get_proc_bind () == omp_proc_bind_close);
      CHECK (omp_get_place_num () == 2 * t + omp_get_thread_num ());
    }
  }
  return errors != 0;
}
