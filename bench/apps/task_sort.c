/* task_sort.c -- merge sort of N 32-bit keys by recursive tasks, in the
   manner of BOTS sort: halves sorted by two tasks down to CUTOFF keys
   (then a sequential sort), merged after a taskwait by the parent,
   itself split in two tasks around the median of the larger half.
   Checked: sorted, and the same multiset (sum and xor of the keys).
   Usage: task_sort [N [CUTOFF]].  */

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "common.h"

static long cutoff;

static int
cmp (const void *a, const void *b)
{
  unsigned x = *(const unsigned *) a, y = *(const unsigned *) b;
  return (x > y) - (x < y);
}

/* The first index of A[0..N) whose key is >= K.  */
static long
lower (const unsigned *a, long n, unsigned k)
{
  long lo = 0, hi = n;
  while (lo < hi)
    {
      long mid = (lo + hi) / 2;
      if (a[mid] < k)
	lo = mid + 1;
      else
	hi = mid;
    }
  return lo;
}

/* Merges sorted A[0..NA) and B[0..NB) into OUT.  */
static void
merge (const unsigned *a, long na, const unsigned *b, long nb, unsigned *out)
{
  if (na + nb <= cutoff)
    {
      long i = 0, j = 0, o = 0;
      while (i < na && j < nb)
	out[o++] = a[i] <= b[j] ? a[i++] : b[j++];
      memcpy (out + o, a + i, (na - i) * sizeof *a);
      memcpy (out + o + na - i, b + j, (nb - j) * sizeof *b);
      return;
    }
  if (na < nb)
    {
      const unsigned *t = a;
      a = b;
      b = t;
      long tn = na;
      na = nb;
      nb = tn;
    }
  long ma = na / 2;
  long mb = lower (b, nb, a[ma]);
#pragma omp task firstprivate(a, b, ma, mb, out)
  merge (a, ma, b, mb, out);
#pragma omp task firstprivate(a, b, ma, mb, na, nb, out)
  merge (a + ma, na - ma, b + mb, nb - mb, out + ma + mb);
#pragma omp taskwait
}

/* Sorts A[0..N) using TMP[0..N).  */
static void
sort (unsigned *a, unsigned *tmp, long n)
{
  if (n <= cutoff)
    {
      qsort (a, n, sizeof *a, cmp);
      return;
    }
  long h = n / 2;
#pragma omp task firstprivate(a, tmp, h)
  sort (a, tmp, h);
#pragma omp task firstprivate(a, tmp, h, n)
  sort (a + h, tmp + h, n - h);
#pragma omp taskwait
  merge (a, h, a + h, n - h, tmp);
  memcpy (a, tmp, n * sizeof *a);
}

int
main (int argc, char **argv)
{
  long n = argc > 1 ? atol (argv[1]) : 64L << 20;
  cutoff = argc > 2 ? atol (argv[2]) : 64L << 10;
  unsigned *a = malloc (n * sizeof *a), *tmp = malloc (n * sizeof *tmp);
  if (!a || !tmp)
    return 2;
  uint64_t x = BENCH_RAND_SEED, sum = 0;
  unsigned xr = 0;
  for (long i = 0; i < n; i++)
    {
      x = bench_mulmod46 (x, BENCH_RAND_A);
      a[i] = (unsigned) (x >> 14);
      sum += a[i];
      xr ^= a[i];
    }
  double t0 = bench_now ();
#pragma omp parallel
#pragma omp single
  sort (a, tmp, n);
  double t = bench_now () - t0;
  uint64_t sum2 = 0;
  unsigned xr2 = 0;
  int good = 1;
  for (long i = 0; i < n; i++)
    {
      sum2 += a[i];
      xr2 ^= a[i];
      if (i && a[i - 1] > a[i])
	good = 0;
    }
  good = good && sum2 == sum && xr2 == xr;
  printf ("time %.6f\ncheck %lu\nverified %s\n", t, (unsigned long) sum2,
	  good ? "yes" : "no");
  return !good;
}
