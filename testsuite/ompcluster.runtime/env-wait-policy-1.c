/* OMP_WAIT_POLICY=passive: waiting threads sleep at once. */
/* ompc-compile: plain */
/* ompc-nodes: 1 */
/* ompc-env: OMP_WAIT_POLICY=passive */
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
  for (int r = 0; r < 500; r++)
    {
#pragma omp parallel num_threads(3) reduction(+:s)
      {
#pragma omp barrier
        s++;
      }
    }
  CHECK (s == 1500);
  return errors != 0;
}
