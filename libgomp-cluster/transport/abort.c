/* abort.c -- gomp_cl_abort_job, the one way the transport, the cluster
   module and the DSM end the whole job (MPI backend: MPI_Abort).  */

#include "transport.h"
#include <mpi.h>
#include <time.h>
#include <unistd.h>

void (*gomp_cl_abort_hook) (void);

/* Hydra kills the ranks as soon as one aborts, and the last lines of
   output (the reason) could be lost; over TCP (hosts launched through
   ssh) 0.1 s was sometimes not enough.  (gomp_fatal on the other ranks
   waits longer, 0.5 s, so that rank 0's abort ends them first.)  */
void
gomp_cl_abort_job (int status)
{
  if (gomp_cl_abort_hook)
    gomp_cl_abort_hook ();
  struct timespec ts = { 0, 300000000 };
  nanosleep (&ts, NULL);
  gomp_cl_pmi_abort (status);
  MPI_Abort (MPI_COMM_WORLD, status);
  _exit (status);
}
