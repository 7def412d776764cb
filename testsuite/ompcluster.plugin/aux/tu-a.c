/* multi-tu.sh: the first of two translation units sharing a named
   critical section, a -fcommon variable and a global.  */
#include <stdio.h>

int common_var;			/* tentative: common with -fcommon */
int total;
extern void add_in_b (int);

int
main (void)
{
  int n = 0;
#pragma omp parallel reduction(+ : n)
  {
    n++;
    for (int i = 0; i < 1000; i++)
      {
#pragma omp critical(shared_name)
	{
	  total++;
	  common_var += 2;
	}
	add_in_b (1);
      }
  }
  if (total != 2000 * n || common_var != 4000 * n)
    {
      printf ("total %d common_var %d with %d threads\n", total, common_var,
	      n);
      return 1;
    }
  return 0;
}
