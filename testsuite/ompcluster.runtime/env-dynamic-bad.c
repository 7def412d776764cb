/* A bad OMP_DYNAMIC is reported by name and ignored. */
/* ompc-compile: plain */
/* ompc-nodes: 1 */
/* ompc-env: OMP_DYNAMIC=yes */
/* ompc-output: OMP_DYNAMIC */
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
  CHECK (omp_get_dynamic () == 0);
  return errors != 0;
}
