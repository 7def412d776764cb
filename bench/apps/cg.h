/* cg.h -- the sparse matrix of the CG kernels (cg_omp.c, cg_mpi.c).

   A symmetric positive definite N x N matrix in ELLPACK form (CG_W entries a
   row): row i holds the diagonal and the columns i + d_k and i - d_k
   (mod N) for CG_M "random" offsets d_k, so every row reaches all over the
   vector as NPB CG's random matrix does.  An off-diagonal value belongs to
   its edge {i, i + d_k} and is the same seen from both ends; the diagonal
   exceeds the row's absolute sum by CG_SHIFT, which bounds the condition
   number (about 300) and makes CG converge in a predictable number of
   iterations.  Any row can be built alone, so each thread, node or rank
   builds its own.  */

#ifndef BENCH_CG_H
#define BENCH_CG_H 1

#include "common.h"

#define CG_M 7
#define CG_W (2 * CG_M + 1)
#define CG_SHIFT 1e-3

static inline long
cg_offset (long n, int k)
{
  uint64_t x = bench_rand_skip (BENCH_RAND_SEED, 1000 + k);
  return 1 + (long) ((double) x / (double) (1ULL << 46) * (double) (n / 2 - 1));
}

static inline double
cg_edge (long origin, int k)
{
  uint64_t h = (uint64_t) origin * 2654435761ULL + (uint64_t) k * 40503ULL;
  return -(0.1 + 0.9 * (double) (h % 1000) / 1000.0);
}

/* The right-hand side: not a multiple of the vector of ones, which is an
   eigenvector of A.  */
static inline double
cg_rhs (long i)
{
  return 0.5 + (double) ((i * 7919) % 1000) / 1000.0;
}

/* Row I of the N x N matrix into COL[CG_W] and VAL[CG_W].  */
static inline void
cg_row (long n, long i, int *col, double *val)
{
  double diag = CG_SHIFT;
  for (int k = 0; k < CG_M; k++)
    {
      long d = cg_offset (n, k);
      long up = (i + d) % n, down = (i - d + n) % n;
      col[2 * k] = (int) up;
      val[2 * k] = cg_edge (i, k);
      col[2 * k + 1] = (int) down;
      val[2 * k + 1] = cg_edge (down, k);
      diag -= val[2 * k] + val[2 * k + 1];
    }
  col[CG_W - 1] = (int) i;
  val[CG_W - 1] = diag;
}

#endif /* BENCH_CG_H */
