/* OMP_PROC_BIND=close binds threads to places. */
/* ompc-compile: plain */
/* ompc-nodes: 1 */
/* ompc-env: OMP_PROC_BIND=close */
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
  CHECK (omp_get_proc_bind () == omp_proc_bind_close && omp_get_num_places () >= 1);
  int bad = 0;
#pragma omp parallel reduction(+:bad)
  bad += omp_get_place_num () < 0 || omp_get_place_num () >= omp_get_num_places ();
  CHECK (bad == 0);
  return errors != 0;
}
