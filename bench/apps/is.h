/* is.h -- what the integer sort kernels (is_omp.c, is_mpi.c) share.

   N keys in [0, IS_MAXKEY), each the scaled mean of four numbers of NPB's
   generator (so they pile up in the middle, as NPB IS's do), sorted by
   buckets of 2^IS_SHIFT key values: count keys per bucket, scatter them to
   their bucket's place, then counting-sort each bucket range.  Before
   iteration IT two keys change (NPB's way of making every iteration sort
   new data).  As in NPB IS, one iteration runs untimed first (iteration
   -1, with iteration 0's changes), "to guarantee initialization of all
   data and code pages"; both kernels print its time as "warmup", and
   the report shows it beside the timed IS_ITERS.  */

#ifndef BENCH_IS_H
#define BENCH_IS_H 1

#include "common.h"

#define IS_LOG2_MAXKEY 20
#define IS_MAXKEY (1L << IS_LOG2_MAXKEY)
#define IS_NB 1024
#define IS_SHIFT (IS_LOG2_MAXKEY - 10)	/* Key >> IS_SHIFT: its bucket.  */
#define IS_ITERS 10

/* Keys LO..HI-1 of the sequence into KEY[0..HI-LO-1].  */
static inline void
is_keys (long lo, long hi, int *key)
{
  uint64_t x = bench_rand_skip (BENCH_RAND_SEED, 4 * lo);
  for (long i = lo; i < hi; i++)
    {
      double s = bench_rand (&x) + bench_rand (&x) + bench_rand (&x)
		 + bench_rand (&x);
      key[i - lo] = (int) (s * 0.25 * IS_MAXKEY);
    }
}

/* The weight of the key at sorted position I in the check value.  */
static inline long
is_weight (long i)
{
  return i % 1021;
}

#endif /* BENCH_IS_H */
