/* OMP_NESTED=true allows nested active regions. */
/* ompc-compile: plain */
/* ompc-nodes: 1 */
/* ompc-env: OMP_NESTED=true */
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
  CHECK (omp_get_nested () == 1 && omp_get_max_active_levels () > 1);
  return errors != 0;
}
