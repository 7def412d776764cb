/* sections: each section runs exactly once, in loops of regions, with
   nowait, combined parallel sections, and more sections than threads.  */
/* ompc-nodes: 1 1x2 1x3 1x4 2x1 2x2 3x1 */
/* ompc-timeout: 60 */

#include <omp.h>
#include <stdio.h>

int
main (void)
{
  int s[8] = { 0 }, t[3] = { 0 };
  for (int r = 0; r < 30; r++)
    {
#pragma omp parallel
      {
#pragma omp sections
	{
#pragma omp section
	  s[0]++;
#pragma omp section
	  s[1]++;
#pragma omp section
	  s[2]++;
#pragma omp section
	  s[3]++;
#pragma omp section
	  s[4]++;
	}
#pragma omp sections nowait
	{
	  s[5]++;
#pragma omp section
	  s[6]++;
	}
      }
#pragma omp parallel sections
      {
	t[0]++;
#pragma omp section
	t[1]++;
#pragma omp section
	t[2]++;
      }
    }
  int lp = -1;
#pragma omp parallel sections lastprivate(lp)
  {
    lp = 1;
#pragma omp section
    lp = 2;
  }
  for (int i = 0; i < 7; i++)
    if (s[i] != 30)
      {
	fprintf (stderr, "section %d ran %d times\n", i, s[i]);
	return 1;
      }
  for (int i = 0; i < 3; i++)
    if (t[i] != 30)
      {
	fprintf (stderr, "parallel section %d ran %d times\n", i, t[i]);
	return 1;
      }
  if (lp != 2)
    {
      fprintf (stderr, "lastprivate %d\n", lp);
      return 1;
    }
  return 0;
}
