/* Rank 0 runs the same source built with plain gcc -fopenmp on GCC's own
   libgomp: it runs the whole program by itself and exits.  Rank 1, built
   with the plugin, would wait in MPI_Init_thread for ever; it gives up
   after OMPC_HEARTBEAT seconds (here 3) naming the cause and the fix, and
   the job fails.  */
/* ompc-nodes: 2x1 */
/* ompc-run: gcc -fopenmp %src -o %exe.gcc && OMPC_HEARTBEAT=3 OMP_NUM_THREADS=%threads mpiexec -n 1 %exe.gcc : -n 1 %exe; st=$?; rm -f %exe.gcc; exit $st */
/* ompc-exit: 1 */
/* ompc-output: rank 1: fatal error: MPI_Init_thread has waited 3 s */
/* ompc-output: OMPC_HEARTBEAT=3 sets this limit */
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
