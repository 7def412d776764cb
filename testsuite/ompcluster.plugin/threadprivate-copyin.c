/* Threadprivate aggregates across nodes (OpenMP 5.1, 5.7.1 copyin and
   5.7.2 copyprivate): GCC hands the team the address of the master's (the
   single thread's) thread-local copy of an array or a struct; the plugin
   replaces it with a shared copy's address.  Scalars travel by value and
   are checked too.
   ompc-nodes: 1 1x2 2x1 2x2 3x1
   ompc-timeout: 60  */

#include <omp.h>
#include <stdio.h>

static int table[256];
static struct { int n; double d[5]; } rec;
static long scalar;
#pragma omp threadprivate (table, rec, scalar)

int
main (void)
{
  int errors = 0;
  for (int round = 1; round <= 3; round++)
    {
      for (int i = 0; i < 256; i++)
	table[i] = i * round;
      rec.n = round;
      rec.d[4] = 0.5 * round;
      scalar = 7 * round;
#pragma omp parallel copyin (table, rec, scalar) reduction (+:errors)
      {
	for (int i = 0; i < 256; i++)
	  errors += table[i] != i * round;
	errors += rec.n != round || rec.d[4] != 0.5 * round;
	errors += scalar != 7 * round;
	table[0] = rec.n = scalar = -1;
      }
    }

#pragma omp parallel reduction (+:errors)
  {
#pragma omp single copyprivate (table, rec)
    {
      for (int i = 0; i < 256; i++)
	table[i] = 1000 + i;
      rec.n = omp_get_thread_num () + 100;
    }
    for (int i = 0; i < 256; i++)
      errors += table[i] != 1000 + i;
    errors += rec.n < 100;
  }

  if (errors)
    {
      printf ("%d errors\n", errors);
      return 1;
    }
  puts ("OK");
  return 0;
}
