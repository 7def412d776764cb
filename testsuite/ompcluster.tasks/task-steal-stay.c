/* Tasks that must stay on their creator's node even with stealing on:
   with in_reduction, and whose data names private memory (a pointer to
   a threadprivate variable); each records where it ran and checks what
   it read.  Plain tasks beside them may move (task-steal.c proves that),
   and so may tasks with depend clauses (task-steal-depend.c) and
   children that share a local of their parent: those are checked for
   what they read and write only.  */
/* ompc-nodes: 1 2x1 2x2 3x1 */
/* ompc-env: OMPC_TASK_STEAL=1 */
/* ompc-timeout: 120 */
#include <omp.h>
#include <stdio.h>
#include <unistd.h>

#define N 48

static int tp;
#pragma omp threadprivate(tp)

static int away, wrong;

static void
spin (void)
{
  volatile long x = 0;
  for (long i = 0; i < 200000; i++)
    x += i;
}

static void
check (int pid, int ok)
{
  if (getpid () != pid)
    {
#pragma omp atomic
      away++;
    }
  if (!ok)
    {
#pragma omp atomic
      wrong++;
    }
}

int
main (void)
{
  int deps[N] = { 0 };
  long sum = 0;
#pragma omp parallel
#pragma omp single
  {
    int pid = getpid ();
    tp = 4242;
    /* Plain tasks that keep the other nodes asking.  */
    for (int k = 0; k < N; k++)
      {
#pragma omp task
	spin ();
      }
    for (int k = 0; k < N; k++)
      {
#pragma omp task depend(inout: deps[k]) firstprivate(k)
	{
	  spin ();
	  deps[k] += k;
	}
	int *p = &tp;
#pragma omp task firstprivate(p, pid)
	{
	  spin ();
	  check (pid, *p == 4242);
	}
	/* A child sharing a local of its parent (which may move): the
	   local lies on the parent's thread stack, in the shared segment,
	   so the child may run on yet another node (a creator waiting in
	   taskwait takes back descendants of the tasks it gave away); it
	   must see and update the local wherever it runs.  */
#pragma omp task firstprivate(k)
	{
	  int mine = k * 3;
#pragma omp task shared(mine) firstprivate(k)
	  {
	    spin ();
	    check (getpid (), mine == k * 3);
	    mine++;
	  }
#pragma omp taskwait
	  if (mine != k * 3 + 1)
	    {
#pragma omp atomic
	      wrong++;
	    }
	}
      }
#pragma omp taskgroup task_reduction(+: sum)
    for (int k = 0; k < N; k++)
      {
#pragma omp task in_reduction(+: sum) firstprivate(k, pid)
	{
	  spin ();
	  sum += k;
	  check (pid, 1);
	}
      }
#pragma omp taskwait
  }
  for (int k = 0; k < N; k++)
    if (deps[k] != k)
      wrong++;
  if (sum != (long) N * (N - 1) / 2)
    wrong++;
  printf ("%d tasks that must stay ran elsewhere, %d wrong\n", away, wrong);
  return away || wrong;
}
