/* The shared heap across nodes: a large array allocated and initialised
   by the master and read by every node; blocks allocated by one thread and
   freed by a thread of another node; realloc and calloc on shared memory.
   ompc-nodes: 1 1x2 2x1 2x2 3x1
   ompc-timeout: 120
   ompc-output: heap ok  */

#include <omp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define N (1 << 20)
#define MAXT 64

static char *blocks[MAXT][16];

int
main (void)
{
  long *a = malloc (N * sizeof *a);
  for (long i = 0; i < N; i++)
    a[i] = i;
  long sum = 0;
#pragma omp parallel for reduction(+:sum)
  for (long i = 0; i < N; i++)
    sum += a[i];
  if (sum != (long) N * (N - 1) / 2)
    {
      printf ("sum %ld\n", sum);
      return 1;
    }
  int nt = 0, bad = 0;
  for (int round = 0; round < 5; round++)
    {
#pragma omp parallel
      {
	int t = omp_get_thread_num (), n = omp_get_num_threads ();
#pragma omp single
	nt = n;
	for (int k = 0; k < 16; k++)
	  {
	    size_t sz = (k & 3) == 0 ? 50000 + k : 10 + 37 * k;
	    blocks[t][k] = malloc (sz);
	    memset (blocks[t][k], t + k, sz);
	  }
#pragma omp barrier
	int from = (t + 1) % n;
	for (int k = 0; k < 16; k++)
	  {
	    size_t sz = (k & 3) == 0 ? 50000 + k : 10 + 37 * k;
	    if (blocks[from][k][sz - 1] != (char) (from + k))
	      {
#pragma omp atomic write
		bad = 1;
	      }
	    free (blocks[from][k]);
	  }
      }
      if (bad)
	{
	  printf ("bad heap block contents in round %d\n", round);
	  return 1;
	}
    }
  char *s = calloc (100, 1);
  strcpy (s, "abc");
  s = realloc (s, 200000);
  if (strcmp (s, "abc") != 0)
    return 1;
  free (s);
  free (a);
  printf ("heap ok (%d threads)\n", nt);
  return 0;
}
