/* A lock, an unnamed and a named critical section handed between nodes
   thousands of times; the data they protect lives in shared memory.  */
/* ompc-nodes: 1 1x2 2x1 2x2 3x1 */
/* ompc-timeout: 120 */
#include <omp.h>
#include <stdio.h>

#define ITERS 1000
static omp_lock_t lock;
static long by_lock, by_critical, by_named;
static long history[3 * ITERS * 8];
static int hist_len;

int
main (void)
{
  int team = 0;
  omp_init_lock (&lock);
#pragma omp parallel
  {
#pragma omp master
    team = omp_get_num_threads ();
    for (int i = 0; i < ITERS; i++)
      {
	omp_set_lock (&lock);
	long v = by_lock;
	by_lock = v + 1;
	omp_unset_lock (&lock);
#pragma omp critical
	{
	  by_critical += 2;
	  if (hist_len < (int) (sizeof history / sizeof history[0]))
	    history[hist_len++] = omp_get_thread_num ();
	}
#pragma omp critical (named)
	by_named += 3;
      }
  }
  omp_destroy_lock (&lock);
  if (by_lock != (long) team * ITERS || by_critical != 2L * team * ITERS
      || by_named != 3L * team * ITERS)
    {
      printf ("lock %ld critical %ld named %ld, expected %ld %ld %ld\n",
	      by_lock, by_critical, by_named, (long) team * ITERS,
	      2L * team * ITERS, 3L * team * ITERS);
      return 1;
    }
  /* Count how often the critical section changed hands.  */
  int handoffs = 0;
  for (int i = 1; i < hist_len; i++)
    handoffs += history[i] != history[i - 1];
  printf ("OK %d threads, %d hand-offs\n", team, handoffs);
  return 0;
}
