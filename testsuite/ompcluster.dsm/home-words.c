/* A home writes its ints of blocks while another node's diffs of the
   ints beside them (the same 8-byte words) are being applied there: the
   home must apply only the other node's bytes (dsm/diff.c,
   store_masked), never write back a whole word it read before its own
   thread wrote the other half.  Thread 0 (node 0, the home of A) writes
   the even ints of every block of A once per step, after waiting a
   little so that the other threads' releases at the barrier run at the
   same time; the other threads write the odd ints (dense changes: the
   "words" form of a diff).  After every step each thread checks every
   int.
   ompc-nodes: 1x2 2x1 3x1
   ompc-timeout: 180
   ompc-output: home-words ok  */

#include <omp.h>
#include <stdio.h>
#include <stdlib.h>

#define N (1 << 16)		/* Ints: 64 blocks of 4 KiB.  */
#define STEPS 400

/* Step S's value: every byte differs from step S-1's.  */
static int
value (int s)
{
  return (int) ((unsigned) (s % 250 + 1) * 0x01010101u);
}

int
main (void)
{
  int *a = malloc (N * sizeof *a);
  long bad = 0;
  if (!a)
    return 2;
  /* Node 0 first touches A: it is the home.  */
  for (long i = 0; i < N; i++)
    a[i] = -1;
#pragma omp parallel reduction(+:bad)
  {
    int t = omp_get_thread_num (), nt = omp_get_num_threads ();
    for (int s = 0; s < STEPS; s++)
      {
	if (t == 0)
	  {
	    /* Let the others reach the barrier and send their diffs.  */
	    double until = omp_get_wtime () + 20e-6 * (s % 8);
	    while (omp_get_wtime () < until)
	      ;
	    for (long i = 0; i < N; i += 2)
	      a[i] = value (s);
	  }
	else
	  /* The odd ints, shared out among the other threads.  */
	  for (long i = 1 + 2 * (t - 1); i < N; i += 2 * (nt - 1))
	    a[i] = value (s);
#pragma omp barrier
	for (long i = 0; i < N; i++)
	  if (a[i] != value (s) && (nt > 1 || i % 2 == 0))
	    {
	      if (bad < 3)
		fprintf (stderr, "home-words: thread %d, step %d: a[%ld] is "
			 "%#x\n", t, s, i, (unsigned) a[i]);
	      bad++;
	    }
#pragma omp barrier
      }
  }
  if (bad)
    {
      printf ("home-words: %ld wrong values\n", bad);
      return 1;
    }
  printf ("home-words ok\n");
  free (a);
  return 0;
}
