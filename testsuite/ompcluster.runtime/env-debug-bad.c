/* A bad OMPC_DEBUG is reported by name. */
/* ompc-compile: plain */
/* ompc-nodes: 1 */
/* ompc-env: OMPC_DEBUG=maybe */
/* ompc-output: OMPC_DEBUG */
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
