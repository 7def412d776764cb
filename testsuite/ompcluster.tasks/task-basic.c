/* Explicit tasks: creation, taskwait, recursion (fib), shared and
   firstprivate data, final and if(0) tasks, omp_in_final.  */
/* ompc-compile: plain */
/* ompc-nodes: 1 1x2 1x4 */
/* ompc-timeout: 60 */
#include <omp.h>
#include <stdio.h>
#include <stdlib.h>

static int
fib (int n)
{
  int a, b;
  if (n < 2)
    return n;
  #pragma omp task shared(a) if(n > 12)
  a = fib (n - 1);
  #pragma omp task shared(b) if(n > 12)
  b = fib (n - 2);
  #pragma omp taskwait
  return a + b;
}

int
main (void)
{
  int bad = 0;
  int r = 0;
  #pragma omp parallel
  #pragma omp single
  r = fib (25);
  if (r != 75025)
    {
      printf ("fib (25) = %d\n", r);
      bad = 1;
    }

  /* Every thread creates tasks; the region's barrier waits for them.  */
  int count = 0;
  #pragma omp parallel
  {
    for (int i = 0; i < 1000; i++)
      {
	#pragma omp task firstprivate(i)
	{
	  if (i < 0)
	    abort ();
	  #pragma omp atomic
	  count++;
	}
      }
  }
  if (count != 1000 * omp_get_max_threads ())
    {
      printf ("count = %d, expected %d\n", count,
	      1000 * omp_get_max_threads ());
      bad = 1;
    }

  /* final: descendants are final and included.  */
  int in_final = 0, not_final = 0;
  #pragma omp parallel
  #pragma omp single
  {
    #pragma omp task final(1)
    {
      if (omp_in_final ())
	in_final++;
      #pragma omp task
      if (omp_in_final ())
	in_final++;
    }
    #pragma omp task
    if (!omp_in_final ())
      not_final++;
    #pragma omp taskwait
  }
  if (in_final != 2 || not_final != 1)
    {
      printf ("in_final %d not_final %d\n", in_final, not_final);
      bad = 1;
    }

  /* Tasks outside any parallel region run at once.  */
  int x = 0;
  #pragma omp task shared(x)
  x = 42;
  if (x != 42)
    {
      printf ("orphaned task did not run at once\n");
      bad = 1;
    }

  /* A task's ICV changes stay inside it.  */
  int inner = 0, outer = omp_get_max_threads ();
  #pragma omp parallel
  #pragma omp single
  {
    int before = omp_get_max_threads ();
    #pragma omp task shared(inner)
    {
      omp_set_num_threads (before + 3);
      inner = omp_get_max_threads () - before;
    }
    #pragma omp taskwait
    if (omp_get_max_threads () != before)
      inner = -1;
  }
  if (inner != 3 || omp_get_max_threads () != outer)
    {
      printf ("ICV in task: %d\n", inner);
      bad = 1;
    }
  return bad;
}
