/* task_sparselu.c -- LU factorisation of a sparse blocked matrix, in the
   manner of BOTS sparselu (its "single" variant): NB x NB blocks of
   BS x BS doubles, some blocks empty; for each diagonal block one thread
   factors it (lu0) and creates a task per forward (fwd) and
   bottom-division (bdiv) block, then a task per block update (bmod),
   allocating fill-in blocks as it goes, with a taskwait after each phase.
   Checked against the same factorisation done sequentially.  Usage:
   task_sparselu [NB [BS]].  */

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "common.h"

static int nb, bs;

static double *
block_new (void)
{
  double *p = calloc ((size_t) bs * bs, sizeof *p);
  if (!p)
    {
      fprintf (stderr, "task_sparselu: out of memory\n");
      exit (2);
    }
  return p;
}

/* BOTS's sparsity pattern and values (its genmat's rule, our own code).  */
static void
genmat (double **m)
{
  uint64_t x = BENCH_RAND_SEED;
  for (int ii = 0; ii < nb; ii++)
    for (int jj = 0; jj < nb; jj++)
      {
	int null = 0;
	if (ii < jj && ii % 3 != 0)
	  null = 1;
	if (ii > jj && jj % 3 != 0)
	  null = 1;
	if (ii % 2 == 1)
	  null = 1;
	if (jj % 2 == 1)
	  null = 1;
	if (ii == jj)
	  null = 0;
	if (ii == jj - 1 || ii - 1 == jj)
	  null = 0;
	if (null)
	  {
	    m[ii * nb + jj] = NULL;
	    continue;
	  }
	double *p = block_new ();
	for (int k = 0; k < bs * bs; k++)
	  {
	    x = bench_mulmod46 (x, BENCH_RAND_A);
	    p[k] = (double) x / (double) (1ULL << 46) - 0.5;
	    if (k % (bs + 1) == 0)
	      p[k] += 4.0 * bs;	/* Diagonally dominant: stable without pivots.  */
	  }
	m[ii * nb + jj] = p;
      }
}

static void
lu0 (double *d)
{
  for (int k = 0; k < bs; k++)
    for (int i = k + 1; i < bs; i++)
      {
	d[i * bs + k] /= d[k * bs + k];
	for (int j = k + 1; j < bs; j++)
	  d[i * bs + j] -= d[i * bs + k] * d[k * bs + j];
      }
}

static void
fwd (const double *d, double *c)
{
  for (int k = 0; k < bs; k++)
    for (int i = k + 1; i < bs; i++)
      for (int j = 0; j < bs; j++)
	c[i * bs + j] -= d[i * bs + k] * c[k * bs + j];
}

static void
bdiv (const double *d, double *r)
{
  for (int i = 0; i < bs; i++)
    for (int k = 0; k < bs; k++)
      {
	r[i * bs + k] /= d[k * bs + k];
	for (int j = k + 1; j < bs; j++)
	  r[i * bs + j] -= r[i * bs + k] * d[k * bs + j];
      }
}

static void
bmod (const double *r, const double *c, double *a)
{
  for (int i = 0; i < bs; i++)
    for (int k = 0; k < bs; k++)
      {
	double v = r[i * bs + k];
	for (int j = 0; j < bs; j++)
	  a[i * bs + j] -= v * c[k * bs + j];
      }
}

static void
lu_tasks (double **m)
{
  for (int kk = 0; kk < nb; kk++)
    {
      lu0 (m[kk * nb + kk]);
      for (int jj = kk + 1; jj < nb; jj++)
	if (m[kk * nb + jj])
	  {
#pragma omp task firstprivate(kk, jj) shared(m, nb)
	    fwd (m[kk * nb + kk], m[kk * nb + jj]);
	  }
      for (int ii = kk + 1; ii < nb; ii++)
	if (m[ii * nb + kk])
	  {
#pragma omp task firstprivate(kk, ii) shared(m, nb)
	    bdiv (m[kk * nb + kk], m[ii * nb + kk]);
	  }
#pragma omp taskwait
      for (int ii = kk + 1; ii < nb; ii++)
	if (m[ii * nb + kk])
	  for (int jj = kk + 1; jj < nb; jj++)
	    if (m[kk * nb + jj])
	      {
		if (!m[ii * nb + jj])
		  m[ii * nb + jj] = block_new ();
#pragma omp task firstprivate(kk, jj, ii) shared(m, nb)
		bmod (m[ii * nb + kk], m[kk * nb + jj], m[ii * nb + jj]);
	      }
#pragma omp taskwait
    }
}

static void
lu_seq (double **m)
{
  for (int kk = 0; kk < nb; kk++)
    {
      lu0 (m[kk * nb + kk]);
      for (int jj = kk + 1; jj < nb; jj++)
	if (m[kk * nb + jj])
	  fwd (m[kk * nb + kk], m[kk * nb + jj]);
      for (int ii = kk + 1; ii < nb; ii++)
	if (m[ii * nb + kk])
	  bdiv (m[kk * nb + kk], m[ii * nb + kk]);
      for (int ii = kk + 1; ii < nb; ii++)
	if (m[ii * nb + kk])
	  for (int jj = kk + 1; jj < nb; jj++)
	    if (m[kk * nb + jj])
	      {
		if (!m[ii * nb + jj])
		  m[ii * nb + jj] = block_new ();
		bmod (m[ii * nb + kk], m[kk * nb + jj], m[ii * nb + jj]);
	      }
    }
}

int
main (int argc, char **argv)
{
  nb = argc > 1 ? atoi (argv[1]) : 70;
  bs = argc > 2 ? atoi (argv[2]) : 70;
  double **m = calloc ((size_t) nb * nb, sizeof *m);
  double **s = calloc ((size_t) nb * nb, sizeof *s);
  if (!m || !s)
    return 2;
  genmat (m);
  genmat (s);
  double t0 = bench_now ();
#pragma omp parallel
#pragma omp single
  lu_tasks (m);
  double t = bench_now () - t0;
  lu_seq (s);
  double maxd = 0, sum = 0;
  int shape = 1;
  for (int k = 0; k < nb * nb; k++)
    {
      if (!m[k] != !s[k])
	shape = 0;
      if (!m[k] || !s[k])
	continue;
      for (int e = 0; e < bs * bs; e++)
	{
	  double d = fabs (m[k][e] - s[k][e]);
	  if (d > maxd)
	    maxd = d;
	  sum += m[k][e];
	}
    }
  int good = shape && maxd <= 1e-9;
  printf ("time %.6f\ncheck %.10e\nverified %s (max difference %.3g)\n", t,
	  sum, good ? "yes" : "no", maxd);
  return !good;
}
