/* A thread that writes through cached copies of other nodes' blocks in
   sequence opens the READ blocks after the one it faulted on, each with
   its twin (dsm/fault.c, copy_last): twice as many with each fault of
   the streak.  Those it then leaves alone must send nothing, those it
   writes only in part must send only its bytes, while their home writes
   other bytes of them in the same interval.  Thread 0 (whose node is the
   home of A) writes every block; the last thread reads all of A, then
   writes one word of each of the first K blocks in order (K changes from
   one step to the next, so that a streak ends short of what it opened),
   while thread 0 writes another word of every block; after the barrier
   every thread checks every word.
   ompc-nodes: 1 1x2 2x1 2x2 3x1
   ompc-output: write-ahead-copies ok  */

#include <omp.h>
#include <stdio.h>

#define WORDS 1024		/* Ints per 4 KiB block.  */
#define BLOCKS 96
#define STEPS 40

static int a[BLOCKS * WORDS] __attribute__ ((aligned (4096)));

int
main (void)
{
  long bad = 0;
#pragma omp parallel reduction(+:bad)
  {
    int t = omp_get_thread_num (), last = omp_get_num_threads () - 1;
    for (int s = 1; s <= STEPS; s++)
      {
	int k = 1 + (s * 37) % BLOCKS;
	if (t == 0)
	  for (int i = 0; i < BLOCKS * WORDS; i++)
	    a[i] = -s;
#pragma omp barrier
	if (t == last)
	  {
	    long sum = 0;
	    for (int i = 0; i < BLOCKS * WORDS; i++)
	      sum += a[i];
	    if (sum != -(long) s * BLOCKS * WORDS)
	      bad++;
	  }
#pragma omp barrier
	if (t == last && last > 0)
	  for (int b = 0; b < k; b++)
	    a[b * WORDS + 5 + s % 7] = s * 1000 + b;
	if (t == 0)
	  for (int b = 0; b < BLOCKS; b++)
	    a[b * WORDS + 100 + s % 11] = s * 2000 + b;
#pragma omp barrier
	for (int b = 0; b < BLOCKS; b++)
	  for (int w = 0; w < WORDS; w++)
	    {
	      int want = -s;
	      if (w == 100 + s % 11)
		want = s * 2000 + b;
	      else if (last > 0 && b < k && w == 5 + s % 7)
		want = s * 1000 + b;
	      if (a[b * WORDS + w] != want)
		bad++;
	    }
#pragma omp barrier
      }
  }
  if (bad)
    {
      printf ("FAIL: %ld wrong values\n", bad);
      return 1;
    }
  printf ("write-ahead-copies ok\n");
  return 0;
}
