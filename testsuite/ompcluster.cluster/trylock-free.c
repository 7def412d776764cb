/* omp_test_lock and omp_test_nest_lock on a free lock succeed even when
   the lock's token lies on another node (its home, or the node that used
   it last): threads take turns, one at a time, over locks homed on every
   node.  A busy lock still fails the try, and the holder keeps it.  */
/* ompc-nodes: 1 1x2 2x1 2x2 3x1 */
/* ompc-timeout: 60 */
#include <omp.h>
#include <stdio.h>

#define NLOCKS 16
static omp_lock_t locks[NLOCKS];
static omp_nest_lock_t nest[NLOCKS];
static int bad;

int
main (void)
{
  for (int i = 0; i < NLOCKS; i++)
    {
      omp_init_lock (&locks[i]);
      omp_init_nest_lock (&nest[i]);
    }
  /* The initial thread first: every token is still at its home.  */
  for (int i = 0; i < NLOCKS; i++)
    {
      if (!omp_test_lock (&locks[i]))
	bad++;
      else
	omp_unset_lock (&locks[i]);
      if (omp_test_nest_lock (&nest[i]) != 1
	  || omp_test_nest_lock (&nest[i]) != 2)
	bad++;
      omp_unset_nest_lock (&nest[i]);
      omp_unset_nest_lock (&nest[i]);
    }
#pragma omp parallel
  {
    int n = omp_get_num_threads ();
    for (int t = 0; t < n; t++)
      {
	/* Each thread in turn: every lock is free and its token is where
	   the previous thread (maybe on another node) left it.  */
	if (t == omp_get_thread_num ())
	  for (int i = 0; i < NLOCKS; i++)
	    {
	      if (!omp_test_lock (&locks[i]))
		{
#pragma omp atomic
		  bad++;
		}
	      else
		omp_unset_lock (&locks[i]);
	      if (omp_test_nest_lock (&nest[i]) != 1)
		{
#pragma omp atomic
		  bad++;
		}
	      else
		omp_unset_nest_lock (&nest[i]);
	    }
#pragma omp barrier
      }
    /* Thread 0 holds lock 0; every other thread's try must fail.  */
    if (omp_get_thread_num () == 0)
      omp_set_lock (&locks[0]);
#pragma omp barrier
    if (omp_get_thread_num () != 0 && omp_test_lock (&locks[0]))
      {
#pragma omp atomic
	bad++;
	omp_unset_lock (&locks[0]);
      }
#pragma omp barrier
    if (omp_get_thread_num () == 0)
      omp_unset_lock (&locks[0]);
  }
  if (bad)
    {
      printf ("%d tries failed on a free lock or succeeded on a held one\n",
	      bad);
      return 1;
    }
  printf ("OK\n");
  return 0;
}
