/* OMP_MAX_ACTIVE_LEVELS wins over OMP_NESTED. */
/* ompc-compile: plain */
/* ompc-nodes: 1 */
/* ompc-env: OMP_MAX_ACTIVE_LEVELS=2 OMP_NESTED=false */
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
  CHECK (omp_get_max_active_levels () == 2);
  int n = 0;
#pragma omp parallel num_threads(2)
#pragma omp parallel num_threads(2)
#pragma omp parallel num_threads(2)
#pragma omp atomic
  n++;
  CHECK (n == 4);
  return errors != 0;
}
