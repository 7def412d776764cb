/* Rank 1 runs the same source built without the plugin, on our runtime
   (plain gcc -fopenmp linked against lib/libgomp.so.1): it refuses to run
   and never starts MPI, so rank 0 would wait in MPI_Init_thread for ever.
   Rank 0 gives up after OMPC_HEARTBEAT seconds (5 by default) naming the
   cause and the fix; the job fails, nothing is left running.  */
/* ompc-nodes: 2x1 */
/* ompc-run: gcc -fopenmp -I%build/include %src -o %exe.plain -L%build/lib -Wl,-rpath,%build/lib -Wl,--disable-new-dtags && OMP_NUM_THREADS=%threads mpiexec -n 1 %exe : -n 1 %exe.plain; st=$?; rm -f %exe.plain; exit $st */
/* ompc-exit: 1 */
/* ompc-output: rank 0: fatal error: MPI_Init_thread has waited 5 s */
/* ompc-output: not compiled with the ompcluster plugin */
/* ompc-output: Rebuild the program with bin/ompcc */
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
