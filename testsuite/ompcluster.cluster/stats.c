/* OMPC_STATS=1: every node prints at exit its regions, barriers and the
   time in them, lock acquisitions (local/remote), messages and bytes, and
   the DSM's counters, and what its calls to other nodes asked for (the
   page of the critical section's counter, the diffs of its writes) with the
   time waited for each kind; without it nothing is printed.  */
/* ompc-nodes: 2x1 3x1 */
/* ompc-env: OMPC_STATS=1 */
/* ompc-output: rank 0: regions 2, barriers [0-9]+ \([0-9.]+ ms in them */
/* ompc-output: rank 1: regions 2, barriers [0-9]+ \([0-9.]+ ms in them, [0-9.]+ us each\), locks [0-9]+ local / [1-9][0-9]* remote */
/* ompc-output: rank 1: .*messages sent [1-9][0-9]* \([0-9]+ bytes\), received [1-9][0-9]* \([0-9]+ bytes\) */
/* ompc-output: rank 1: dsm: faults */
/* ompc-output: rank 1: calls by kind: page-fetch [1-9][0-9]* \([0-9.]+ ms\), diff [1-9][0-9]* \([0-9.]+ ms\) */
/* ompc-timeout: 60 */
#include <omp.h>
#include <stdio.h>

static long counter;

int
main (void)
{
  /* Rank 0 touches the counter first, so that it is its home and the
     other ranks fetch it and send diffs: left to the region, the first
     node into the critical section would be, rank 0 or not.  */
  *(volatile long *) &counter = 0;
#pragma omp parallel
  for (int i = 0; i < 10; i++)
    {
#pragma omp critical
      counter++;
#pragma omp barrier
    }
#pragma omp parallel
  {
#pragma omp critical
    counter++;
  }
  int n = omp_get_max_threads ();
  if (counter != 11L * n)
    {
      printf ("counter %ld, expected %ld\n", counter, 11L * n);
      return 1;
    }
  printf ("OK\n");
  return 0;
}
