// C++ containers across nodes: memory that the program's own code and
// libstdc++.so allocate through operator new (std::vector, std::string,
// std::to_string, std::map, shared_ptr) must come from the shared heap, so
// that every node reads the same objects; aligned and nothrow new and
// exceptions inside a region work too.
/* ompc-nodes: 1 1x2 2x1 2x2 3x1 */
/* ompc-timeout: 120 */
#include <omp.h>
#include <cstdint>
#include <cstdio>
#include <map>
#include <memory>
#include <new>
#include <stdexcept>
#include <string>
#include <vector>

struct alignas (64) Cell
{
  double v[8];
  Cell () { for (auto &x : v) x = 0.5; }
};

int
main ()
{
  const long n = 200000;
  std::vector<double> a (n), b (n);
#pragma omp parallel for
  for (long i = 0; i < n; i++)
    {
      a[i] = i;
      b[i] = 2.0 * i;
    }
  double dot = 0;
#pragma omp parallel for reduction(+ : dot)
  for (long i = 0; i < n; i++)
    dot += a[i] * b[i] / n;

  // Strings whose text libstdc++.so allocates (to_string, operator+).
  std::vector<std::string> names;
  std::map<int, std::string> byid;
  for (int i = 0; i < 64; i++)
    {
      names.push_back ("the name of item number " + std::to_string (i));
      byid[i * 7] = names.back () + " in the map";
    }
  auto shared = std::make_shared<std::vector<int>> (1000, 3);

  int threads = 0;
  long bad = 0;
  std::vector<std::vector<long>> made;
#pragma omp parallel reduction(+ : bad)
  {
#pragma omp single
    {
      threads = omp_get_num_threads ();
      made.resize (threads);
    }
    int t = omp_get_thread_num ();
#pragma omp for
    for (int i = 0; i < 64; i++)
      {
	std::string want = "the name of item number " + std::to_string (i);
	if (names[i] != want || byid.at (i * 7) != want + " in the map")
	  bad++;
      }
    // Each thread's own allocations, read by the master after the region.
    for (long k = 0; k < 1000 + t; k++)
      made[t].push_back (k * t);
    std::shared_ptr<std::vector<int>> mine = shared;
    long s = 0;
    for (int x : *mine)
      s += x;
    if (s != 3000)
      bad++;
    Cell *c = new Cell[33];
    if ((uintptr_t) c % 64 != 0 || c[32].v[7] != 0.5)
      bad++;
    delete[] c;
    int *q = new (std::nothrow) int[100];
    if (!q)
      bad++;
    delete[] q;
    try
      {
	if (t >= 0)
	  throw std::runtime_error ("thrown by thread " + std::to_string (t));
      }
    catch (const std::runtime_error &e)
      {
	if (std::string (e.what ()) != "thrown by thread " + std::to_string (t))
	  bad++;
      }
  }
  for (int t = 0; t < threads; t++)
    {
      if (made[t].size () != (size_t) (1000 + t))
	bad++;
      else if (made[t][999] != 999L * t)
	bad++;
    }
  if (shared.use_count () != 1)
    bad++;
  double want = 2.0 * ((double) (n - 1) * n * (2 * n - 1) / 6) / n;
  if (dot < want * (1 - 1e-12) || dot > want * (1 + 1e-12))
    bad++;
  std::printf ("%d threads, dot %.6e, %ld bad\n", threads, dot, bad);
  return bad != 0;
}
