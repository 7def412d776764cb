/* A parallel region: team size, unique thread numbers, the thread pool
   reused across many regions, num_threads and if clauses, and the old
   GOMP_parallel_start/end pair through a combined parallel loop.  */
/* ompc-nodes: 1 1x1 1x2 1x3 1x4 2x1 2x2 3x1 */
/* ompc-timeout: 60 */

#include <omp.h>
#include <stdio.h>
#include <stdlib.h>

int
main (void)
{
  int max = omp_get_max_threads ();
  int seen[64] = { 0 };
  int size = 0;

  if (omp_in_parallel () || omp_get_num_threads () != 1
      || omp_get_thread_num () != 0 || omp_get_level () != 0)
    abort ();
#pragma omp parallel
  {
#pragma omp atomic
    seen[omp_get_thread_num ()]++;
    if (omp_get_thread_num () == 0)
      size = omp_get_num_threads ();
    if (!omp_in_parallel () && omp_get_num_threads () > 1)
      abort ();
    if (omp_get_level () != 1)
      abort ();
  }
  if (size != max)
    {
      fprintf (stderr, "team of %d, expected %d\n", size, max);
      return 1;
    }
  for (int i = 0; i < 64; i++)
    if (seen[i] != (i < size))
      {
	fprintf (stderr, "thread %d ran %d times\n", i, seen[i]);
	return 1;
      }

  /* Many regions: the threads are reused.  */
  long total = 0;
  for (int r = 0; r < 200; r++)
    {
#pragma omp parallel reduction(+:total)
      total += omp_get_thread_num () + 1;
    }
  if (total != 200L * size * (size + 1) / 2)
    {
      fprintf (stderr, "total %ld\n", total);
      return 1;
    }

  /* num_threads, and teams of changing sizes.  */
  for (int n = 1; n <= 5; n++)
    {
      int got = 0;
#pragma omp parallel num_threads(n)
#pragma omp atomic
      got++;
      if (got != n)
	{
	  fprintf (stderr, "num_threads(%d) gave %d\n", n, got);
	  return 1;
	}
    }

  /* if(false): one thread.  */
  int one = 0;
#pragma omp parallel if (one)
  if (omp_get_num_threads () != 1)
    abort ();

  /* omp_set_num_threads changes the next regions.  */
  omp_set_num_threads (3);
  if (omp_get_max_threads () != 3)
    abort ();
  int three = 0;
#pragma omp parallel
#pragma omp atomic
  three++;
  if (three != 3)
    abort ();
  return 0;
}
