/* omp flush across nodes: the first thread publishes data then a flag,
   each followed by a flush; the last thread (on the last node) waits for
   the flag with flushes and must then read the data (OpenMP 5.1 section
   1.4.4's flush-based synchronisation).  */
/* ompc-nodes: 1x2 2x1 3x1 */
/* ompc-timeout: 60 */
#include <omp.h>
#include <stdio.h>

static int data[1024];
static int flag;

int
main (void)
{
  int bad = 0;
#pragma omp parallel
  {
    int me = omp_get_thread_num (), n = omp_get_num_threads ();
    for (int round = 1; round <= 20; round++)
      {
	if (me == 0)
	  {
	    for (int i = 0; i < 1024; i++)
	      data[i] = round * 1000 + i;
#pragma omp flush
	    flag = round;
#pragma omp flush
	  }
	else if (me == n - 1)
	  {
	    int f;
	    do
	      {
#pragma omp flush
		f = flag;
	      }
	    while (f < round);
#pragma omp flush
	    for (int i = 0; i < 1024; i++)
	      if (data[i] != round * 1000 + i)
		bad = 1;
	  }
#pragma omp barrier
      }
  }
  if (bad)
    {
      printf ("stale data after a flush\n");
      return 1;
    }
  printf ("OK\n");
  return 0;
}
