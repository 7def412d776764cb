/* omp_fulfill_event called on another node than the one whose detach
   clause made the event (OMPC_TASK_STEAL=1).  For each of N items: a
   detached task (it stays on its node), a task that computes a value,
   stores it and fulfills the event (it may move), and a task that
   depends on the detached one and checks the value: the fulfilling
   node's writes before omp_fulfill_event must be visible to it.  The
   handle goes to the fulfilling task by value (firstprivate) for odd
   items, through a shared array for even ones.  An event handle names
   its node; before, a handle used on another node was a wild pointer
   there (a crash, or worse), and a task with a handle by value did not
   move (the handle looked like a private address).  At 2x1 some of the
   fulfilling tasks must have run on the other node: on a busy machine
   the other node may ask for tasks only after the creator ran them all,
   so the items are made again, up to three times, until one moved.  */
/* ompc-nodes: 1 2x1 2x2 3x1 */
/* ompc-env: OMPC_TASK_STEAL=1 */
/* ompc-output: ^ok$ */
/* ompc-timeout: 120 */
#include <omp.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>
#include "task-work.h"

#define N 64

static long value[N], seen[N];
static int away;
static pid_t root_pid;

#define ROUNDS 300000

static void
fulfill (int i, omp_event_handle_t ev)
{
  value[i] = work (i, ROUNDS);
  if (getpid () != root_pid)
    {
#pragma omp atomic
      away++;
    }
  omp_fulfill_event (ev);
}

int
main (void)
{
  omp_event_handle_t evs[N];
  int dep[N];
  int bad = 0;
  const char *nodes = getenv ("PMI_SIZE");
  int several = nodes && atoi (nodes) > 1;
  root_pid = getpid ();
  for (int round = 0; round < 3 && (round == 0 || (several && !away));
       round++)
    {
#pragma omp parallel
#pragma omp single
      for (int i = 0; i < N; i++)
	{
	  omp_event_handle_t ev;
#pragma omp task depend(out: dep[i]) detach(ev)
	  ;
	  evs[i] = ev;
	  if (i % 2)
	    {
#pragma omp task firstprivate(i, ev)
	      fulfill (i, ev);
	    }
	  else
	    {
	      /* The handle read from shared memory, as GCC's
		 task-detach-3.c does.  */
#pragma omp task firstprivate(i) shared(evs)
	      fulfill (i, evs[i]);
	    }
#pragma omp task depend(in: dep[i]) firstprivate(i)
	  seen[i] = value[i];
	}
      for (int i = 0; i < N; i++)
	{
	  bad += seen[i] != work (i, ROUNDS);
	  seen[i] = value[i] = 0;
	}
    }
  if (bad || (several && away == 0))
    printf ("%d of %d wrong, %d fulfilled on other nodes\n", bad, N, away);
  else
    printf ("ok\n");
  return bad != 0;
}
