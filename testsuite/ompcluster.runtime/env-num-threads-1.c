/* OMP_NUM_THREADS (one value): the size of regions. */
/* ompc-compile: plain */
/* ompc-nodes: 1 */
/* ompc-env: OMP_NUM_THREADS=3 */
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
#pragma omp atomic
  n++;
  CHECK (omp_get_max_threads () == 3 && n == 3);
  return errors != 0;
}
