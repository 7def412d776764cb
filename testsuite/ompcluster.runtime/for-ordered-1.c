/* Loops with an ordered clause and static schedules (with and without a
   chunk size, long and unsigned long long): the ordered regions run in
   iteration order, also when some iterations skip them, within and across
   nodes (where the ordered regions also carry the shared data along).  */
/* ompc-nodes: 1 1x2 1x3 1x4 2x1 2x2 */
/* ompc-timeout: 180 */

#include <omp.h>
#include <stdio.h>

#define N 1003

int
main (void)
{
  int errors = 0;
  for (int k = 0; k < 4; k++)
    {
      int last = -1, bad = 0, count = 0;
      if (k == 0)
	{
#pragma omp parallel for ordered schedule(static)
	  for (int i = 0; i < N; i++)
#pragma omp ordered
	    {
	      bad += i != last + 1;
	      last = i;
	      count++;
	    }
	}
      else if (k == 1)
	{
#pragma omp parallel for ordered schedule(static, 2)
	  for (int i = 0; i < N; i++)
#pragma omp ordered
	    {
	      bad += i != last + 1;
	      last = i;
	      count++;
	    }
	}
      else if (k == 2)
	{
#pragma omp parallel for ordered schedule(static, 5)
	  for (unsigned long long i = 0; i < N; i++)
	    {
	      if (i % 3 == 1)
		continue;
#pragma omp ordered
	      {
		bad += (long long) i <= last;
		last = i;
		count++;
	      }
	    }
	  count += N / 3;	/* the skipped ones */
	}
      else
	{
#pragma omp parallel
	  {
#pragma omp for ordered schedule(static, 1) nowait
	    for (int i = N - 1; i >= 0; i--)
#pragma omp ordered
	      {
		bad += last != -1 && i != last - 1;
		last = i;
		count++;
	      }
	  }
	}
      if (bad || count != N)
	{
	  fprintf (stderr, "case %d: %d out of order, %d run\n", k, bad,
		   count);
	  errors++;
	}
    }
  return errors != 0;
}
