/* Memory that is not shared (here from mmap, as a library not compiled
   with the plugin would allocate it) handed to a region: the rank that
   touches it faults outside the segment; the message gives the address,
   says it is not shared and what is, and the job ends.  */
/* ompc-nodes: 2x1 3x1 */
/* ompc-exit: 139 */
/* ompc-output: rank [12]: fatal signal SIGSEGV at address 0x[0-9a-f]+, in memory that is not shared and not mapped on this rank */
/* ompc-output: only the program's globals, the heap */
/* ompc-no-output: not reached */
/* ompc-within: 10 */
/* ompc-timeout: 20 */
#include <omp.h>
#include <stdio.h>
#include <sys/mman.h>

int
main (void)
{
  int *private_mem = mmap (NULL, 1 << 20, PROT_READ | PROT_WRITE,
			   MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
  if (private_mem == MAP_FAILED)
    return 2;
  private_mem[1000] = 42;
  int sum = 0;
#pragma omp parallel reduction (+:sum)
  {
    if (omp_get_thread_num () == omp_get_num_threads () - 1)
      sum += private_mem[1000];
  }
  printf ("not reached: %d\n", sum);
  return 0;
}
