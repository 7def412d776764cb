/* OMP_SCHEDULE sets run-sched-var. */
/* ompc-compile: plain */
/* ompc-nodes: 1 */
/* ompc-env: OMP_SCHEDULE=guided,4 */
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
  omp_sched_t k; int c;
  omp_get_schedule (&k, &c);
  CHECK (k == omp_sched_guided && c == 4);
  return errors != 0;
}
