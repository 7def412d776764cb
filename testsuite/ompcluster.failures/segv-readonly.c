/* A write into memory every rank maps but that is not shared (a string
   literal in the program's read-only data): the message names the mapping
   and its permissions and says it is not shared.  */
/* ompc-nodes: 2x1 */
/* ompc-exit: 139 */
/* ompc-output: rank 1: fatal signal SIGSEGV at address 0x[0-9a-f]+, in memory that is not shared: \S*segv-readonly.exe \(r--p\) */
/* ompc-no-output: not reached */
/* ompc-within: 10 */
/* ompc-timeout: 20 */
#include <omp.h>
#include <stdio.h>

static char *volatile text = "read-only";

int
main (void)
{
#pragma omp parallel
  {
    if (omp_get_thread_num () == omp_get_num_threads () - 1)
      text[0] = 'R';
#pragma omp barrier
  }
  printf ("not reached\n");
  return 0;
}
