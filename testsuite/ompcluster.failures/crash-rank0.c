/* A crash on rank 0 (main's rank) in the serial part, while the other
   ranks wait for a region, ends them too, naming rank 0 and the signal.  */
/* ompc-nodes: 2x1 2x2 */
/* ompc-exit: 139 */
/* ompc-output: rank 0: fatal signal SIGSEGV at address 0x8 */
/* ompc-no-output: not reached */
/* ompc-within: 10 */
/* ompc-timeout: 20 */
#include <stdio.h>

int
main (void)
{
  int n = 0;
#pragma omp parallel reduction (+:n)
  n++;
  volatile int *p = (int *) 8;
  *p = n;
  printf ("not reached\n");
  return 0;
}
