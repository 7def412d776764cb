/* bin/ompcrun with several nodes and an OpenMP program built with plain
   gcc -fopenmp (on GCC's libgomp, which knows nothing of ompcluster):
   ompcrun refuses it before starting any rank, instead of running the
   whole program once per node.  */
/* ompc-nodes: 2x1 3x1 */
/* ompc-run: gcc -fopenmp %src -o %exe.gcc && %build/bin/ompcrun -n %nodes -t %threads %exe.gcc; st=$?; rm -f %exe.gcc; exit $st */
/* ompc-exit: 1 */
/* ompc-output: ompcrun: \S+ was not compiled with the ompcluster plugin, so it cannot run on [23] nodes */
/* ompc-output: rebuild it with ompcc */
/* ompc-no-output: ran with */
/* ompc-within: 10 */
/* ompc-timeout: 30 */
#include <stdio.h>

int
main (void)
{
  int n = 0;
#pragma omp parallel reduction (+:n)
  n++;
  printf ("ran with %d threads\n", n);
  return 0;
}
