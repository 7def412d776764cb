/* num_threads(10000) at one node creates the 10000 threads, as GCC's
   libgomp does (two tests of SOLLVE V&V need it): each counts itself and
   its thread number, and meets the others at a barrier.  Thousands of
   threads on a few processors: waiters sleep after a few polls instead
   of handing the processor round (wait.h).  */
/* ompc-nodes: 1 */
/* ompc-timeout: 120 */
#include <omp.h>
#include <stdio.h>

#define N 10000

int
main (void)
{
  int n = 0, wrong = 0;
  long ids = 0;
#pragma omp parallel num_threads (N) reduction (+:n, ids, wrong)
  {
    n++;
    ids += omp_get_thread_num ();
#pragma omp barrier
    if (omp_get_num_threads () != N)
      wrong++;
  }
  printf ("%d threads, ids %ld, %d wrong\n", n, ids, wrong);
  return n != N || ids != (long) (N - 1) * N / 2 || wrong;
}
