/* exit() called by the initial thread, deep inside the program, ends the
   job with its status on every node.  */
/* ompc-nodes: 1 2x1 2x2 3x1 */
/* ompc-exit: 4 */
/* ompc-output: leaving */
/* ompc-timeout: 60 */
#include <omp.h>
#include <stdio.h>
#include <stdlib.h>

static void __attribute__ ((noinline))
leave (int depth)
{
  if (depth == 0)
    {
      printf ("leaving\n");
      exit (4);
    }
  leave (depth - 1);
}

int
main (void)
{
  int n = 0;
#pragma omp parallel reduction (+:n)
  n++;
  leave (n > 0 ? 10 : 0);
  return 0;
}
