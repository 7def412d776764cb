/* Task reductions across nodes: reduction(task, ...) on a parallel region
   and on a loop, with tasks (run on their creator's node) that join them
   with in_reduction; the copies of every thread of every node are merged
   into the shared variable.  */
/* ompc-nodes: 1 1x2 2x1 2x2 3x1 */
/* ompc-timeout: 60 */
#include <omp.h>
#include <stdio.h>

static long sum, prod_sum, loop_sum;
static int team;

int
main (void)
{
#pragma omp parallel reduction(task, +: sum)
  {
#pragma omp master
    team = omp_get_num_threads ();
    int me = omp_get_thread_num ();
    for (int k = 0; k < 5; k++)
#pragma omp task in_reduction(+: sum) firstprivate(me, k)
      sum += me * 10 + k;
    sum += 1000;
  }
  long want = 0;
  for (int t = 0; t < team; t++)
    want += 1000 + 5 * t * 10 + 10;
  if (sum != want)
    {
      printf ("parallel task reduction: %ld, expected %ld\n", sum, want);
      return 1;
    }

#pragma omp parallel
  {
#pragma omp for reduction(task, +: loop_sum) schedule(dynamic, 3)
    for (int i = 0; i < 100; i++)
      {
#pragma omp task in_reduction(+: loop_sum) firstprivate(i)
	loop_sum += i;
	loop_sum += 2 * i;
      }
#pragma omp for reduction(task, +: prod_sum) lastprivate(conditional: sum)
    for (int i = 0; i < 50; i++)
      {
#pragma omp task in_reduction(+: prod_sum) firstprivate(i)
	prod_sum += i * i;
	if (i % 7 == 3)
	  sum = i;
      }
  }
  if (loop_sum != 3L * 99 * 100 / 2)
    {
      printf ("loop task reduction: %ld, expected %ld\n", loop_sum,
	      3L * 99 * 100 / 2);
      return 1;
    }
  if (prod_sum != 49L * 50 * 99 / 6)
    {
      printf ("second loop: %ld, expected %ld\n", prod_sum, 49L * 50 * 99 / 6);
      return 1;
    }
  if (sum != 45)
    {
      printf ("lastprivate(conditional): %ld, expected 45\n", sum);
      return 1;
    }
  printf ("OK %d threads\n", team);
  return 0;
}
