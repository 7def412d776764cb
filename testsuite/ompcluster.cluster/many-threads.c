/* Teams of well over 100 threads per node with the default settings: a
   region of 256 threads (128 per node at 2x1) where one thread makes
   tasks that every thread runs and each thread checks a local that
   another thread wrote through a pointer to its stack; then a nested
   case, 8 threads (4 per node at 2x1) each starting a team of 32.  With several
   nodes every worker's stack (8 MiB, the default) is in the node's stack
   area of the shared segment (OMPC_STACK_AREA, 4G a node).  */
/* ompc-nodes: 1 2x1 */
/* ompc-timeout: 120 */
#include <omp.h>
#include <stdio.h>

#define TEAM 256
#define OUTER 8
#define INNER 32

int
main (void)
{
  long sum = 0;
  int threads = 0, errors = 0;
  int *slots[TEAM];

#pragma omp parallel num_threads (TEAM) reduction (+:threads, errors)
  {
    int mine = -1, me = omp_get_thread_num ();
    threads++;
    if (omp_get_num_threads () != TEAM)
      errors++;
    slots[me] = &mine;
#pragma omp barrier
    /* Write the next thread's local through its address.  */
    *slots[(me + 1) % TEAM] = (me + 1) % TEAM;
#pragma omp barrier
    if (mine != me)
      errors++;
#pragma omp single
    for (int i = 0; i < 4000; i++)
#pragma omp task shared (sum)
      {
	volatile char frame[4096];
	frame[i % 4096] = (char) i;
#pragma omp atomic
	sum += i + frame[i % 4096] - (char) i;
      }
  }

  int inner_threads = 0;
  omp_set_max_active_levels (2);
#pragma omp parallel num_threads (OUTER) reduction (+:inner_threads, errors)
  {
    int outer = omp_get_thread_num ();
#pragma omp parallel num_threads (INNER) reduction (+:inner_threads, errors)
    {
      inner_threads++;
      if (omp_get_num_threads () != INNER || omp_get_level () != 2
	  || omp_get_ancestor_thread_num (1) != outer)
	errors++;
    }
  }

  printf ("%d threads, sum %ld, %d nested threads, %d errors\n", threads,
	  sum, inner_threads, errors);
  return threads != TEAM || sum != 3999L * 4000 / 2
    || inner_threads != OUTER * INNER || errors;
}
