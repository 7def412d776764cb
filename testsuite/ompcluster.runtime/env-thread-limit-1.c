/* OMP_THREAD_LIMIT caps the threads of regions. */
/* ompc-compile: plain */
/* ompc-nodes: 1 */
/* ompc-env: OMP_THREAD_LIMIT=2 */
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
  CHECK (omp_get_thread_limit () == 2);
  int n = 0;
#pragma omp parallel num_threads(4)
#pragma omp atomic
  n++;
  CHECK (n == 2);
  return errors != 0;
}
