/* Rank 1 stopped from outside (SIGSTOP: a hung rank, a frozen host) while
   the job computes: nobody tells the launcher, so the runtime's heartbeat
   (cluster/heartbeat.c, OMPC_HEARTBEAT=5 by default) must end the job
   within 10 s of the stop, rank 0 naming rank 1 and its host, with status
   69; nothing is left running (the stopped rank included).  The run finds
   rank 1 by its PMI_RANK.  */
/* ompc-nodes: 2x1 2x2 */
/* ompc-run: OMP_NUM_THREADS=%threads %build/bin/ompcrun -n %nodes %exe & job=$!; for i in $(seq 100); do for p in $(pgrep -f %exe); do tr "\0" "\n" </proc/$p/environ 2>/dev/null | grep -qx PMI_RANK=1 && grep -q ompcluster-mpi /proc/$p/maps 2>/dev/null && victim=$p; done; [ -n "$victim" ] && break; sleep 0.1; done; [ -n "$victim" ] || { echo no rank 1 found; kill $job; exit 99; }; sleep 1; kill -STOP $victim; t0=$(date +%s); wait $job; st=$?; echo "job ended $(( $(date +%s) - t0 )) s after the stop, status $st"; exit $st */
/* ompc-exit: 69 */
/* ompc-output: rank 0: rank 1 on host [^ ]+ stopped answering \(nothing from it for [0-9.]+ s\) */
/* ompc-output: job ended [0-9] s after the stop */
/* ompc-no-output: not reached */
/* ompc-timeout: 40 */
#include <omp.h>
#include <stdio.h>
#include <unistd.h>

int
main (void)
{
  for (int i = 0; i < 600; i++)
    {
#pragma omp parallel
      {
	usleep (50000);
      }
    }
  printf ("not reached\n");
  return 0;
}
