/* A bad OMP_STACKSIZE is reported by name and ignored. */
/* ompc-compile: plain */
/* ompc-nodes: 1 */
/* ompc-env: OMP_STACKSIZE=12Q */
/* ompc-output: OMP_STACKSIZE */
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
  int n = 0;
#pragma omp parallel num_threads(2)
#pragma omp atomic
  n++;
  CHECK (n == 2);
  return errors != 0;
}
