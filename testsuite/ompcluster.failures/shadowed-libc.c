/* A program that defines its own global read() and write() (Rodinia's
   myocyte does, for files of floats): MPI, UCX and hwloc would call them
   in place of the C library's, since the executable comes first in the
   dynamic linker's search.  On several nodes rank 0 says so once, naming
   the function, and the job fails before it starts (it used to die
   somewhere in MPI's start with the program's own messages); the
   message itself goes out by the system call, not through the program's
   write().  One node runs the program as it is (shadowed-libc-1.c).  */
/* ompc-nodes: 2x1 3x1 */
/* ompc-exit: 1 */
/* ompc-output: not supported: the program defines its own function read\(\), which the MPI, UCX and hwloc libraries */
/* ompc-no-output: not supported(.|\n)*not supported */
/* ompc-no-output: the program's (read|write) ran */
/* ompc-no-output: sum= */
/* ompc-within: 10 */
/* ompc-timeout: 20 */
#include <stdio.h>

void
write (char *name, float *v, int n)
{
  (void) name;
  (void) v;
  (void) n;
  fprintf (stderr, "the program's write ran\n");
}

void
read (char *name, float *v, int n)
{
  (void) name;
  (void) v;
  (void) n;
  fprintf (stderr, "the program's read ran\n");
}

int
main (void)
{
  long sum = 0;
#pragma omp parallel for reduction(+:sum)
  for (int i = 0; i < 100; i++)
    sum += i;
  printf ("sum=%ld\n", sum);
  return sum != 4950;
}
