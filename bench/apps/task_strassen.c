/* task_strassen.c -- Strassen's matrix multiply with tasks, in the manner
   of BOTS strassen: C = A B for N x N doubles; each level splits the
   operands into quadrants and forms the seven products of Strassen's
   scheme, each in a task (down to DEPTH levels; below them sequentially),
   whose operand sums it builds itself in fresh buffers; below CUTOFF a
   plain blocked multiply.  One thread starts it (parallel + single).
   Checked entry by entry against the product computed directly for a
   sample of rows.  Usage: task_strassen [N [CUTOFF [DEPTH]]].  */

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "common.h"

static int cutoff, depth_max;

static double *
mat_new (int n)
{
  double *p = malloc ((size_t) n * n * sizeof *p);
  if (!p)
    {
      fprintf (stderr, "task_strassen: out of memory\n");
      exit (2);
    }
  return p;
}

/* C (n x n, row stride LDC) = A B, A and B with strides LDA and LDB.  */
static void
mul_plain (const double *a, int lda, const double *b, int ldb, double *c,
	   int ldc, int n)
{
  for (int i = 0; i < n; i++)
    {
      double *ci = c + (size_t) i * ldc;
      memset (ci, 0, n * sizeof *ci);
      for (int k = 0; k < n; k++)
	{
	  double v = a[(size_t) i * lda + k];
	  const double *bk = b + (size_t) k * ldb;
	  for (int j = 0; j < n; j++)
	    ci[j] += v * bk[j];
	}
    }
}

/* D (contiguous n x n) = X + SIGN Y, X and Y quadrant views.  */
static void
add (const double *x, int ldx, const double *y, int ldy, double sign,
     double *d, int n)
{
  for (int i = 0; i < n; i++)
    for (int j = 0; j < n; j++)
      d[(size_t) i * n + j] = x[(size_t) i * ldx + j]
			      + sign * y[(size_t) i * ldy + j];
}

/* D = X (contiguous copy of a quadrant view).  */
static void
copy (const double *x, int ldx, double *d, int n)
{
  for (int i = 0; i < n; i++)
    memcpy (d + (size_t) i * n, x + (size_t) i * ldx, n * sizeof *d);
}

static void strassen (const double *a, int lda, const double *b, int ldb,
		      double *c, int ldc, int n, int depth);

/* Product number K (1 to 7) of Strassen's scheme for the quadrants of
   A and B (half size H), into contiguous M.  */
static void
product (int k, const double *a, int lda, const double *b, int ldb,
	 double *m, int h, int depth)
{
  const double *a11 = a, *a12 = a + h, *a21 = a + (size_t) h * lda,
    *a22 = a21 + h;
  const double *b11 = b, *b12 = b + h, *b21 = b + (size_t) h * ldb,
    *b22 = b21 + h;
  double *s = mat_new (h), *t = mat_new (h);
  switch (k)
    {
    case 1:			/* (A11 + A22)(B11 + B22) */
      add (a11, lda, a22, lda, 1, s, h);
      add (b11, ldb, b22, ldb, 1, t, h);
      break;
    case 2:			/* (A21 + A22) B11 */
      add (a21, lda, a22, lda, 1, s, h);
      copy (b11, ldb, t, h);
      break;
    case 3:			/* A11 (B12 - B22) */
      copy (a11, lda, s, h);
      add (b12, ldb, b22, ldb, -1, t, h);
      break;
    case 4:			/* A22 (B21 - B11) */
      copy (a22, lda, s, h);
      add (b21, ldb, b11, ldb, -1, t, h);
      break;
    case 5:			/* (A11 + A12) B22 */
      add (a11, lda, a12, lda, 1, s, h);
      copy (b22, ldb, t, h);
      break;
    case 6:			/* (A21 - A11)(B11 + B12) */
      add (a21, lda, a11, lda, -1, s, h);
      add (b11, ldb, b12, ldb, 1, t, h);
      break;
    default:			/* (A12 - A22)(B21 + B22) */
      add (a12, lda, a22, lda, -1, s, h);
      add (b21, ldb, b22, ldb, 1, t, h);
      break;
    }
  strassen (s, h, t, h, m, h, h, depth);
  free (s);
  free (t);
}

static void
strassen (const double *a, int lda, const double *b, int ldb, double *c,
	  int ldc, int n, int depth)
{
  if (n <= cutoff || n % 2)
    {
      mul_plain (a, lda, b, ldb, c, ldc, n);
      return;
    }
  int h = n / 2;
  double *m[8];
  for (int k = 1; k <= 7; k++)
    m[k] = mat_new (h);
  if (depth < depth_max)
    {
      for (int k = 1; k <= 7; k++)
	{
#pragma omp task firstprivate(k, a, lda, b, ldb, h, depth) shared(m)
	  product (k, a, lda, b, ldb, m[k], h, depth + 1);
	}
#pragma omp taskwait
    }
  else
    for (int k = 1; k <= 7; k++)
      product (k, a, lda, b, ldb, m[k], h, depth + 1);
  for (int i = 0; i < h; i++)
    for (int j = 0; j < h; j++)
      {
	size_t e = (size_t) i * h + j;
	double m1 = m[1][e], m2 = m[2][e], m3 = m[3][e], m4 = m[4][e];
	double m5 = m[5][e], m6 = m[6][e], m7 = m[7][e];
	c[(size_t) i * ldc + j] = m1 + m4 - m5 + m7;
	c[(size_t) i * ldc + j + h] = m3 + m5;
	c[(size_t) (i + h) * ldc + j] = m2 + m4;
	c[(size_t) (i + h) * ldc + j + h] = m1 - m2 + m3 + m6;
      }
  for (int k = 1; k <= 7; k++)
    free (m[k]);
}

int
main (int argc, char **argv)
{
  int n = argc > 1 ? atoi (argv[1]) : 4096;
  cutoff = argc > 2 ? atoi (argv[2]) : 64;
  depth_max = argc > 3 ? atoi (argv[3]) : 3;
  if (n < 1 || cutoff < 1)
    return 2;
  double *a = mat_new (n), *b = mat_new (n), *c = mat_new (n);
  uint64_t x = BENCH_RAND_SEED;
  for (size_t e = 0; e < (size_t) n * n; e++)
    a[e] = bench_rand (&x) - 0.5;
  for (size_t e = 0; e < (size_t) n * n; e++)
    b[e] = bench_rand (&x) - 0.5;
  double t0 = bench_now ();
#pragma omp parallel
#pragma omp single
  strassen (a, n, b, n, c, n, n, 0);
  double t = bench_now () - t0;
  /* 32 rows, evenly spaced, against the direct product.  */
  double maxd = 0, sum = 0;
  for (int i = 0; i < n; i += n > 32 ? n / 32 : 1)
    for (int j = 0; j < n; j++)
      {
	double s = 0;
	for (int k = 0; k < n; k++)
	  s += a[(size_t) i * n + k] * b[(size_t) k * n + j];
	double d = fabs (c[(size_t) i * n + j] - s);
	if (d > maxd)
	  maxd = d;
      }
  for (size_t e = 0; e < (size_t) n * n; e++)
    sum += c[e];
  int good = maxd <= 1e-9 * n;
  printf ("time %.6f\ncheck %.10e\nverified %s (max difference %.3g)\n", t,
	  sum, good ? "yes" : "no", maxd);
  return !good;
}
