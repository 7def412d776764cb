/* Worker threads are kept, not ended and started again, when the thread
   that used them no longer needs them: a program thread that exits after
   a region, and target regions inside tasks (each a contention group
   with threads of its own).  With several nodes a worker's stack is in
   the shared segment and never given back: 60 program threads with one
   region each, or 60 target regions in tasks, filled the stack area
   ("the stack area is full") at 2x1 and 2x2.  */
/* ompc-nodes: 1 1x2 2x1 2x2 */
/* ompc-options: -pthread -foffload=disable */
/* ompc-timeout: 120 */
#include <omp.h>
#include <pthread.h>
#include <stdio.h>

static void *
thread_main (void *arg)
{
  int s = 0;
#pragma omp parallel reduction(+: s)
  s += 1;
  *(int *) arg = s;
  return NULL;
}

int
main (void)
{
  for (int i = 0; i < 60; i++)
    {
      pthread_t t;
      int s = 0;
      if (pthread_create (&t, NULL, thread_main, &s) != 0)
	return 2;
      pthread_join (t, NULL);
      if (s < 1)
	{
	  printf ("thread %d: region of %d threads\n", i, s);
	  return 1;
	}
    }
  int sum = 0;
#pragma omp parallel
#pragma omp single
  for (int i = 0; i < 60; i++)
#pragma omp task shared(sum)
    {
      int s = 0;
#pragma omp target map(tofrom: s)
#pragma omp parallel reduction(+: s)
      s += 1;
#pragma omp atomic
      sum += s >= 1;
    }
  if (sum != 60)
    {
      printf ("%d of 60 target regions\n", sum);
      return 1;
    }
  printf ("OK\n");
  return 0;
}
