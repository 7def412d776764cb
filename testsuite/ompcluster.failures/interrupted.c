/* ^C (SIGINT to mpiexec, as a terminal sends it) while the job computes:
   the launcher forwards it to every rank, the job ends at once with a
   non-zero status naming the signal, and nothing is left running.  The
   interrupt comes once every rank has run a region (the program prints
   "running" after its first one).  Hydra 4.0.2 itself sometimes ends a
   job interrupted so with status 0 and no message: 2 runs of 8 with a
   plain MPICH program (mpi-finalize.c hold, ^C after 1.5 s), 1 of 5 with
   ours, 2 of 8 at 2x2 in make check under load, and later 25 of 56 at
   2x2 on a quiet machine (four tries in a row then failed once in a full
   make check); such a run is retried, up to eight tries in all.  */
/* ompc-nodes: 2x1 2x2 */
/* ompc-run: out=%exe.out; for try in 1 2 3 4 5 6 7 8; do OMP_NUM_THREADS=%threads %build/bin/ompcrun -n %nodes %exe >$out 2>&1 & job=$!; for i in $(seq 200); do grep -q '^running' $out && break; sleep 0.1; done; grep -q '^running' $out || { cat $out; echo not running; kill $job; exit 99; }; sleep 0.5; kill -INT $job; t0=$(date +%s); wait $job; st=$?; cat $out; [ $st = 0 ] && ! grep -q Interrupt $out && [ $try -lt 8 ] && { echo "(hydra's status-0 ^C: once more)"; continue; }; break; done; rm -f $out; echo "job ended $(( $(date +%s) - t0 )) s after the interrupt, status $st"; exit $st */
/* ompc-exit: 2 */
/* ompc-output: Interrupt \(signal 2\) */
/* ompc-output: job ended [0-9] s after the interrupt */
/* ompc-no-output: not reached */
/* ompc-timeout: 60 */
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
      if (i == 0)
	{
	  printf ("running\n");
	  fflush (stdout);
	}
    }
  printf ("not reached\n");
  return 0;
}
