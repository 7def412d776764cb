/* shadowed-libc.c's program on one node: its own read() and write()
   never stand in for anything, and it runs as with GCC's libgomp.  */
/* ompc-output: sum=4950 */
/* ompc-no-output: the program's (read|write) ran */
/* ompc-nodes: 1 1x2 */
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
