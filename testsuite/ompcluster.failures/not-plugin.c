/* A program compiled without the plugin cannot share its memory: started
   on several nodes it refuses to run, saying how to rebuild it, once
   (not once per rank), and the job fails at once.  */
/* ompc-compile: plain */
/* ompc-nodes: 2x1 3x1 */
/* ompc-exit: 1 */
/* ompc-output: not compiled with the ompcluster plugin */
/* ompc-output: rebuild it with ompcc */
/* ompc-no-output: ran with */
/* ompc-no-output: not compiled with(.|\n)*not compiled with */
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
