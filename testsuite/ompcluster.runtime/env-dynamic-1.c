/* OMP_DYNAMIC=true. */
/* ompc-compile: plain */
/* ompc-nodes: 1 */
/* ompc-env: OMP_DYNAMIC=true */
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
  CHECK (omp_get_dynamic () == 1);
  int n = 0;
#pragma omp parallel num_threads(64)
#pragma omp atomic
  n++;
  CHECK (n >= 1 && n <= omp_get_num_procs ());
  return errors != 0;
}
