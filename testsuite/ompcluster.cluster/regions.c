/* Many regions in a row, of every size: the whole team, fewer threads than
   nodes (inside rank 0), one thread, and nested regions inside each
   node's threads; each region checks its numbering and leaves a sum.  */
/* ompc-nodes: 1 1x2 2x1 2x2 3x1 */
/* ompc-timeout: 120 */
#include <omp.h>
#include <stdio.h>

static long sums[4];
static int errors;

int
main (void)
{
  int full = omp_get_max_threads ();
  omp_set_max_active_levels (2);
  for (int r = 0; r < 100; r++)
    {
      int sizes[3] = { full, 1, full > 1 ? full - 1 : 1 };
      for (int s = 0; s < 3; s++)
	{
	  long sum = 0;
#pragma omp parallel num_threads (sizes[s]) reduction (+:sum)
	  {
	    if (omp_get_num_threads () != sizes[s])
	      {
#pragma omp atomic
		errors++;
	      }
	    sum += omp_get_thread_num () + 1;
	  }
	  if (sum != (long) sizes[s] * (sizes[s] + 1) / 2)
	    {
	      printf ("region %d size %d: sum %ld\n", r, sizes[s], sum);
	      return 1;
	    }
	  sums[s] += sum;
	}
      if (r % 10 == 0)
	{
	  long nested = 0;
#pragma omp parallel reduction (+:nested)
	  {
	    int outer = omp_get_thread_num ();
#pragma omp parallel num_threads (2) reduction (+:nested)
	    {
	      if (omp_get_level () != 2 || omp_get_num_threads () != 2
		  || omp_get_ancestor_thread_num (1) != outer)
		{
#pragma omp atomic
		  errors++;
		}
	      nested += 1;
	    }
	  }
	  if (nested != 2L * full)
	    {
	      printf ("nested: %ld, expected %ld\n", nested, 2L * full);
	      return 1;
	    }
	}
    }
  if (errors)
    {
      printf ("%d numbering errors\n", errors);
      return 1;
    }
  printf ("OK %d threads\n", full);
  return 0;
}
