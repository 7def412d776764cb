/* A bad OMP_DISPLAY_ENV is reported by name and ignored. */
/* ompc-compile: plain */
/* ompc-nodes: 1 */
/* ompc-env: OMP_DISPLAY_ENV=loud */
/* ompc-output: OMP_DISPLAY_ENV */
/* ompc-no-output: DISPLAY ENVIRONMENT BEGIN */
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
