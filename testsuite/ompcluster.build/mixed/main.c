/* main.c -- the C part of a small mixed C/Fortran/C++ OpenMP program that
   the build-system tests configure and build: Fortran fills an array in a
   parallel loop (fill.f90), C++ sums it in another (sum.cc), C checks
   every element and the sum against its own serial computation.  Prints
   one line "mixed: threads N sum S ok" and exits 0, or "WRONG" and 1.  */

#include <math.h>
#include <omp.h>
#include <stdio.h>
#include <stdlib.h>

void fill (double *x, int n);
double cxx_sum (const double *x, int n);

int
main (void)
{
  int n = 100000, threads = 0, bad = 0;
  double *x = malloc (n * sizeof *x);
  double s, ref = 0;

  if (x == NULL)
    return 1;
  fill (x, n);
#pragma omp parallel
#pragma omp single
  threads = omp_get_num_threads ();
  s = cxx_sum (x, n);
  for (int i = 1; i <= n; i++)
    {
      double v = pow (sqrt ((double) i), 2.5);
      bad += x[i - 1] != v;
      ref += v;
    }
  bad += fabs (s - ref) > 1e-12 * ref;
  printf ("mixed: threads %d sum %.6e %s\n", threads, s, bad ? "WRONG" : "ok");
  free (x);
  return bad != 0;
}
