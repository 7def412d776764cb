/* A lock, an unnamed and a named critical section handed between nodes
   thousands of times; the data they protect lives in shared memory.  Then
   the threads take strict turns under the lock.  */
/* ompc-nodes: 1 1x2 2x1 2x2 3x1 */
/* ompc-timeout: 120 */
#include <omp.h>
#include <stdio.h>

#define ITERS 500
#define TURNS 50
static omp_lock_t lock;
static long by_lock, by_critical, by_named;
static long history[3 * ITERS * 8];
static int hist_len;
static int turn;

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
    /* Strict turns: thread T may only take its turn after thread T-1, so
       the lock goes round every node TURNS times; the threads that wait
       keep taking the lock (they must not lock the others out).  */
    int me = omp_get_thread_num (), n = omp_get_num_threads ();
    for (int i = 0; i < TURNS; i++)
      for (int done = 0; !done;)
	{
	  omp_set_lock (&lock);
	  if (turn % n == me)
	    {
	      turn++;
	      done = 1;
	    }
	  omp_unset_lock (&lock);
	}
  }
  omp_destroy_lock (&lock);
  if (turn != team * TURNS)
    {
      printf ("%d turns, expected %d\n", turn, team * TURNS);
      return 1;
    }
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
