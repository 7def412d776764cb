// prog.cc -- an ordinary OpenMP C++ program that install.sh compiles with
// plain g++: a std::vector (operator new) filled and summed in parallel
// loops.  Prints "c++: threads N ok", or "WRONG" and exits 1.
#include <omp.h>
#include <cstdio>
#include <vector>

int
main ()
{
  const long n = 100000;
  std::vector<long> v (n);
  long sum = 0, want = 0;
  int threads = 0;

#pragma omp parallel
  {
#pragma omp single
    threads = omp_get_num_threads ();
#pragma omp for
    for (long i = 0; i < n; i++)
      v[i] = 3 * i + 1;
  }
#pragma omp parallel for reduction(+ : sum)
  for (long i = 0; i < n; i++)
    sum += v[i];
  for (long i = 0; i < n; i++)
    want += 3 * i + 1;
  std::printf ("c++: threads %d %s\n", threads, sum == want ? "ok" : "WRONG");
  return sum != want;
}
