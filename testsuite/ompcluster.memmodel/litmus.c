/* Litmus tests across nodes, each run many times: store buffering with
   seq_cst atomics (both threads must not read 0), write-to-read causality
   through three threads (acquire/release chain: the third must see the
   first's data).  Threads are the first and last of
   the team, so with several nodes they sit on different nodes.  */
/* ompc-nodes: 1x2 2x1 3x1 */
/* ompc-timeout: 120 */
#include <omp.h>
#include <stdio.h>

static int x, y, wdata;
static int r[4];
static int wflag, wflag2;

int
main (void)
{
  int fails = 0;
  for (int it = 0; it < 40; it++)
    {
      x = y = 0;
      wdata = wflag = wflag2 = 0;
#pragma omp parallel
      {
	int t = omp_get_thread_num (), n = omp_get_num_threads ();
	int a = 0, b = n - 1, c = n / 2;
	/* Store buffering.  */
	if (t == a)
	  {
	    __atomic_store_n (&x, 1, __ATOMIC_SEQ_CST);
	    r[0] = __atomic_load_n (&y, __ATOMIC_SEQ_CST);
	  }
	else if (t == b)
	  {
	    __atomic_store_n (&y, 1, __ATOMIC_SEQ_CST);
	    r[1] = __atomic_load_n (&x, __ATOMIC_SEQ_CST);
	  }
#pragma omp barrier
	/* Write-to-read causality: a writes data and releases wflag; c
	   acquires it and releases wflag2; b acquires wflag2 and reads.  */
	if (t == a)
	  {
	    wdata = 42 + it;
	    __atomic_store_n (&wflag, 1, __ATOMIC_RELEASE);
	  }
	else if (t == c && c != b)
	  {
	    while (!__atomic_load_n (&wflag, __ATOMIC_ACQUIRE))
	      ;
	    __atomic_store_n (&wflag2, 1, __ATOMIC_RELEASE);
	  }
	if (t == b)
	  {
	    if (c != b)
	      while (!__atomic_load_n (&wflag2, __ATOMIC_ACQUIRE))
		;
	    else
	      while (!__atomic_load_n (&wflag, __ATOMIC_ACQUIRE))
		;
	    r[2] = wdata;
	  }
      }
      if (r[0] == 0 && r[1] == 0)
	{
	  printf ("iteration %d: store buffering saw 0 and 0\n", it);
	  fails++;
	}
      if (r[2] != 42 + it)
	{
	  printf ("iteration %d: causality broken, data %d\n", it, r[2]);
	  fails++;
	}
    }
  return fails != 0;
}
