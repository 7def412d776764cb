/* A flag whose home is a third node.  The first thread runs ahead on its
   own: in step K it writes K into data[K % B], flushes, sets the flag to
   K and flushes again.  The second spins on flush(flag) and checks that
   data[F % B] holds at least the F it read from the flag.  The flag's
   block is homed on the third node, the data on the first.  A flush of
   the second node prefetches the flag's block from the third node, which
   may already hold a later release of the first node than the one the
   flush acquired; the catch-up that follows must acquire that release
   too (cluster/pull.c), or the data of the flag's step may be read
   stale.  That race made NPB LU wrong at 3 x 1 about once in four runs;
   this test checks the same shape, but did not hit that race on the
   2-core development machine before its fix.  */
/* ompc-nodes: 1x3 2x2 3x1 */
#include <omp.h>
#include <stdio.h>

#define STEPS 4000
#define N 512
#define B 4
static int data[B][N] __attribute__ ((aligned (4096)));
static int flag __attribute__ ((aligned (4096)));
static int done __attribute__ ((aligned (4096)));

int
main (void)
{
  long bad = 0, seen = 0;
#pragma omp parallel num_threads(3) reduction(+:bad, seen)
  {
    int t = omp_get_thread_num ();
    /* First touches: the data on the first thread's node, the flag on
       the third's.  */
    if (t == 0)
      for (int i = 0; i < N; i++)
	for (int b = 0; b < B; b++)
	  data[b][i] = -1;
    if (t == omp_get_num_threads () - 1)
      {
	flag = 0;
	done = 0;
      }
#pragma omp barrier
    if (omp_get_num_threads () == 3)
      {
	if (t == 0)
	  {
	    for (int k = 1; k <= STEPS; k++)
	      {
		for (int i = 0; i < N; i++)
		  data[k % B][i] = k;
#pragma omp flush
		flag = k;
#pragma omp flush
	      }
	  }
	else if (t == 1)
	  {
	    int last = 0;
	    while (last < STEPS)
	      {
		int f;
#pragma omp flush
		f = flag;
#pragma omp flush
		if (f == last)
		  continue;
		for (int i = 0; i < N; i++)
		  if (data[f % B][i] < f)
		    {
		      if (bad < 5)
			printf ("flag %d, data[%d][%d] = %d\n", f, f % B, i,
				data[f % B][i]);
		      bad++;
		      break;
		    }
		seen++;
		last = f;
	      }
#pragma omp atomic write
	    done = 1;
	  }
	else
	  {
	    /* The flag's home: it waits on a word homed here too.  */
	    int d = 0;
	    while (!d)
	      {
#pragma omp atomic read
		d = done;
	      }
	  }
      }
  }
  printf ("%ld checks, %ld stale\n", seen, bad);
  return bad != 0 || seen == 0;
}
