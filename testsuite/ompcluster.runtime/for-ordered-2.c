/* Loops with an ordered clause and dynamic, guided and runtime schedules
   (long and unsigned long long), within and across nodes: the ordered
   regions run in iteration order, also when some iterations skip them,
   and every iteration runs once.  */
/* ompc-nodes: 1 1x2 1x3 2x1 2x2 */
/* ompc-timeout: 180 */

#include <omp.h>
#include <stdio.h>

#define N 500

int
main (void)
{
  int errors = 0;
  omp_set_schedule (omp_sched_dynamic, 2);
  for (int k = 0; k < 4; k++)
    {
      int next = 0, bad = 0, count = 0, iters = 0;
      if (k == 0)
	{
#pragma omp parallel for ordered schedule(dynamic, 3) reduction(+:iters)
	  for (int i = 0; i < N; i++)
	    {
	      iters++;
#pragma omp ordered
	      {
		bad += next++ != i;
		count++;
	      }
	    }
	}
      else if (k == 1)
	{
#pragma omp parallel for ordered schedule(guided) reduction(+:iters)
	  for (long i = 0; i < N; i++)
	    {
	      iters++;
	      if (i % 2)
		continue;
#pragma omp ordered
	      {
		bad += next != i;
		next = i + 2;
		count += 2;
	      }
	    }
	}
      else if (k == 2)
	{
#pragma omp parallel for ordered schedule(runtime) reduction(+:iters)
	  for (unsigned long long i = 0; i < N; i++)
	    {
	      iters++;
#pragma omp ordered
	      {
		bad += (unsigned long long) next++ != i;
		count++;
	      }
	    }
	}
      else
	{
	  next = N - 1;
#pragma omp parallel for ordered schedule(dynamic) reduction(+:iters)
	  for (int i = N - 1; i >= 0; i--)
	    {
	      iters++;
#pragma omp ordered
	      {
		bad += next-- != i;
		count++;
	      }
	    }
	}
      if (bad || count != N || iters != N)
	{
	  fprintf (stderr, "case %d: %d out of order, %d ordered, %d run\n",
		   k, bad, count, iters);
	  errors++;
	}
    }
  return errors != 0;
}
