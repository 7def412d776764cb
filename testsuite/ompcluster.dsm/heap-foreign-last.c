/* A block of a node's heap that another node touched first keeps that
   node as its home once freed, and every write of its owner to it would
   then cost a twin, a diff and a message: the owner hands out memory
   homed at itself or nowhere yet first, fresh memory too while its
   heap's used part stays within twice what is in use (dsm/heap.c,
   extent_alloc).  Thread 0 allocates 1 MiB, thread 1 (another node at
   2x1 and 3x1) writes all of it first, thread 0 frees it and allocates
   1 MiB again: with several nodes the new block must lie elsewhere.
   Then 100 rounds of the same must not take more and more of the heap:
   their blocks must all lie within a span of 8 MiB (the bound lets the
   heap grow to twice what is in use, then the freed blocks are reused).
   Every value is checked.  With one node the heap is libc's: only the
   values count.  */
/* ompc-nodes: 1 1x2 2x1 3x1 */
/* ompc-output: ^ok$ */
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>
#include <omp.h>

#define WORDS (128 * 1024)	/* Longs: 1 MiB.  */
#define ROUNDS 100

static long *p;
static int pid[2];

static long
fill (int round, int i)
{
  return (long) round * 1000003 + i;
}

int
main (void)
{
  int bad = 0, moved = 0;
  char *first = NULL, *lo = NULL, *hi = NULL;
  for (int round = 0; round <= ROUNDS; round++)
    {
      p = malloc (WORDS * sizeof *p);
      if (p == NULL)
	return 2;
      if (round == 1)
	moved = (char *) p != first;
      if (round == 0)
	first = (char *) p;
      else
	{
	  lo = !lo || (char *) p < lo ? (char *) p : lo;
	  hi = !hi || (char *) p > hi ? (char *) p : hi;
	}
#pragma omp parallel num_threads(2)
      {
	int t = omp_get_thread_num ();
	pid[t] = getpid ();
	if (t == omp_get_num_threads () - 1)
	  for (int i = 0; i < WORDS; i++)
	    p[i] = fill (round, i);
      }
      for (int i = 0; i < WORDS; i++)
	bad += p[i] != fill (round, i);
      for (int i = 0; i < WORDS; i += 512)
	p[i] = -1;
      free (p);
    }
  int nodes = pid[0] != pid[1] ? 2 : 1;
  long span = hi - lo;
  if (bad || (nodes > 1 && (!moved || span > (8L << 20))))
    printf ("%d wrong values; nodes %d, second block %s, span %ld\n", bad,
	    nodes, moved ? "elsewhere" : "in the first one's place", span);
  else
    printf ("ok\n");
  return 0;
}
