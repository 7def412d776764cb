/* A parallel region whose data other nodes cannot reach runs inside its
   node instead of spanning the nodes: one started by a thread the program
   created itself (its stack is not in the shared segment), and one inside
   an explicit task, whose firstprivate copies live in the task's own
   block.  Both must give the right result, while main's regions still
   span the nodes.  */
/* ompc-nodes: 1 1x2 2x1 2x2 3x1 */
/* ompc-options: -pthread */
/* ompc-timeout: 60 */
#include <omp.h>
#include <pthread.h>
#include <stdio.h>

static int bad;

static void *
thread_main (void *arg)
{
  int local[64] = { 0 };
  long sum = 0;
#pragma omp parallel for reduction(+: sum)
  for (int i = 0; i < 64; i++)
    {
      local[i] = i;
      sum += i;
    }
  for (int i = 0; i < 64; i++)
    if (local[i] != i)
      bad++;
  if (sum != 63 * 64 / 2)
    bad++;
  return NULL;
}

int
main (void)
{
  pthread_t th;
  if (pthread_create (&th, NULL, thread_main, NULL) != 0)
    return 2;
  pthread_join (th, NULL);
  if (bad)
    {
      printf ("region of a pthread: %d wrong\n", bad);
      return 1;
    }
  int x = 5;
  long total = 0;
#pragma omp parallel
#pragma omp single
#pragma omp task firstprivate(x) shared(total)
  {
    long s = 0;
#pragma omp parallel reduction(+: s)
    s += x;
    total = s;
  }
  if (total < 5 || total % 5 != 0)
    {
      printf ("region inside a task: %ld\n", total);
      return 1;
    }
  int spans = 0;
#pragma omp parallel
#pragma omp master
  spans = omp_get_num_threads ();
  printf ("OK (main's team %d threads)\n", spans);
  return 0;
}
