/* Rank 0's serial main reads its own arena where nothing was ever
   allocated (256 MiB past a fresh block): rank 0 knows its high-water
   mark and ends the job naming the address.  */
/* ompc-nodes: 2x1 3x1 */
/* ompc-exit: 139 */
/* ompc-output: rank 0 thread 0: segmentation fault: address 0x[0-9a-f]+ is not allocated shared memory \(wild pointer\?\) */
/* ompc-no-output: not reached */
/* ompc-within: 15 */
/* ompc-timeout: 40 */
#include <omp.h>
#include <stdio.h>
#include <stdlib.h>

int
main (void)
{
  char *volatile hide = malloc (100);
  volatile char *q = hide;
  q[0] = 1;
  printf ("not reached: %d\n", q[256 << 20]);
  return 0;
}
