/* Homes that follow the writer (dsm/migrate.c): the master initialises
   a global array and a heap array alone (first touch puts every home on
   its node), then each thread writes its own part at every step, so the
   parts of the other nodes move there.  After every step every thread
   checks values written elsewhere: a hand-off must lose no write.  Then
   the parts change hands (each thread writes another thread's part: the
   blocks move again), then the master alone rewrites everything (the
   moved homes now receive its diffs), and finally some steps where two
   threads write disjoint halves of each block (no block moves, the
   homes must merge both).  OMPC_STATS shows the hand-offs.
   ompc-nodes: 2x1 2x2 3x1
   ompc-env: OMPC_STATS=1
   ompc-timeout: 180
   ompc-output: migrate ok
   ompc-output: homes moved [1-9]  */

#include <omp.h>
#include <stdio.h>
#include <stdlib.h>

#define N (1 << 18)		/* Ints: 256 blocks of 4 KiB.  */
#define STEPS 8

static int g[N];

static int
val (int step, int i)
{
  return step * 1000003 + i;
}

/* Part I of N among T threads rotated by SHIFT: the owner of index I.  */
static int
owner (int i, int t, int shift)
{
  long per = (N + t - 1) / t;
  return (int) ((i / per + shift) % t);
}

int
main (void)
{
  int *h = malloc (N * sizeof *h), bad = 0;
  if (!h)
    return 2;
  for (int i = 0; i < N; i++)
    g[i] = h[i] = -1;
  int step = 0;
  for (int phase = 0; phase < 2; phase++)
    for (int s = 0; s < STEPS; s++, step++)
      {
#pragma omp parallel reduction(+ : bad)
	{
	  int me = omp_get_thread_num (), t = omp_get_num_threads ();
	  for (int i = 0; i < N; i++)
	    if (owner (i, t, phase) == me)
	      {
		g[i] = val (step, i);
		h[i] = val (step, i) ^ 0x5555;
	      }
#pragma omp barrier
	  /* Every thread checks a stride of everything.  */
	  for (int i = me; i < N; i += 61)
	    if (g[i] != val (step, i) || h[i] != (val (step, i) ^ 0x5555))
	      bad++;
	}
      }
  /* The master alone, then everyone reads.  */
  for (int i = 0; i < N; i++)
    {
      g[i] = val (step, i);
      h[i] = val (step, i) ^ 0x5555;
    }
#pragma omp parallel reduction(+ : bad)
  {
    int me = omp_get_thread_num (), t = omp_get_num_threads ();
    for (int i = me; i < N; i += 7 * t)
      if (g[i] != val (step, i) || h[i] != (val (step, i) ^ 0x5555))
	bad++;
  }
  step++;
  /* Disjoint halves of every block, by two different threads.  */
  for (int s = 0; s < STEPS; s++, step++)
    {
#pragma omp parallel reduction(+ : bad)
      {
	int me = omp_get_thread_num (), t = omp_get_num_threads ();
	for (int i = 0; i < N; i++)
	  if (((i / 512) + (i % 1024 >= 512)) % t == me)
	    g[i] = val (step, i);
#pragma omp barrier
	for (int i = me * 13; i < N; i += 97)
	  if (g[i] != val (step, i))
	    bad++;
      }
    }
  long sum = 0;
  for (int i = 0; i < N; i++)
    sum += g[i] != val (step - 1, i);
  if (bad || sum)
    {
      printf ("migrate: %d wrong reads, %ld wrong at the end\n", bad, sum);
      return 1;
    }
  printf ("migrate ok\n");
  free (h);
  return 0;
}
