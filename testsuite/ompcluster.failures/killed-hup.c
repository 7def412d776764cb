/* Rank 1 sent SIGHUP from outside while the job computes (UCX
   takes it as its debug signal,
   and keeps it for what the launcher sends): the rank names itself, the
   signal and its sender, and the job ends within 10 s of the kill with
   the shell's status for SIGHUP; nothing is left running.  */
/* ompc-nodes: 2x1 2x2 */
/* ompc-run: OMP_NUM_THREADS=%threads %build/bin/ompcrun -n %nodes %exe & job=$!; for i in $(seq 100); do for p in $(pgrep -f %exe); do tr "\0" "\n" </proc/$p/environ 2>/dev/null | grep -qx PMI_RANK=1 && grep -q ompcluster-mpi /proc/$p/maps 2>/dev/null && victim=$p; done; [ -n "$victim" ] && break; sleep 0.1; done; [ -n "$victim" ] || { echo no rank 1 found; kill $job; exit 99; }; sleep 1; kill -HUP $victim; t0=$(date +%s); wait $job; st=$?; echo "job ended $(( $(date +%s) - t0 )) s after the kill, status $st"; exit $st */
/* ompc-exit: 129 */
/* ompc-output: rank 1: fatal signal SIGHUP, sent by process [0-9]+; ending the job */
/* ompc-output: job ended [0-9] s after the kill */
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
