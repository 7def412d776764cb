/* task_uts.c -- an unbalanced tree search in the manner of BOTS uts: a
   tree whose shape only a hash of each node's identity decides (so any
   thread may expand any node), one task per node, each node costing
   WORK rounds of the hash; counts the nodes.  A node at depth d < DEPTH
   has between 0 and 2 * B(d) - 1 children, B(d) = 4 near the root and
   smaller below, so subtrees differ widely in size.  Checked against a
   sequential traversal.  Usage: task_uts [DEPTH [WORK]].  */

#include <stdio.h>
#include <stdlib.h>
#include "common.h"

static int max_depth, work;

static uint64_t
mix (uint64_t z)
{
  z += 0x9e3779b97f4a7c15ULL;
  z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
  z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
  return z ^ (z >> 31);
}

/* The node's own work and its number of children.  */
static int
expand (uint64_t id, int depth, uint64_t *h)
{
  uint64_t z = id;
  for (int i = 0; i < work; i++)
    z = mix (z);
  *h = z;
  if (depth >= max_depth)
    return 0;
  int b = depth < 2 ? 6 : 3;
  return (int) (z % (uint64_t) (2 * b));
}

static long
visit_seq (uint64_t id, int depth)
{
  uint64_t h;
  int nc = expand (id, depth, &h);
  long n = 1;
  for (int c = 0; c < nc; c++)
    n += visit_seq (mix (h + (uint64_t) c), depth + 1);
  return n;
}

static long
visit (uint64_t id, int depth)
{
  uint64_t h;
  int nc = expand (id, depth, &h);
  long cnt[16];
  for (int c = 0; c < nc; c++)
    {
      uint64_t cid = mix (h + (uint64_t) c);
#pragma omp task firstprivate(cid, depth, c) shared(cnt)
      cnt[c] = visit (cid, depth + 1);
    }
#pragma omp taskwait
  long n = 1;
  for (int c = 0; c < nc; c++)
    n += cnt[c];
  return n;
}

int
main (int argc, char **argv)
{
  max_depth = argc > 1 ? atoi (argv[1]) : 13;
  work = argc > 2 ? atoi (argv[2]) : 2000;
  long r = 0;
  double t0 = bench_now ();
#pragma omp parallel
#pragma omp single
  r = visit (BENCH_RAND_SEED, 0);
  double t = bench_now () - t0;
  long s = visit_seq (BENCH_RAND_SEED, 0);
  printf ("time %.6f\ncheck %ld\nverified %s\n", t, r, r == s ? "yes" : "no");
  return r != s;
}
