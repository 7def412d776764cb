/* A bad OMP_NUM_THREADS is reported by name and ignored. */
/* ompc-compile: plain */
/* ompc-nodes: 1 */
/* ompc-env: OMP_NUM_THREADS=0,2 */
/* ompc-output: OMP_NUM_THREADS */
/* ompc-timeout: 60 */

#include <omp.h>
#include <stdio.h>
#include <string.h>

static int errors;
#define CHECK(c) \
  do { if (!(c)) { fprintf (stderr, "line %d: %s\n", __LINE__, #c); errors++; } } while (0)

int
main (void)
{
  CHECK (omp_get_max_threads () == omp_get_num_procs ());
  return errors != 0;
}
