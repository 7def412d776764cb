/* With OMPC_ORDERED_OUTPUT=0 each rank's standard output goes to the
   launcher as it is, in no order between the ranks, but whole: every
   line of every thread of every node, and the serial code's lines; and
   no rank sends its output to rank 0 (no "output" call in OMPC_STATS).
   Not the lines a thread prints in a row after one another: stdout is
   line-buffered on every rank (cluster/module.c), each line its own
   write, and the launcher merges the ranks' lines as they arrive
   (README); at 3x1 through scripts/vcluster, rank 0's lines came
   between "thread 1 line 0" and "thread 1 line 1" in 2 launches of 10.
   ompc-nodes: 1 1x2 2x1 2x2 3x1
   ompc-env: OMPC_ORDERED_OUTPUT=0 OMPC_STATS=1
   ompc-output: (?n)^start$
   ompc-output: (?n)^thread 0 line 0$
   ompc-output: (?n)^thread 1 line 0$
   ompc-output: (?n)^thread 1 line 1$
   ompc-output: (?n)^thread 1 line 2$
   ompc-output: (?n)^lines 3 per thread, all threads done$
   ompc-no-output: (?n)^thread [0-9]+ line [0-9]+.
   ompc-no-output: calls by kind:.* output [0-9]
   ompc-timeout: 60  */

#include <omp.h>
#include <stdio.h>

int
main (void)
{
  int done = 0, nthreads = 0;
  printf ("start\n");
  fflush (stdout);
#pragma omp parallel reduction(+:done)
  {
    int t = omp_get_thread_num ();
    /* One printf per line: a thread's lines are one stream.  */
    if (t == 1)
      for (int i = 0; i < 3; i++)
	printf ("thread %d line %d\n", t, i);
#pragma omp barrier
    if (t == 0)
      printf ("thread %d line 0\n", t);
#pragma omp single
    nthreads = omp_get_num_threads ();
    done++;
  }
  printf ("lines 3 per thread, %s\n",
	  done == nthreads ? "all threads done" : "threads missing");
  return 0;
}
