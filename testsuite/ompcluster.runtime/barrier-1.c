/* Barriers: no thread passes before all arrive, repeatedly, with uneven
   work before them (spinning and sleeping waiters).  */
/* ompc-nodes: 1 1x2 1x3 1x4 2x1 2x2 3x1 */
/* ompc-timeout: 60 */

#include <omp.h>
#include <stdio.h>
#include <unistd.h>

int
main (void)
{
  int phase[64] = { 0 };
  int bad = 0;
#pragma omp parallel
  {
    int me = omp_get_thread_num (), n = omp_get_num_threads ();
    for (int r = 0; r < 300; r++)
      {
	if (r % 50 == me)
	  usleep (2000);		/* a late arriver, so others sleep */
	__atomic_store_n (&phase[me], r + 1, __ATOMIC_RELAXED);
#pragma omp barrier
	for (int i = 0; i < n; i++)
	  if (__atomic_load_n (&phase[i], __ATOMIC_RELAXED) < r + 1)
#pragma omp atomic
	    bad++;
#pragma omp barrier
      }
  }
  if (bad)
    {
      fprintf (stderr, "%d threads passed a barrier early\n", bad);
      return 1;
    }
  return 0;
}
