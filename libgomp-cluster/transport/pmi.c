/* pmi.c -- ending a rank under Slurm's process manager.

   MPICH's MPI_Abort sends "cmd=abort" on the PMI-1 connection to its
   process manager and then waits for an answer.  Hydra answers by killing
   the job; Slurm's slurmstepd (srun --mpi=pmi2, which serves MPICH's
   PMI-1 too) sends none: it kills the step with SIGKILL, and while the
   step is already ending (scancel, srun -K after another rank failed, a
   node declared down, a time limit) it ignores the request, so the rank
   waited in MPI_Abort until Slurm's SIGKILL, KillWait seconds later, and
   its status was lost (srun then reported the job with status 0 after a
   node failure).  Under Slurm the rank therefore sends the same request
   itself and leaves with its status at once: slurmstepd still ends the
   step, and srun sees the status.  Only what is async-signal-safe is used:
   this runs in the handler of a fatal signal too.  */

#include "transport.h"
#include <stdlib.h>
#include <unistd.h>

/* True when this rank's PMI connection is Slurm's: PMI_FD is set, and
   none of the variables hydra's proxies set is (MPI_LOCALNRANKS, or
   HYDI_CONTROL_FD when mpiexec forked the ranks itself); SLURM_STEP_ID
   says that slurmstepd started the rank.  */
static int
gomp_cl_pmi_slurm_fd (void)
{
  const char *fd_s = getenv ("PMI_FD");
  if (!fd_s || !*fd_s || getenv ("MPI_LOCALNRANKS")
      || getenv ("HYDI_CONTROL_FD") || !getenv ("SLURM_STEP_ID"))
    return -1;
  int fd = 0;
  for (; *fd_s >= '0' && *fd_s <= '9'; fd_s++)
    fd = fd * 10 + (*fd_s - '0');
  return *fd_s ? -1 : fd;
}

void
gomp_cl_pmi_abort (int status)
{
  int fd = gomp_cl_pmi_slurm_fd ();
  if (fd < 0)
    return;
  char cmd[48] = "cmd=abort exitcode=", digits[12];
  int n = 0, len = sizeof "cmd=abort exitcode=" - 1;
  unsigned v = status < 0 ? 0 : (unsigned) status;
  do
    digits[n++] = (char) ('0' + v % 10);
  while ((v /= 10) && n < (int) sizeof digits);
  while (n)
    cmd[len++] = digits[--n];
  cmd[len++] = '\n';
  if (write (fd, cmd, len) == len)
    _exit (status);
}
