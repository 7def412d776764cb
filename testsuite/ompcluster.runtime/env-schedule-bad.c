/* A bad OMP_SCHEDULE (chunk 0) is reported by name and ignored. */
/* ompc-compile: plain */
/* ompc-nodes: 1 */
/* ompc-env: OMP_SCHEDULE=static,0 */
/* ompc-output: OMP_SCHEDULE */
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
  CHECK (k == omp_sched_dynamic);
  return errors != 0;
}
