/* Rank 1 runs another build of the program, one that differs in a string
   only, so that every address still agrees: the build IDs differ, and the
   job is refused at start-up, naming that, instead of running two
   programs as one.  */
/* ompc-nodes: 2x1 */
/* ompc-run: %build/bin/ompcc -DOTHER %src -o %exe.other && OMP_NUM_THREADS=%threads mpiexec -n 1 %exe : -n 1 %exe.other; st=$?; rm -f %exe.other; exit $st */
/* ompc-exit: 1 */
/* ompc-output: rank 0: fatal error: the ranks do not see the same addresses */
/* ompc-output: the program's build ID \(a different binary\) is 0x[0-9a-f]+ on rank 0 but 0x[0-9a-f]+ on rank 1 */
/* ompc-output: Run the same binary */
/* ompc-no-output: (ran|RAN) with */
/* ompc-within: 15 */
/* ompc-timeout: 30 */
#include <stdio.h>

#ifdef OTHER
#define SAID "RAN WITH"
#else
#define SAID "ran with"
#endif

int
main (void)
{
  int n = 0;
#pragma omp parallel reduction (+:n)
  n++;
  printf (SAID " %d threads\n", n);
  return 0;
}
