/* OMP_PROC_BIND lists set bind-var per level (and nesting). */
/* ompc-compile: plain */
/* ompc-nodes: 1 */
/* ompc-env: OMP_PROC_BIND=spread,close */
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
  CHECK (omp_get_proc_bind () == omp_proc_bind_spread);
  int bad = 0;
#pragma omp parallel num_threads(2) reduction(+:bad)
  bad += omp_get_proc_bind () != omp_proc_bind_close;
  CHECK (bad == 0);
  return errors != 0;
}
