/* critical (unnamed and named), and GOMP_atomic_start/end (GCC uses them
   for long double atomics and several reductions at once): mutual
   exclusion under contention.  */
/* ompc-nodes: 1 1x2 1x3 1x4 2x1 2x2 3x1 */
/* ompc-timeout: 60 */

#include <omp.h>
#include <stdio.h>

int
main (void)
{
  long a = 0, b = 0, c = 0;
  long double ld = 0;
  int inside = 0, overlap = 0;
  double x = 0, y = 0;
#pragma omp parallel reduction(+:x, y)
  {
    for (int i = 0; i < 500; i++)
      {
#pragma omp critical
	{
	  if (inside++)
	    overlap++;
	  a++;
	  inside--;
	}
#pragma omp critical (other)
	b += 2;
#pragma omp critical (third)
	c += 3;
#pragma omp atomic
	ld += 1.0L;
	x += 1;
	y += 2;
      }
  }
  int n = omp_get_max_threads ();
  if (overlap || a != 500L * n || b != 1000L * n || c != 1500L * n
      || ld != 500.0L * n || x != 500.0 * n || y != 1000.0 * n)
    {
      fprintf (stderr, "overlap %d a %ld b %ld c %ld ld %Lf x %f y %f\n",
	       overlap, a, b, c, ld, x, y);
      return 1;
    }
  return 0;
}
