/* prog.c -- an ordinary OpenMP C program, as a user writes one, that
   install.sh compiles with plain gcc: a global and a heap array filled in
   one parallel loop and summed in another.  Prints "c: threads N ok", or
   "WRONG" and exits 1.  */
#include <omp.h>
#include <stdio.h>
#include <stdlib.h>

#define N 100000
static long squares[N];

int
main (void)
{
  long *twice = malloc (N * sizeof *twice), sum = 0, want = 0;
  int threads = 0;

#pragma omp parallel
  {
#pragma omp single
    threads = omp_get_num_threads ();
#pragma omp for
    for (long i = 0; i < N; i++)
      {
	squares[i] = i * i;
	twice[i] = 2 * i;
      }
  }
#pragma omp parallel for reduction(+ : sum)
  for (long i = 0; i < N; i++)
    sum += squares[i] + twice[i];
  for (long i = 0; i < N; i++)
    want += i * i + 2 * i;
  printf ("c: threads %d %s\n", threads, sum == want ? "ok" : "WRONG");
  free (twice);
  return sum != want;
}
