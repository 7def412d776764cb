/* OMP_TARGET_OFFLOAD=MANDATORY: the host device runs target regions, a
   device that does not exist stops the program.  */
/* ompc-compile: plain */
/* ompc-nodes: 1 1x2 */
/* ompc-options: -foffload=disable */
/* ompc-env: OMP_TARGET_OFFLOAD=mandatory */
/* ompc-exit: 1 */
/* ompc-output: host ran 1 */
/* ompc-output: OMP_TARGET_OFFLOAD is set to MANDATORY, but device 3 not found */
/* ompc-no-output: device 3 ran */
#include <stdio.h>

int
main (void)
{
  int x = 0;
  #pragma omp target map(tofrom: x)
  x = 1;
  printf ("host ran %d\n", x);
  fflush (stdout);
  #pragma omp target device(3) map(tofrom: x)
  x = 2;
  printf ("device 3 ran %d\n", x);
  return 0;
}
