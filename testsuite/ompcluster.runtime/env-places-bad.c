/* A bad OMP_PLACES is reported by name and ignored. */
/* ompc-compile: plain */
/* ompc-nodes: 1 */
/* ompc-env: OMP_PLACES={0 */
/* ompc-output: OMP_PLACES */
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
  CHECK (omp_get_proc_bind () == omp_proc_bind_false);
  return errors != 0;
}
