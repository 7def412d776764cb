/* OMPC_SEGMENT_SIZE below the smallest segment two nodes start in, or
   past what 64 bits hold once its unit is applied, is reported with the
   variable's name and its range (on one node it is then ignored; the
   segment is used by several nodes only).  */
/* ompc-compile: plain */
/* ompc-nodes: 1 */
/* ompc-env: OMPC_SEGMENT_SIZE=17179869184G */
/* ompc-output: invalid value '17179869184G' for environment variable OMPC_SEGMENT_SIZE \(expected size\[K\|M\|G\], 64M to 16T\) */
/* ompc-timeout: 60 */

#include <omp.h>

int
main (void)
{
  int n = 0;
#pragma omp parallel reduction(+:n)
  n++;
  return n < 1;
}
