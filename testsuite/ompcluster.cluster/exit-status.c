/* The job's exit status is main's, however many nodes; the program's
   output and its atexit handlers happen once.  */
/* ompc-nodes: 1 2x1 2x2 3x1 */
/* ompc-exit: 3 */
/* ompc-output: parallel part done */
/* ompc-output: atexit ran */
/* ompc-no-output: atexit ran.*atexit ran */
/* ompc-timeout: 60 */
#include <omp.h>
#include <stdio.h>
#include <stdlib.h>

static int count;

static void
bye (void)
{
  printf ("atexit ran\n");
}

int
main (void)
{
  atexit (bye);
#pragma omp parallel
  {
#pragma omp atomic
    count++;
  }
  printf ("parallel part done (%d)\n", count);
  return count == omp_get_max_threads () ? 3 : 1;
}
