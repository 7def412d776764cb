/* Barriers across nodes: in each phase every thread writes its slot, and
   after the barrier reads its neighbours' slots of that phase.  */
/* ompc-nodes: 1 1x2 2x1 2x2 3x1 */
/* ompc-timeout: 90 */
#include <omp.h>
#include <stdio.h>

#define MAX 256
#define PHASES 200
static int slot[MAX];
static int errors;

int
main (void)
{
  int team = 0;
#pragma omp parallel
  {
    int me = omp_get_thread_num (), n = omp_get_num_threads ();
#pragma omp master
    team = n;
    for (int p = 1; p <= PHASES; p++)
      {
	slot[me] = p;
#pragma omp barrier
	int left = slot[(me + n - 1) % n], right = slot[(me + 1) % n];
	if (left != p || right != p)
#pragma omp atomic
	  errors++;
#pragma omp barrier
      }
  }
  if (errors)
    {
      printf ("%d wrong reads after barriers\n", errors);
      return 1;
    }
  printf ("OK %d threads, %d phases\n", team, PHASES);
  return 0;
}
