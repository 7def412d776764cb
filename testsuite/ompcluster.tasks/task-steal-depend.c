/* Tasks with dependences run on other nodes (OMPC_TASK_STEAL=1): once
   its predecessors completed, a task with depend clauses may move, its
   completion on the thief releases its successors on the creator's node,
   and a successor (here or on yet another node) sees what it wrote.
   - a wavefront: block (i, j) reads blocks (i-1, j) and (i, j-1)
     (depend in) and writes its own (depend out);
   - a chain of inout tasks whose order shows in the result;
   - mutexinoutset tasks adding into one sum;
   - taskwait depend(in:) on the wavefront's last block.
   Every value is checked against a sequential run.  With several nodes
   (PMI_SIZE) some tasks must have run on a node other than their
   creator's (told apart by their process ids).  The whole takes about a
   fifth of a second, and a site's first move waits for its first task
   run at home: on a busy machine no task may have moved yet when it ends,
   so it is run again, up to four times, until one moved.
   ompc-nodes: 1 2x1 2x2 3x1
   ompc-env: OMPC_TASK_STEAL=1
   ompc-timeout: 180
   ompc-output: task-steal-depend ok  */

#include <omp.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>
#include "task-work.h"

#define NB 12
#define CHAIN 24
#define ROUNDS 400000

static long blk[NB][NB];
static int blk_pid[NB][NB];
static long acc, msum, none;
static int chain_pid[CHAIN];

static long
cell (long up, long left, int i, int j)
{
  return work (up * 3 + left + i * NB + j, ROUNDS);
}

static long ref[NB][NB], racc, rsum;

/* The same sequentially.  */
static void
reference (void)
{
  for (int i = 0; i < NB; i++)
    for (int j = 0; j < NB; j++)
      ref[i][j] = cell (i > 0 ? ref[i - 1][j] : 1, j > 0 ? ref[i][j - 1] : 2,
			i, j);
  for (int k = 0; k < CHAIN; k++)
    {
      racc = racc * 3 + work (k, ROUNDS / 4) % 1000;
      rsum += work (k + 100, ROUNDS / 4) % 1000;
    }
}

/* Run the tasks once; return 1 if a value is wrong.  */
static int
run (void)
{
  int bad = 0;
  long last = -1;
  acc = msum = 0;
#pragma omp parallel
  {
#pragma omp single
    {
      for (int i = 0; i < NB; i++)
	for (int j = 0; j < NB; j++)
	  {
	    long *up = i > 0 ? &blk[i - 1][j] : &none;
	    long *left = j > 0 ? &blk[i][j - 1] : &none;
#pragma omp task firstprivate(i, j, up, left) \
		 depend(in: *up, *left) depend(out: blk[i][j])
	    {
	      blk_pid[i][j] = getpid ();
	      blk[i][j] = cell (i > 0 ? *up : 1, j > 0 ? *left : 2, i, j);
	    }
	  }
      for (int k = 0; k < CHAIN; k++)
	{
#pragma omp task firstprivate(k) depend(inout: acc)
	  {
	    chain_pid[k] = getpid ();
	    acc = acc * 3 + work (k, ROUNDS / 4) % 1000;
	  }
#pragma omp task firstprivate(k) depend(mutexinoutset: msum)
	  msum += work (k + 100, ROUNDS / 4) % 1000;
	}
#pragma omp taskwait depend(in: blk[NB - 1][NB - 1])
      last = blk[NB - 1][NB - 1];
#pragma omp taskwait
    }
  }
  for (int i = 0; i < NB; i++)
    for (int j = 0; j < NB; j++)
      if (blk[i][j] != ref[i][j])
	{
	  printf ("block %d %d: %ld, expected %ld\n", i, j, blk[i][j],
		  ref[i][j]);
	  bad = 1;
	}
  if (last != ref[NB - 1][NB - 1])
    {
      printf ("taskwait depend saw %ld, expected %ld\n", last,
	      ref[NB - 1][NB - 1]);
      bad = 1;
    }
  if (acc != racc || msum != rsum)
    {
      printf ("chain %ld (expected %ld), sum %ld (expected %ld)\n", acc, racc,
	      msum, rsum);
      bad = 1;
    }
  return bad;
}

int
main (void)
{
  int bad = 0, main_pid = getpid ();
  const char *size = getenv ("PMI_SIZE");
  int nodes = size ? atoi (size) : 1;
  int away = 0, round;
  reference ();
  for (round = 0; round < 4 && (round == 0 || (nodes > 1 && !away));
       round++)
    {
      bad |= run ();
      for (int i = 0; i < NB; i++)
	for (int j = 0; j < NB; j++)
	  away += blk_pid[i][j] != main_pid;
      for (int k = 0; k < CHAIN; k++)
	away += chain_pid[k] != main_pid;
    }
  printf ("%d of %d tasks ran on another node (%d nodes, %d rounds)\n",
	  away, NB * NB + CHAIN, nodes, round);
  if (nodes > 1 && away == 0)
    {
      printf ("no task with dependences moved\n");
      bad = 1;
    }
  if (nodes == 1 && away)
    bad = 1;
  if (bad)
    return 1;
  printf ("task-steal-depend ok\n");
  return 0;
}
