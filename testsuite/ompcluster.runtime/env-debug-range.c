/* OMPC_DEBUG takes 0, 1, true or false: a larger number (here 2^32) is
   reported with the variable's name and what it takes, and ignored.  */
/* ompc-compile: plain */
/* ompc-nodes: 1 */
/* ompc-env: OMPC_DEBUG=4294967296 */
/* ompc-output: invalid value '4294967296' for environment variable OMPC_DEBUG \(expected 0, 1, true or false\) */
/* ompc-timeout: 60 */

#include <omp.h>
#include <stdio.h>

int
main (void)
{
  int n = 0;
#pragma omp parallel reduction(+:n)
  n++;
  return n < 1;
}
