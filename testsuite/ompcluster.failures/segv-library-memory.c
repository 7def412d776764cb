/* Memory a library not compiled with the plugin allocated with its own
   malloc (here libc's open_memstream, 1 MiB: libc maps it with mmap) is
   not shared: the rank that reads it in a region faults, and the message
   gives the address, says it is not mapped there, and names the likely
   causes.  */
/* ompc-nodes: 2x1 2x2 */
/* ompc-exit: 139 */
/* ompc-output: rank 1: fatal signal SIGSEGV at address 0x[0-9a-f]+, in memory that is not shared and not mapped on this rank: .*a library not compiled with the plugin */
/* ompc-no-output: not reached */
/* ompc-within: 10 */
/* ompc-timeout: 20 */
#include <omp.h>
#include <stdio.h>

int
main (void)
{
  char *buf;
  size_t len;
  FILE *f = open_memstream (&buf, &len);
  if (!f)
    return 2;
  for (int i = 0; i < (1 << 20) / 8; i++)
    fputs ("library", f);
  fclose (f);
  int sum = 0;
#pragma omp parallel reduction (+:sum)
  {
    if (omp_get_thread_num () == omp_get_num_threads () - 1)
      for (size_t i = 0; i < len; i += 4096)
	sum += buf[i];
  }
  printf ("not reached: %d\n", sum);
  return 0;
}
