/* plugbench.c -- kernels whose speed the ompcluster plugin's rewrites can
   change at one node: built once with the plugin (bin/ompcc) and once
   without (plain gcc -fopenmp on the same runtime) by run.sh, which
   compares the two.

     plugbench KERNEL [N]     prints "KERNEL THREADS NS_PER_OP"

   Kernels:
     atomic-int     omp atomic x += 1 on one shared int, N per thread
     atomic-double  omp atomic x += 1.0 on one shared double (CAS loop)
     reduction      N parallel-for reductions (+ on a double, 64 iterations)
     heap           N malloc/free pairs per thread, sizes 16 B to 4 KiB,
                    256 blocks live per thread, with a realloc and a calloc
                    every 16 operations
   The result is checked, so a broken build is reported, not timed.  */

#include <omp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

static int shared_int;
static double shared_double;

static double
now_ns (void)
{
  struct timespec ts;
  clock_gettime (CLOCK_MONOTONIC, &ts);
  return ts.tv_sec * 1e9 + ts.tv_nsec;
}

static long
atomic_int (long n)
{
  shared_int = 0;
#pragma omp parallel
  for (long i = 0; i < n; i++)
    {
#pragma omp atomic
      shared_int += 1;
    }
  return shared_int != (int) (n * omp_get_max_threads ());
}

static long
atomic_double (long n)
{
  shared_double = 0;
#pragma omp parallel
  for (long i = 0; i < n; i++)
    {
#pragma omp atomic
      shared_double += 1.0;
    }
  return shared_double != (double) n * omp_get_max_threads ();
}

static long
reduction (long n)
{
  long bad = 0;
  for (long r = 0; r < n; r++)
    {
      double sum = 0;
#pragma omp parallel for reduction(+ : sum)
      for (int i = 0; i < 64; i++)
	sum += i;
      bad += sum != 2016.0;
    }
  return bad;
}

static long
heap (long n)
{
  long bad = 0;
#pragma omp parallel reduction(+ : bad)
  {
    char *live[256] = { 0 };
    unsigned x = 12345 + omp_get_thread_num ();
    for (long i = 0; i < n; i++)
      {
	x = x * 1103515245 + 12345;
	unsigned slot = (x >> 8) & 255;
	size_t size = 16 + ((x >> 16) & 4095);
	if (live[slot] && live[slot][0] != (char) slot)
	  bad++;
	if (i % 16 == 5 && live[slot])
	  live[slot] = realloc (live[slot], size);
	else
	  {
	    free (live[slot]);
	    live[slot] = i % 16 == 9 ? calloc (1, size) : malloc (size);
	  }
	live[slot][0] = (char) slot;
      }
    for (int s = 0; s < 256; s++)
      free (live[s]);
  }
  return bad;
}

int
main (int argc, char **argv)
{
  static const struct { const char *name; long (*fn) (long); long n; } k[] = {
    { "atomic-int", atomic_int, 20000000 },
    { "atomic-double", atomic_double, 5000000 },
    { "reduction", reduction, 200000 },
    { "heap", heap, 5000000 },
  };
  if (argc < 2)
    {
      fprintf (stderr, "usage: plugbench KERNEL [N]\n");
      return 2;
    }
  for (size_t i = 0; i < sizeof k / sizeof k[0]; i++)
    if (strcmp (argv[1], k[i].name) == 0)
      {
	long n = argc > 2 ? atol (argv[2]) : k[i].n;
	k[i].fn (n / 100);		/* warm up */
	double t = now_ns ();
	long bad = k[i].fn (n);
	t = now_ns () - t;
	if (bad)
	  {
	    printf ("fail %s: wrong result\n", k[i].name);
	    return 1;
	  }
	printf ("%s %d %.3f\n", k[i].name, omp_get_max_threads (), t / n);
	return 0;
      }
  fprintf (stderr, "plugbench: unknown kernel %s\n", argv[1]);
  return 2;
}
