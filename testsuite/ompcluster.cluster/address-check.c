/* Ranks that do not see the same addresses (here: a library preloaded on
   one rank only) are refused at start-up with a message naming what
   differs, and the job fails instead of computing garbage.  */
/* ompc-do: compile */
/* ompc-check: out=$(OMP_NUM_THREADS=1 timeout -k 5 60 mpiexec -n 1 %exe : -n 1 -env LD_PRELOAD /lib/x86_64-linux-gnu/libm.so.6 %exe 2>&1); st=$?; echo "$out"; [ $st -ne 0 ] && [ $st -ne 124 ] && echo "$out" | grep -q 'do not see the same addresses' && echo "$out" | grep -q 'libc' */
#include <stdio.h>

int
main (void)
{
  int n = 0;
#pragma omp parallel reduction (+:n)
  n++;
  printf ("ran with %d threads: the address check did not fire\n", n);
  return 0;
}
