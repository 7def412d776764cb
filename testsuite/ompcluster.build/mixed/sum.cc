// sum.cc -- the C++ part of the mixed program (see main.c): copies the
// array into a std::vector (operator new: the shared heap) and sums it in
// a parallel loop.
#include <vector>

extern "C" double
cxx_sum (const double *x, int n)
{
  std::vector<double> v (x, x + n);
  double s = 0;
#pragma omp parallel for reduction(+ : s)
  for (int i = 0; i < n; i++)
    s += v[i];
  return s;
}
