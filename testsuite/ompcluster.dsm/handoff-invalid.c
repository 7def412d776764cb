/* A home hand-off to a node that no longer holds the block (dsm/
   migrate.c, take_home): node 1 alone writes NB blocks that node 0
   initialised, so that they move to node 1 after a few barriers.  From
   the third interval on, node 1 also takes a lock after node 0 wrote
   more blocks under it than a lock's token can name, which makes node 1
   drop every copy it holds (gomp_dsm_acquire_all).  At the barrier that
   hands the blocks over, node 1 then asks node 0 for the bytes of each
   block, one after the other, holding the block meanwhile, while node 0,
   out of the barrier first, reads the blocks from the last one down,
   holding each while it asks node 1 for it.  The hand-off request must
   not wait for the old home's lock then: both sides would wait for
   ever.  Every value is checked after every step.
   ompc-nodes: 2x1
   ompc-env: OMPC_STATS=1
   ompc-timeout: 180
   ompc-output: handoff-invalid ok
   ompc-output: homes moved [1-9]  */

#include <omp.h>
#include <stdio.h>

#define PAGE 4096
#define INTS (PAGE / (int) sizeof (int))
#define NB 512			/* Blocks handed over.  */
#define NBIG 17000		/* Blocks written under the lock: their
				   notices take more than 64 KiB.  */
#define STEPS 8

static int moved[NB][INTS] __attribute__ ((aligned (PAGE)));
static int big[NBIG][INTS] __attribute__ ((aligned (PAGE)));
static int turn;
static omp_lock_t lk;

static int
val (int s, int b, int k)
{
  return s * 1000003 + b * 131 + k;
}

int
main (void)
{
  long bad = 0;
  omp_init_lock (&lk);
  for (int b = 0; b < NB; b++)
    for (int k = 0; k < INTS; k++)
      moved[b][k] = -1;
  for (int b = 0; b < NBIG; b++)
    big[b][0] = b;
#pragma omp parallel num_threads(2) reduction(+ : bad)
  {
    int me = omp_get_thread_num ();
    for (int s = 0; s < STEPS; s++)
      {
	if (me == 1)
	  for (int b = 0; b < NB; b++)
	    for (int k = 0; k < INTS; k += 16)
	      moved[b][k] = val (s, b, k);
	if (s >= 2)
	  {
	    if (me == 0)
	      {
		int t = 0;
		while (t != s)
		  {
#pragma omp atomic read acquire
		    t = turn;
		  }
		omp_set_lock (&lk);
		for (int b = 0; b < NBIG; b++)
		  big[b][0] = val (s, b, 0);
		omp_unset_lock (&lk);
#pragma omp atomic write release
		turn = -s;
	      }
	    else
	      {
		/* Cached here, so that node 0's writes are announced.  */
		for (int b = 0; b < NBIG; b++)
		  bad += big[b][0] != (s == 2 ? b : val (s - 1, b, 0));
#pragma omp atomic write release
		turn = s;
		int t = 0;
		while (t != -s)
		  {
#pragma omp atomic read acquire
		    t = turn;
		  }
		omp_set_lock (&lk);
		bad += big[NBIG - 1][0] != val (s, NBIG - 1, 0);
		omp_unset_lock (&lk);
	      }
	  }
#pragma omp barrier
	if (me == 0)
	  for (int b = NB - 1; b >= 0; b--)
	    for (int k = 0; k < INTS; k++)
	      bad += moved[b][k] != (k % 16 ? -1 : val (s, b, k));
#pragma omp barrier
      }
  }
  omp_destroy_lock (&lk);
  if (bad)
    {
      printf ("handoff-invalid: %ld wrong values\n", bad);
      return 1;
    }
  printf ("handoff-invalid ok\n");
  return 0;
}
