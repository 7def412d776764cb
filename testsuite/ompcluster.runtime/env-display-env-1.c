/* OMP_DISPLAY_ENV=true prints the variables (not the verbose ones). */
/* ompc-compile: plain */
/* ompc-nodes: 1 */
/* ompc-env: OMP_DISPLAY_ENV=true OMP_NUM_THREADS=3,2 */
/* ompc-output: OPENMP DISPLAY ENVIRONMENT BEGIN */
/* ompc-output: OMP_NUM_THREADS = '3,2' */
/* ompc-output: OMP_SCHEDULE = 'DYNAMIC,1' */
/* ompc-output: OPENMP DISPLAY ENVIRONMENT END */
/* ompc-no-output: GOMP_SPINCOUNT */
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
  CHECK (omp_get_max_threads () >= 1);
  return errors != 0;
}
