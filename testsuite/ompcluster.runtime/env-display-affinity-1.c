/* OMP_DISPLAY_AFFINITY and OMP_AFFINITY_FORMAT. */
/* ompc-compile: plain */
/* ompc-nodes: 1 */
/* ompc-env: OMP_DISPLAY_AFFINITY=true OMP_AFFINITY_FORMAT=T%0.3n/%N */
/* ompc-output: T000/2 */
/* ompc-output: T001/2 */
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
  char buf[64];
  CHECK (omp_get_affinity_format (buf, sizeof buf) == 9);
#pragma omp parallel num_threads(2)
  ;
  omp_capture_affinity (buf, sizeof buf, "%{nesting_level}:%.4{num_threads}");
  CHECK (!strcmp (buf, "0:   1"));
  return errors != 0;
}
