/* A launcher that starts several processes without a process manager MPI
   can talk to (Slurm's srun --mpi=none, where MpiDefault is none) gives
   each task SLURM_PROCID and SLURM_STEP_NUM_TASKS but no PMI: every task
   would start MPI alone and run the whole program by itself.  The
   runtime refuses, saying what to do, instead of running it twice.  Here
   one process with the environment srun gives task 0 of 2 (make
   check-slurm runs the real srun --mpi=none).  */
/* ompc-nodes: 1 */
/* ompc-run: SLURM_PROCID=0 SLURM_STEP_NUM_TASKS=2 %exe */
/* ompc-exit: 1 */
/* ompc-output: the launcher started 2 processes but MPI joined 1 of them */
/* ompc-output: srun --mpi=pmi2 */
/* ompc-no-output: ran alone */
/* ompc-within: 10 */
/* ompc-timeout: 20 */
#include <stdio.h>

int
main (void)
{
  int n = 0;
#pragma omp parallel reduction(+ : n)
  n++;
  printf ("ran alone with %d threads\n", n);
  return 0;
}
