/* A bad OMP_THREAD_LIMIT is reported by name and ignored. */
/* ompc-compile: plain */
/* ompc-nodes: 1 */
/* ompc-env: OMP_THREAD_LIMIT=0 */
/* ompc-output: OMP_THREAD_LIMIT */
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
  CHECK (omp_get_thread_limit () > 1000);
  return errors != 0;
}
