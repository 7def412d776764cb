/* task_nqueens.c -- the N queens problem, counting all solutions, in the
   manner of BOTS nqueens: a task per legal placement in the first CUTOFF
   rows, each with its own copy of the board, counting into its parent's
   array; below the cut-off a plain recursion.  Checked against the known
   counts.  Usage: task_nqueens [N [CUTOFF]].  */

#include <stdio.h>
#include <stdlib.h>
#include "common.h"

#define MAXN 20

struct board
{
  signed char col[MAXN];
};

static int
ok (const struct board *b, int row, int c)
{
  for (int i = 0; i < row; i++)
    {
      int d = b->col[i] - c;
      if (d == 0 || d == row - i || d == i - row)
	return 0;
    }
  return 1;
}

static long
count_seq (struct board *b, int n, int row)
{
  if (row == n)
    return 1;
  long s = 0;
  for (int c = 0; c < n; c++)
    if (ok (b, row, c))
      {
	b->col[row] = (signed char) c;
	s += count_seq (b, n, row + 1);
      }
  return s;
}

static long
count_task (struct board b, int n, int row, int cutoff)
{
  if (row >= cutoff)
    return count_seq (&b, n, row);
  long part[MAXN];
  for (int c = 0; c < n; c++)
    {
      part[c] = 0;
      if (!ok (&b, row, c))
	continue;
      struct board nb = b;
      nb.col[row] = (signed char) c;
#pragma omp task firstprivate(nb, c, n, row, cutoff) shared(part)
      part[c] = count_task (nb, n, row + 1, cutoff);
    }
#pragma omp taskwait
  long s = 0;
  for (int c = 0; c < n; c++)
    s += part[c];
  return s;
}

static const long known[] = { 1, 1, 0, 0, 2, 10, 4, 40, 92, 352, 724, 2680,
  14200, 73712, 365596, 2279184, 14772512 };

int
main (int argc, char **argv)
{
  int n = argc > 1 ? atoi (argv[1]) : 15;
  int cutoff = argc > 2 ? atoi (argv[2]) : 3;
  if (n < 1 || n > 16)
    {
      fprintf (stderr, "task_nqueens: N from 1 to 16\n");
      return 2;
    }
  long r = 0;
  struct board b = { { 0 } };
  double t0 = bench_now ();
#pragma omp parallel
#pragma omp single
  r = count_task (b, n, 0, cutoff);
  double t = bench_now () - t0;
  int good = r == known[n];
  printf ("time %.6f\ncheck %ld\nverified %s\n", t, r, good ? "yes" : "no");
  return !good;
}
