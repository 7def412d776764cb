/* Deferred tasks run on other nodes (OMPC_TASK_STEAL=1):
   one thread creates coarse tasks (parallel + single) that read what it
   wrote just before (shared heap, a global, its stack), write results
   there, and create children of their own (taskwait, taskgroup, and
   children left for the end of the taskgroup); the creator checks every
   result after taskwait and taskgroup.  With several nodes (told apart
   by their process ids) some tasks of the three generations must have
   run on a node other than their creator's; with OMPC_TASK_STEAL=0
   (task-steal-off.c) none.  */
/* ompc-nodes: 1 2x1 2x2 3x1 */
/* ompc-env: OMPC_TASK_STEAL=1 */
/* ompc-timeout: 120 */
#include <omp.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>
#include "team-nodes.h"

#define NT 64
#define LEN 512

static int input[NT][LEN];	/* Written by the creator before the tasks.  */
static long leaves;		/* Counted with atomics by grandchildren.  */
static int ran_pid[NT];

static long
work (const int *in, int k)
{
  long s = 0;
  /* About a millisecond.  */
  for (int r = 0; r < 400; r++)
    for (int i = 0; i < LEN; i++)
      s += (in[i] ^ r) % (k + 7);
  return s;
}

static long
expect (int k, int gen)
{
  int in[LEN];
  for (int i = 0; i < LEN; i++)
    in[i] = i * 31 + k * 7 + gen;
  return work (in, k) + k;
}

int
main (void)
{
  long *out = malloc (NT * sizeof *out);
  int bad = 0, nodes = 1;
  int pids[512];
  int main_pid = getpid ();
  const char *env = getenv ("OMPC_TASK_STEAL");
  int steal = env && env[0] == '1';
  if (!out)
    return 2;
#pragma omp parallel
  {
    pids[omp_get_thread_num ()] = getpid ();
#pragma omp barrier
#pragma omp single
    {
      nodes = team_nodes (pids, omp_get_num_threads ());
      int away_all = 0;
      for (int gen = 0; gen < 3; gen++)
	{
	  long side[NT];
	  for (int k = 0; k < NT; k++)
	    {
	      for (int i = 0; i < LEN; i++)
		input[k][i] = i * 31 + k * 7 + gen;
	      out[k] = -1;
	      side[k] = -1;
	    }
	  leaves = 0;
	  if (gen < 2)
	    {
	      for (int k = 0; k < NT; k++)
		{
#pragma omp task firstprivate(k) shared(side)
		  {
		    long a = 0, b = 0;
		    ran_pid[k] = getpid ();
#pragma omp task shared(a) firstprivate(k)
		    a = work (input[k], k);
#pragma omp task shared(b) firstprivate(k)
		    b = k;
#pragma omp taskwait
		    out[k] = a + b;
		    side[k] = a;
		  }
		}
#pragma omp taskwait
	    }
	  else
	    {
#pragma omp taskgroup
	      for (int k = 0; k < NT; k++)
		{
#pragma omp task firstprivate(k) shared(side)
		  {
		    ran_pid[k] = getpid ();
		    /* Children not waited for: the taskgroup's end waits.  */
#pragma omp task firstprivate(k) shared(side)
		    {
		      out[k] = work (input[k], k) + k;
#pragma omp atomic
		      leaves++;
		    }
		    side[k] = work (input[k], k);
		  }
		}
	      if (leaves != NT)
		{
		  printf ("gen %d: %ld leaves done after the taskgroup\n", gen,
			  leaves);
		  bad = 1;
		}
	    }
	  for (int k = 0; k < NT; k++)
	    {
	      long e = expect (k, gen);
	      if (out[k] != e || side[k] != e - k)
		{
		  printf ("gen %d task %d: %ld %ld, expected %ld %ld\n", gen, k,
			  out[k], side[k], e, e - k);
		  bad = 1;
		}
	    }
	  int away = 0;
	  for (int k = 0; k < NT; k++)
	    away += ran_pid[k] != main_pid;
	  printf ("gen %d: %d of %d tasks ran on another node (%d nodes)\n",
		  gen, away, NT, nodes);
	  if ((nodes == 1 || !steal) && away)
	    {
	      printf ("tasks ran on another node\n");
	      bad = 1;
	    }
	  away_all += away;
	}
      /* How many move in one generation depends on timing (a thief
	 takes one task at a time, while the creator's node runs the
	 rest); over the three, some must have.  */
      if (nodes > 1 && steal && away_all == 0)
	{
	  printf ("no task ran on another node\n");
	  bad = 1;
	}
    }
  }
  free (out);
  if (bad)
    return 1;
  printf ("ok\n");
  return 0;
}
