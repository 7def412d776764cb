/* Many locks at once: every thread takes pseudo-random locks among 8 and
   checks mutual exclusion (an owner word written and re-read inside) and
   the counts protected by each lock.  */
/* ompc-nodes: 1x2 2x1 2x2 3x1 */
/* ompc-timeout: 120 */
#include <omp.h>
#include <stdio.h>

#define LOCKS 8
#define ITERS 400
static omp_lock_t locks[LOCKS];
static long counts[LOCKS];
static int owner[LOCKS];
static int errors;

int
main (void)
{
  for (int i = 0; i < LOCKS; i++)
    omp_init_lock (&locks[i]);
  int team = 0;
#pragma omp parallel
  {
    int me = omp_get_thread_num ();
    unsigned x = 12345u + me * 7919u;
#pragma omp master
    team = omp_get_num_threads ();
    for (int i = 0; i < ITERS; i++)
      {
	x = x * 1103515245u + 12345u;
	int k = (x >> 16) % LOCKS;
	omp_set_lock (&locks[k]);
	owner[k] = me + 1;
	counts[k]++;
	for (volatile int d = 0; d < 100; d++)
	  ;
	if (owner[k] != me + 1)
	  {
#pragma omp atomic
	    errors++;
	  }
	owner[k] = 0;
	omp_unset_lock (&locks[k]);
      }
  }
  long total = 0;
  for (int i = 0; i < LOCKS; i++)
    total += counts[i];
  if (errors || total != (long) team * ITERS)
    {
      printf ("%d exclusion errors, %ld acquisitions, expected %ld\n", errors,
	      total, (long) team * ITERS);
      return 1;
    }
  printf ("OK %d threads\n", team);
  return 0;
}
