/* OMP_NUM_THREADS with a list: nested levels get the next values and nesting is on. */
/* ompc-compile: plain */
/* ompc-nodes: 1 */
/* ompc-env: OMP_NUM_THREADS=3,2 */
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
  int n = 0;
#pragma omp parallel
  {
    CHECK (omp_get_max_threads () == 2);
#pragma omp parallel
#pragma omp atomic
    n++;
  }
  CHECK (n == 6 && omp_get_max_active_levels () > 1);
  return errors != 0;
}
