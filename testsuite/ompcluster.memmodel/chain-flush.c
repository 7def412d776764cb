/* A chain of flag hand-offs through three nodes in NPB LU's form: the
   first thread writes data and sets flag1 with a flush; the second spins
   on flush(flag1), then sets flag2 with a flush; the third spins on
   flush(flag2) and reads the data at once.  The flushes are ordered, so
   the third must see the first's data even when its flush asked the
   first node before that node's release and the second node after it
   (cluster/pull.c: an answer names what its node had seen).  */
/* ompc-nodes: 1x3 2x2 3x1 */
#include <omp.h>
#include <stdio.h>

#define N 512
#define ITERS 1000
static int data[N] __attribute__ ((aligned (4096)));
static volatile int flag1 __attribute__ ((aligned (4096)));
static volatile int flag2 __attribute__ ((aligned (4096)));
static volatile int ack __attribute__ ((aligned (4096)));

int
main (void)
{
  long bad = 0;
#pragma omp parallel num_threads(3) reduction(+:bad)
  {
    int t = omp_get_thread_num ();
    if (omp_get_num_threads () == 3)
      for (int it = 1; it <= ITERS; it++)
	{
	  if (t == 0)
	    {
	      while (ack != it - 1)
		{
#pragma omp flush
		}
	      for (int i = 0; i < N; i++)
		data[i] = it;
#pragma omp flush
	      flag1 = it;
#pragma omp flush
	    }
	  else if (t == 1)
	    {
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
  printf ("stale values: %ld\n", bad);
  return bad != 0;
}
