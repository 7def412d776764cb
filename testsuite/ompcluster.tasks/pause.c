/* omp_pause_resource ends the idle threads (their threadprivate data
   goes with them) and fails inside a parallel region.  */
/* ompc-compile: plain */
/* ompc-nodes: 1 1x2 1x4 */
#include <omp.h>
#include <stdio.h>

static int t = 1;
#pragma omp threadprivate(t)

int
main (void)
{
  int bad = 0, inside = 0;
  #pragma omp parallel
  t = 2;
  #pragma omp parallel reduction(+: inside)
  inside += omp_pause_resource (omp_pause_soft, omp_get_initial_device ()) != -1;
  if (inside)
    bad = 1;
  if (omp_pause_resource (omp_pause_soft, omp_get_initial_device ()) != 0
      || omp_pause_resource_all (omp_pause_hard) != 0)
    bad = 1;
  int fresh = 0;
  #pragma omp parallel reduction(+: fresh)
  fresh += omp_get_thread_num () != 0 && t == 1;
  if (fresh != omp_get_max_threads () - 1)
    {
      printf ("threads after pause: %d fresh\n", fresh);
      bad = 1;
    }
  return bad;
}
