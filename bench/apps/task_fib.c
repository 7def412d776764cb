/* task_fib.c -- Fibonacci by recursive tasks with a depth cut-off, in the
   manner of BOTS fib: two tasks per call above the cut-off, a plain
   recursion below it; one thread creates the root (parallel + single).
   Checked against the closed iteration.  Usage: task_fib [N [CUTOFF]].  */

#include <stdio.h>
#include <stdlib.h>
#include "common.h"

static long
fib_seq (int n)
{
  return n < 2 ? n : fib_seq (n - 1) + fib_seq (n - 2);
}

static long
fib_task (int n, int depth, int cutoff)
{
  if (depth >= cutoff)
    return fib_seq (n);
  long x, y;
#pragma omp task shared(x) firstprivate(n, depth, cutoff)
  x = fib_task (n - 1, depth + 1, cutoff);
#pragma omp task shared(y) firstprivate(n, depth, cutoff)
  y = fib_task (n - 2, depth + 1, cutoff);
#pragma omp taskwait
  return x + y;
}

int
main (int argc, char **argv)
{
  int n = argc > 1 ? atoi (argv[1]) : 48;
  int cutoff = argc > 2 ? atoi (argv[2]) : 10;
  long r = 0;
  double t0 = bench_now ();
#pragma omp parallel
#pragma omp single
  r = fib_task (n, 0, cutoff);
  double t = bench_now () - t0;
  long a = 0, b = 1;
  for (int i = 0; i < n; i++)
    {
      long c = a + b;
      a = b;
      b = c;
    }
  printf ("time %.6f\ncheck %ld\nverified %s\n", t, r, r == a ? "yes" : "no");
  return r == a ? 0 : 1;
}
