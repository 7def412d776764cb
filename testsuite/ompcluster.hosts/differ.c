/* differ.c -- for hosts.exp: compiled twice with bin/ompcc, with PAD 1 and
   with PAD large (a bigger shared global and more code before main, so the
   shared segment and the program's code lie elsewhere).  Run on a virtual
   cluster where one host sees the second binary at the first one's path
   (vcluster run --bind), the runtime must refuse to start, naming what
   differs.  Run alone, it counts the threads of one parallel region.  */

#include <stdio.h>

#ifndef PAD
#define PAD 1
#endif

char pad[PAD] = { 1 };
int counter;

#if PAD > 1
/* More code in front of main.  */
int __attribute__ ((noinline, used))
differ_extra (int x)
{
  volatile int v[64];
  for (int i = 0; i < 64; i++)
    v[i] = x * i;
  return v[x & 63] + v[(x + 7) & 63];
}
#endif

int
main (void)
{
#pragma omp parallel
  {
#pragma omp atomic
    counter++;
  }
  printf ("counter %d pad %d\n", counter, pad[0]);
  return 0;
}
