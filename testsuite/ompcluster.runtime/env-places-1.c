/* OMP_PLACES=threads: one place per processor, binding on. */
/* ompc-compile: plain */
/* ompc-nodes: 1 */
/* ompc-env: OMP_PLACES=threads */
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
  CHECK (omp_get_num_places () == omp_get_num_procs ());
  CHECK (omp_get_proc_bind () == omp_proc_bind_true);
  for (int p = 0; p < omp_get_num_places (); p++)
    CHECK (omp_get_place_num_procs (p) == 1);
  int bad = 0;
#pragma omp parallel reduction(+:bad)
  bad += omp_get_place_num () < 0;
  CHECK (bad == 0);
  return errors != 0;
}
