/* hosts-finalize.c -- MPI_Finalize for the benchmarks' plain MPI programs
   (floor.c, the applications' MPI twins) when bench/cluster/hosts.sh runs
   them across the hosts of a virtual cluster: preloaded into the ranks
   only (mpiexec -genv LD_PRELOAD).  MPICH 4.0.2 over UCX's TCP transport
   often hangs inside MPI_Finalize (docs/hosts.md, "MPI_Finalize hangs over
   TCP"), which would turn every run into a time-out; this ends a rank the
   way ompcluster's runtime ends its own (cluster/main.c): a last barrier,
   which a rank leaves only once its last message has arrived and its own
   sends are with the kernel, then _exit.  The programs call MPI_Finalize
   last, just before returning 0, and print nothing after it.  Hydra 4.0.2
   ends the job cleanly with the ranks' status.  */

#include <mpi.h>
#include <stdio.h>
#include <unistd.h>

int
MPI_Finalize (void)
{
  PMPI_Barrier (MPI_COMM_WORLD);
  fflush (NULL);
  _exit (0);
}
