/* common.h -- what the applications' OpenMP and MPI versions share: the
   clock, the random number generator, and the output format.

   Every program prints, on the process that runs main (rank 0):
     time SECONDS        the timed part (the kernel, not set-up or checks)
     check VALUE         a number the driver compares across versions
     verified yes|no ... its own check of the result
   and MPI versions also "mpi_bytes N" and "mpi_msgs N" (see mpicount.h).  */

#ifndef BENCH_COMMON_H
#define BENCH_COMMON_H 1

#include <stdint.h>
#include <time.h>

static inline double
bench_now (void)
{
  struct timespec ts;
  clock_gettime (CLOCK_MONOTONIC, &ts);
  return ts.tv_sec + ts.tv_nsec * 1e-9;
}

/* NPB's linear congruential generator: x(k+1) = 5^13 x(k) mod 2^46, values
   x / 2^46 in (0, 1).  Computed in 128-bit integers; bench_rand_skip jumps
   N steps ahead so that any block of the sequence can be generated
   independently (by any thread, rank or node).  */
#define BENCH_RAND_A 1220703125ULL	/* 5^13 */
#define BENCH_RAND_MASK ((1ULL << 46) - 1)
#define BENCH_RAND_SEED 314159265ULL

static inline uint64_t
bench_mulmod46 (uint64_t a, uint64_t b)
{
  return (uint64_t) (((unsigned __int128) a * b) & BENCH_RAND_MASK);
}

static inline uint64_t
bench_rand_skip (uint64_t x, uint64_t n)
{
  uint64_t a = BENCH_RAND_A;
  while (n)
    {
      if (n & 1)
	x = bench_mulmod46 (x, a);
      a = bench_mulmod46 (a, a);
      n >>= 1;
    }
  return x;
}

static inline double
bench_rand (uint64_t *x)
{
  *x = bench_mulmod46 (*x, BENCH_RAND_A);
  return (double) *x * (1.0 / (double) (1ULL << 46));
}

#endif /* BENCH_COMMON_H */
