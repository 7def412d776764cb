/* GOMP_SPINCOUNT with a factor. */
/* ompc-compile: plain */
/* ompc-nodes: 1 */
/* ompc-env: GOMP_SPINCOUNT=10k OMP_DISPLAY_ENV=verbose */
/* ompc-output: GOMP_SPINCOUNT = '10000' */
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
  long s = 0;
#pragma omp parallel num_threads(3) reduction(+:s)
  s++;
  CHECK (s == 3);
  return errors != 0;
}
