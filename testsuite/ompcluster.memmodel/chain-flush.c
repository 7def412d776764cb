/* A chain of flag hand-offs through three nodes in NPB LU's form: the
   first thread writes data and sets flag1 with a flush; the second spins
   on flush(flag1), then sets flag2 with a flush; the third spins on
   flush(flag2) and reads the data at once.  The flushes are ordered, so
   the third must see the first's data even when its flush asked the
   first node before that node's release and the second node after it
   (cluster/pull.c: an answer names what its node had acquired).  The
   same again with the first hand-off through a lock instead of a flag:
   what the second node acquired through the lock's token counts.  */
/* ompc-nodes: 1x3 2x2 3x1 */
#include <omp.h>
#include <stdio.h>

#define N 512
#define ITERS 1000
static int data[N] __attribute__ ((aligned (4096)));
static volatile int flag1 __attribute__ ((aligned (4096)));
static volatile int flag2 __attribute__ ((aligned (4096)));
static volatile int ack __attribute__ ((aligned (4096)));
static int hop __attribute__ ((aligned (4096)));
static omp_lock_t lock;

int
main (void)
{
  long bad = 0;
  omp_init_lock (&lock);
  for (int via_lock = 0; via_lock < 2; via_lock++)
#pragma omp parallel num_threads(3) reduction(+:bad)
  {
    int t = omp_get_thread_num ();
    /* The lock's hand-offs cost more: fewer of them.  */
    int base = via_lock * ITERS, end = base + (via_lock ? ITERS / 4 : ITERS);
    if (omp_get_num_threads () == 3)
      for (int it = base + 1; it <= end; it++)
	{
	  if (t == 0)
	    {
	      while (ack != it - 1)
		{
#pragma omp flush
		}
	      for (int i = 0; i < N; i++)
		data[i] = it;
	      if (via_lock)
		{
		  omp_set_lock (&lock);
		  hop = it;
		  omp_unset_lock (&lock);
		}
	      else
		{
#pragma omp flush
		  flag1 = it;
#pragma omp flush
		}
	    }
	  else if (t == 1)
	    {
	      if (via_lock)
		for (int h = 0; h != it;)
		  {
		    omp_set_lock (&lock);
		    h = hop;
		    omp_unset_lock (&lock);
		  }
	      else
		while (flag1 != it)
		  {
#pragma omp flush
		  }
	      flag2 = it;
#pragma omp flush
	    }
	  else
	    {
	      while (flag2 != it)
		{
#pragma omp flush
		}
	      for (int i = 0; i < N; i++)
		bad += data[i] != it;
	      ack = it;
#pragma omp flush
	    }
	}
  }
  omp_destroy_lock (&lock);
  printf ("stale values: %ld\n", bad);
  return bad != 0;
}
