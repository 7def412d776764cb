/* An allocator with a memory pool shared by the threads of every node:
   the pool's count must stay exact however many nodes allocate at once.
   Each round every thread asks for one block of a pool that holds exactly
   two; exactly two must get one, and after the last round the whole pool
   must be free again.  */
/* ompc-nodes: 1 1x2 2x1 2x2 3x1 */
/* ompc-timeout: 120 */
#include <omp.h>
#include <stdio.h>
#include <stdlib.h>

#define ROUNDS 60
#define BLOCK 1000
/* What one block costs in the pool: the runtime's 32-byte header and
   room to align to 8 bytes.  */
#define COST (BLOCK + 32 + 7)

int
main (void)
{
  omp_alloctrait_t traits[2] = { { omp_atk_fallback, omp_atv_null_fb },
				 { omp_atk_pool_size, 2 * COST } };
  omp_allocator_handle_t a = omp_init_allocator (omp_default_mem_space, 2,
						 traits);
  if (a == omp_null_allocator)
    {
      printf ("omp_init_allocator failed\n");
      return 1;
    }
  int bad = 0, threads = 0;
#pragma omp parallel num_threads(4) reduction(+:bad)
  {
#pragma omp single
    threads = omp_get_num_threads ();
    for (int r = 0; r < ROUNDS; r++)
      {
	static int got;
#pragma omp single
	got = 0;
	char *p = omp_alloc (BLOCK, a);
	if (p)
	  {
	    p[0] = p[BLOCK - 1] = (char) r;
#pragma omp atomic
	    got++;
	  }
#pragma omp barrier
	int want = threads < 2 ? threads : 2;
	if (omp_get_thread_num () == 0 && got != want)
	  {
	    printf ("round %d: %d blocks of a two-block pool handed out "
		    "(%d threads)\n", r, got, threads);
	    bad++;
	  }
	omp_free (p, a);
#pragma omp barrier
      }
  }
  void *all = omp_alloc (2 * COST - 32 - 7, a);
  if (all == NULL)
    {
      printf ("the pool is not whole again after the last round\n");
      bad++;
    }
  omp_free (all, a);
  omp_destroy_allocator (a);
  printf ("%d threads, %d rounds, %d bad\n", threads, ROUNDS, bad);
  return bad != 0;
}
