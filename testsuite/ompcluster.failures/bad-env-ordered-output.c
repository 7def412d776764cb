/* An invalid OMPC_ORDERED_OUTPUT at several nodes: rank 0 names the
   variable and what it expects, once, and the job fails before it
   starts.  */
/* ompc-nodes: 2x1 3x1 */
/* ompc-env: OMPC_ORDERED_OUTPUT=sometimes */
/* ompc-exit: 1 */
/* ompc-output: invalid value 'sometimes' for environment variable OMPC_ORDERED_OUTPUT \(expected 0, 1, true or false\) */
/* ompc-output: fatal error: 1 environment variable above has an invalid value: fix it before running on [23] nodes */
/* ompc-no-output: sometimes(.|\n)*sometimes */
/* ompc-no-output: ran with */
/* ompc-within: 10 */
/* ompc-timeout: 20 */
#include <stdio.h>

int
main (void)
{
  int n = 0;
#pragma omp parallel reduction (+:n)
  n++;
  printf ("ran with %d threads\n", n);
  return 0;
}
