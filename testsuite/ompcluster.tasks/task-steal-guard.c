/* Tasks whose data block holds a word that only looks like an address
   private to the node move with stealing on (OMPC_TASK_STEAL=1,
   taskmove.c): two ints side by side, a small one and the high half of
   an address of the creator's stack, make a word that lies in the guard
   block below the node's first stack (each node's stack part starts
   with it).  Padding beside an int firstprivate often holds such a high
   half left on the stack, as in BOTS fib (shared(x) and three ints):
   such tasks were all kept home, the root's children too, and a stolen
   subtree could not be shared back.  A tree as in fib: every task
   shares a local of its parent's frame (its result) and takes the pair
   of ints; the leaves compute about a millisecond each.  Every result
   is checked, and with several nodes some leaves must have run on
   another node than the root's.  */
/* ompc-nodes: 1 2x1 2x2 3x1 */
/* ompc-env: OMPC_TASK_STEAL=1 */
/* ompc-output: ^ok$ */
/* ompc-timeout: 120 */
#include <omp.h>
#include <stdint.h>
#include <stdio.h>
#include <unistd.h>
#include "task-work.h"
#include "team-nodes.h"

#define FAN 16
#define LEAVES (FAN * FAN)
#define ROUNDS 400000

struct pair
{
  int id;
  unsigned hi;	/* The high half of an address of the creator's stack.  */
};

static int leaf_pid[LEAVES];

static long
tree (int depth, int id)
{
  if (depth == 2)
    {
      leaf_pid[id] = getpid ();
      return work (id, ROUNDS);
    }
  long part[FAN];
  char here;
  for (int c = 0; c < FAN; c++)
    {
      struct pair p = { id * FAN + c,
			(unsigned) ((uintptr_t) &here >> 32) };
#pragma omp task firstprivate(p, depth) shared(part)
      part[p.id % FAN] = tree (depth + 1, p.id);
    }
#pragma omp taskwait
  long s = 0;
  for (int c = 0; c < FAN; c++)
    s += part[c];
  return s;
}

int
main (void)
{
  int pids[512], nodes = 1, main_pid = 0, away = 0, round;
  long want = 0;
  for (int i = 0; i < LEAVES; i++)
    want += work (i, ROUNDS);
  /* The whole takes about a quarter of a second, and a site's first move
     waits for its first task run at home: on a busy machine no leaf may
     have moved yet when it ends, so it runs again, up to four times,
     until one moved.  */
  for (round = 0; round < 4 && (round == 0 || (nodes > 1 && away == 0));
       round++)
    {
      long got = 0;
#pragma omp parallel
      {
	pids[omp_get_thread_num ()] = getpid ();
#pragma omp barrier
#pragma omp single
	{
	  nodes = team_nodes (pids, omp_get_num_threads ());
	  main_pid = getpid ();
	  got = tree (0, 0);
	}
      }
      if (got != want)
	{
	  printf ("sum %ld, expected %ld\n", got, want);
	  return 1;
	}
      for (int i = 0; i < LEAVES; i++)
	away += leaf_pid[i] != main_pid;
    }
  if (nodes > 1 && away == 0)
    {
      printf ("no leaf of %d left its creator's node (%d nodes, %d rounds)\n",
	      LEAVES, nodes, round);
      return 1;
    }
  printf ("ok\n");
  return 0;
}
