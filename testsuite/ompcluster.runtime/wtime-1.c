/* omp_get_wtime advances with the wall clock; omp_get_wtick is small.  */
/* ompc-compile: plain */
/* ompc-nodes: 1 */

#include <omp.h>
#include <stdio.h>
#include <unistd.h>

int
main (void)
{
  double t0 = omp_get_wtime ();
  usleep (100000);
  double d = omp_get_wtime () - t0;
  double tick = omp_get_wtick ();
  if (d < 0.09 || d > 5 || tick <= 0 || tick > 0.01)
    {
      fprintf (stderr, "elapsed %f tick %g\n", d, tick);
      return 1;
    }
  return 0;
}
