/* OpenMP allocators: predefined ones, traits (alignment, pool size,
   fallbacks), calloc/realloc, the default-allocator ICV inherited by a
   team, the allocate clause (GOMP_alloc/GOMP_free).  */
/* ompc-compile: plain */
/* ompc-nodes: 1 1x2 1x4 */
/* ompc-timeout: 60 */
#include <omp.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

static int bad;
#define CHECK(c) do { if (!(c)) { printf ("%s:%d: %s\n", __FILE__, __LINE__, #c); bad = 1; } } while (0)

int
main (void)
{
  CHECK (omp_get_default_allocator () == omp_default_mem_alloc);
  int *p = omp_alloc (100 * sizeof (int), omp_default_mem_alloc);
  CHECK (p != NULL);
  for (int i = 0; i < 100; i++)
    p[i] = i;
  p = omp_realloc (p, 200 * sizeof (int), omp_default_mem_alloc,
		   omp_default_mem_alloc);
  CHECK (p != NULL && p[99] == 99);
  omp_free (p, omp_null_allocator);
  CHECK (omp_alloc (0, omp_default_mem_alloc) == NULL);

  int *z = omp_calloc (50, sizeof (int), omp_high_bw_mem_alloc);
  CHECK (z != NULL);
  for (int i = 0; i < 50; i++)
    CHECK (z[i] == 0);
  omp_free (z, omp_high_bw_mem_alloc);
  volatile size_t huge = SIZE_MAX / 2;
  CHECK (omp_calloc (huge, 4, omp_default_mem_alloc) == NULL);

  void *al = omp_aligned_alloc (256, 1000, omp_default_mem_alloc);
  CHECK (al != NULL && ((uintptr_t) al & 255) == 0);
  omp_free (al, omp_default_mem_alloc);

  /* A pool with null_fb: allocations beyond the pool fail.  */
  omp_alloctrait_t pool_traits[] = {
    { omp_atk_pool_size, 4096 }, { omp_atk_fallback, omp_atv_null_fb },
    { omp_atk_alignment, 64 } };
  omp_allocator_handle_t pool = omp_init_allocator (omp_default_mem_space,
						    3, pool_traits);
  CHECK (pool != omp_null_allocator);
  void *b1 = omp_alloc (2000, pool);
  void *b2 = omp_alloc (1500, pool);
  CHECK (b1 && b2 && ((uintptr_t) b1 & 63) == 0 && ((uintptr_t) b2 & 63) == 0);
  CHECK (omp_alloc (1500, pool) == NULL);
  omp_free (b1, pool);
  void *b3 = omp_alloc (1500, pool);
  CHECK (b3 != NULL);
  omp_free (b2, pool);
  omp_free (b3, pool);

  /* allocator_fb: falls back to the given allocator.  */
  omp_alloctrait_t fb_traits[] = {
    { omp_atk_pool_size, 128 }, { omp_atk_fallback, omp_atv_allocator_fb },
    { omp_atk_fb_data, omp_default_mem_alloc } };
  omp_allocator_handle_t fb = omp_init_allocator (omp_default_mem_space, 3,
						  fb_traits);
  CHECK (fb != omp_null_allocator);
  void *big = omp_alloc (100000, fb);
  CHECK (big != NULL);
  omp_free (big, fb);
  omp_destroy_allocator (fb);

  /* Invalid traits make no allocator.  */
  omp_alloctrait_t badtr[] = { { omp_atk_alignment, 3 } };
  CHECK (omp_init_allocator (omp_default_mem_space, 1, badtr)
	 == omp_null_allocator);

  /* def-allocator-var is inherited by the threads of a team.  */
  omp_set_default_allocator (pool);
  int wrong = 0;
  #pragma omp parallel reduction(+: wrong)
  wrong += omp_get_default_allocator () != pool;
  CHECK (wrong == 0);
  omp_set_default_allocator (omp_default_mem_alloc);

  /* The allocate clause.  */
  int x = 5, ok = 0;
  #pragma omp parallel firstprivate(x) allocate(pool: x) reduction(+: ok)
  ok += x == 5 && ((uintptr_t) &x & 63) == 0;
  CHECK (ok == omp_get_max_threads ());
  omp_destroy_allocator (pool);
  return bad;
}
