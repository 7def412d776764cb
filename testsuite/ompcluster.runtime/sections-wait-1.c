/* Sections that wait for each other: the first waits for a flag the
   second sets and the second for one the first sets, while a third does
   its own work.  With two threads or more every order of claims finishes,
   as long as no section is held back while a thread is idle (a node must
   not take sections in a batch that its only thread then runs one after
   the other).  The flags are read and written with seq_cst atomics, which
   carry them between nodes.  */
/* ompc-nodes: 1x2 1x3 2x1 2x2 3x1 */
/* ompc-timeout: 60 */

#include <omp.h>
#include <stdio.h>
#include <time.h>

#define ROUNDS 8

static int x[ROUNDS], y[ROUNDS], z[ROUNDS];
static int ran[ROUNDS][3];

static void
wait_for (int *flag)
{
  for (;;)
    {
      int v;
#pragma omp atomic read seq_cst
      v = *flag;
      if (v)
	return;
      struct timespec ts = { 0, 10000 };
      nanosleep (&ts, NULL);
    }
}

static void
set (int *flag)
{
  int one = 1;
#pragma omp atomic write seq_cst
  *flag = one;
}

int
main (void)
{
  for (int r = 0; r < ROUNDS; r++)
    {
      /* Half the rounds as a combined construct, half inside a region,
	 with the waiting section first or last.  */
      if (r % 2 == 0)
	{
#pragma omp parallel sections
	  {
#pragma omp section
	    {
	      wait_for (&x[r]);
	      set (&y[r]);
	      ran[r][0]++;
	    }
#pragma omp section
	    {
	      set (&x[r]);
	      wait_for (&y[r]);
	      ran[r][1]++;
	    }
#pragma omp section
	    {
	      set (&z[r]);
	      ran[r][2]++;
	    }
	  }
	}
      else
	{
#pragma omp parallel
	  {
#pragma omp sections nowait
	    {
#pragma omp section
	      {
		set (&z[r]);
		ran[r][2]++;
	      }
#pragma omp section
	      {
		set (&x[r]);
		wait_for (&y[r]);
		ran[r][1]++;
	      }
#pragma omp section
	      {
		wait_for (&x[r]);
		set (&y[r]);
		ran[r][0]++;
	      }
	    }
	  }
	}
    }
  for (int r = 0; r < ROUNDS; r++)
    for (int s = 0; s < 3; s++)
      if (ran[r][s] != 1 || !x[r] || !y[r] || !z[r])
	{
	  printf ("round %d: section %d ran %d times\n", r, s, ran[r][s]);
	  return 1;
	}
  puts ("ok");
  return 0;
}
