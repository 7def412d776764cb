/* ^C (SIGINT to mpiexec, as a terminal sends it) while the job computes:
   the launcher forwards it to every rank, the job ends at once with a
   non-zero status naming the signal, and nothing is left running.  The
   interrupt comes once every rank runs the cluster module: one sent
   about 0.3 s after the start (while the ranks are in MPI_Init) can end
   the job with status 0 and no message: hydra's, seen with a plain MPICH
   program too.  */
/* ompc-nodes: 2x1 2x2 */
/* ompc-run: OMP_NUM_THREADS=%threads %build/bin/ompcrun -n %nodes %exe & job=$!; for i in $(seq 100); do n=0; for p in $(pgrep -f %exe); do grep -q ompcluster-mpi /proc/$p/maps 2>/dev/null && n=$((n + 1)); done; [ $n -ge %nodes ] && break; sleep 0.1; done; [ $n -ge %nodes ] || { echo ranks not found; kill $job; exit 99; }; sleep 1; kill -INT $job; t0=$(date +%s); wait $job; st=$?; echo "job ended $(( $(date +%s) - t0 )) s after the interrupt, status $st"; exit $st */
/* ompc-exit: 2 */
/* ompc-output: Interrupt \(signal 2\) */
/* ompc-output: job ended [0-9] s after the interrupt */
/* ompc-no-output: not reached */
/* ompc-timeout: 30 */
#include <omp.h>
#include <stdio.h>
#include <unistd.h>

int
main (void)
{
  volatile int stop = 0;
  for (int i = 0; i < 600 && !stop; i++)
    {
#pragma omp parallel
      {
	usleep (50000);
      }
    }
  printf ("not reached\n");
  return 0;
}
