/* OMP_PLACES with an explicit list: the place holds processor 0. */
/* ompc-compile: plain */
/* ompc-nodes: 1 */
/* ompc-env: OMP_PLACES={0}:1 */
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
  CHECK (omp_get_num_places () == 1 && omp_get_place_num_procs (0) == 1);
  int id = -1;
  omp_get_place_proc_ids (0, &id);
  CHECK (id == 0);
  int bad = 0;
#pragma omp parallel num_threads(2) reduction(+:bad)
  bad += omp_get_place_num () != 0 || omp_get_partition_num_places () != 1;
  CHECK (bad == 0);
  return errors != 0;
}
