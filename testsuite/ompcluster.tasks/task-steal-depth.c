/* A recursive task site is judged by the depth of its tasks
   (tasksite.c): one function makes every task of a two-level tree.  Each
   of the 24 tasks of depth 0 computes for about 20 ms on nothing but its
   own frame, then fills a 512 KiB buffer and makes 16 tasks of depth 1
   that each only sum that buffer: on another node a depth-1 task fetches
   the whole buffer from its creator's node for a fraction of a
   millisecond of work, many times slower than at home, while a depth-0
   task takes its children and their data along and runs about as fast
   there.  A site is learnt from its youngest tasks first, so the first
   subtrees back are of depth 1, and the site as a whole was refused:
   depth-0 tasks then stayed home too (none, or the one that went to
   learn from).  Now their depth, unknown, gives one at a time until a
   subtree of depth 0 is back, and they move.  The test asks that at
   least 3 of them ran on another node, and checks every result.  */
/* ompc-nodes: 2x1 */
/* ompc-env: OMPC_TASK_STEAL=1 */
/* ompc-output: ^ok$ */
/* ompc-timeout: 120 */
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>
#include "task-work.h"

#define TOP 24
#define FAN 16
#define WORDS (64 * 1024)
#define ROUNDS 8000000

static long top_result[TOP], sums[TOP][FAN];
static int top_away[TOP];
static pid_t root_pid;

static long
fill (int id, int k)
{
  return (long) id * 1000003 + k % 977;
}

static void tree (int depth, int id, const long *buf);

/* Every task of the tree is made here: one site.  */
static void
spawn (int depth, int id, const long *buf)
{
#pragma omp task firstprivate(depth, id, buf)
  tree (depth, id, buf);
}

static void
tree (int depth, int id, const long *buf)
{
  if (depth == 1)
    {
      long s = 0;
      for (int k = 0; k < WORDS; k++)
	s += buf[k];
      sums[id / FAN][id % FAN] = s;
      return;
    }
  top_result[id] = work (id, ROUNDS);
  top_away[id] = getpid () != root_pid;
  long *mine = malloc (WORDS * sizeof *mine);
  if (mine == NULL)
    abort ();
  for (int k = 0; k < WORDS; k++)
    mine[k] = fill (id, k);
  for (int c = 0; c < FAN; c++)
    spawn (1, id * FAN + c, mine);
#pragma omp taskwait
  free (mine);
}

int
main (void)
{
  root_pid = getpid ();
#pragma omp parallel
#pragma omp single
  for (int p = 0; p < TOP; p++)
    spawn (0, p, NULL);
  int bad = 0, away = 0;
  for (int p = 0; p < TOP; p++)
    {
      long want = 0;
      for (int k = 0; k < WORDS; k++)
	want += fill (p, k);
      bad += top_result[p] != work (p, ROUNDS);
      for (int c = 0; c < FAN; c++)
	bad += sums[p][c] != want;
      away += top_away[p];
    }
  if (bad || away < 3)
    printf ("%d wrong; %d of %d tasks of depth 0 on other nodes\n", bad, away,
	    TOP);
  else
    printf ("ok\n");
  return bad || away < 3;
}
