/* Thread numbering across nodes: a top-level team has nodes x threads
   members with unique global numbers; omp_get_num_threads agrees
   everywhere; every thread writes its own byte of one shared array (false
   sharing of one page by every node).  */
/* ompc-nodes: 1 1x2 2x1 2x2 3x1 */
/* ompc-timeout: 60 */
#include <omp.h>
#include <stdio.h>
#include <stdlib.h>

#define MAX 256
static unsigned char seen[MAX];
static int nthreads_seen[MAX];

int
main (void)
{
  int expected = omp_get_max_threads ();
  int team = 0;
  if (expected > MAX)
    return 2;
  for (int round = 0; round < 3; round++)
    {
#pragma omp parallel
      {
	int me = omp_get_thread_num ();
	seen[me]++;
	nthreads_seen[me] = omp_get_num_threads ();
#pragma omp master
	team = omp_get_num_threads ();
      }
    }
  if (team != expected)
    {
      printf ("team of %d threads, expected %d\n", team, expected);
      return 1;
    }
  for (int i = 0; i < MAX; i++)
    if (seen[i] != (i < team ? 3 : 0)
	|| (i < team && nthreads_seen[i] != team))
      {
	printf ("thread %d: seen %d times, num_threads %d (team %d)\n", i,
		seen[i], nthreads_seen[i], team);
	return 1;
      }
  /* num_threads clause smaller than the team, and one thread.  */
  int small = team > 1 ? team - 1 : 1;
#pragma omp parallel num_threads (small)
  {
    if (omp_get_num_threads () != small)
      seen[omp_get_thread_num ()] = 100;
  }
  for (int i = 0; i < small; i++)
    if (seen[i] == 100)
      {
	printf ("num_threads(%d) not honoured\n", small);
	return 1;
      }
  printf ("OK %d threads\n", team);
  return 0;
}
