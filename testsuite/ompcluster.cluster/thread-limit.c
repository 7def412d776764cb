/* OMP_THREAD_LIMIT across nodes: the contention group of the initial
   thread spans the nodes, so nested regions that run inside different
   nodes must together stay within the limit (each node runs its share).
   A counter of the threads inside the innermost region (atomics on a
   shared variable) must never pass the limit.  */
/* ompc-nodes: 1 1x2 2x1 2x2 3x1 */
/* ompc-env: OMP_THREAD_LIMIT=4 OMP_MAX_ACTIVE_LEVELS=3 */
/* ompc-timeout: 60 */
#include <omp.h>
#include <stdio.h>
#include <unistd.h>

static int cnt, most;

int
main (void)
{
  if (omp_get_thread_limit () != 4)
    {
      printf ("thread limit %d, expected 4\n", omp_get_thread_limit ());
      return 1;
    }
  omp_set_dynamic (0);
  for (int rep = 0; rep < 3; rep++)
    {
#pragma omp parallel num_threads(3)
#pragma omp parallel num_threads(3)
      {
	int v;
#pragma omp atomic capture
	v = ++cnt;
	int m;
#pragma omp atomic read
	m = most;
	while (v > m
	       && !__atomic_compare_exchange_n (&most, &m, v, 0,
						__ATOMIC_SEQ_CST,
						__ATOMIC_SEQ_CST))
	  ;
	usleep (20000);
#pragma omp atomic
	--cnt;
      }
    }
  if (most > 4)
    {
      printf ("%d threads ran at once, more than OMP_THREAD_LIMIT=4\n", most);
      return 1;
    }
  printf ("OK, at most %d threads at once\n", most);
  return 0;
}
