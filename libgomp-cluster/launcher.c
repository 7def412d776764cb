/* launcher.c -- what the launcher (hydra's mpiexec, Open MPI, PMIx,
   Slurm's srun) tells each process it started through the environment:
   how many ranks, this one's number, hydra's PMI descriptor.  With env.c,
   the only reader of the environment.  */

#include "libgomp.h"
#include <limits.h>
#include <stdlib.h>

/* The number of ranks the launcher started, from the environment it gives
   each rank: hydra and PMI-2 launchers set PMI_SIZE, Open MPI
   OMPI_COMM_WORLD_SIZE, PMIx PMIX_SIZE; a task started by Slurm's srun
   has SLURM_PROCID and SLURM_STEP_NUM_TASKS (a batch script's own shell
   has SLURM_NTASKS too, but is one process: it counts as no launcher).
   1 when there is no launcher.  */
static int
gomp_env_count (const char *name)
{
  const char *v = getenv (name);
  if (v && *v)
    {
      long n = strtol (v, NULL, 10);
      if (n >= 1 && n < INT_MAX)
	return (int) n;
    }
  return 0;
}

int
gomp_launcher_size (void)
{
  static const char *const vars[] =
    { "PMI_SIZE", "OMPI_COMM_WORLD_SIZE", "PMIX_SIZE" };
  int n;
  for (size_t i = 0; i < sizeof vars / sizeof vars[0]; i++)
    if ((n = gomp_env_count (vars[i])))
      return n;
  if (getenv ("SLURM_PROCID")
      && ((n = gomp_env_count ("SLURM_STEP_NUM_TASKS"))
	  || (n = gomp_env_count ("SLURM_NTASKS"))))
    return n;
  return 1;
}

/* This process's rank among those the launcher started (the variables of
   gomp_launcher_size); -1 when no variable says.  */
int
gomp_launcher_rank (void)
{
  static const char *const vars[] =
    { "PMI_RANK", "OMPI_COMM_WORLD_RANK", "PMIX_RANK", "SLURM_PROCID" };
  for (size_t i = 0; i < sizeof vars / sizeof vars[0]; i++)
    {
      const char *v = getenv (vars[i]);
      if (v && *v)
	return (int) strtol (v, NULL, 10);
    }
  return -1;
}

/* Hydra's PMI-1 descriptor (PMI_FD), on which the cluster module says
   that this rank finalised; -1 with another launcher.  Hydra's proxies
   set MPI_LOCALNRANKS (and HYDI_CONTROL_FD when mpiexec forked them
   itself); Slurm's PMI-2 speaks another protocol on its PMI_FD.  */
int
gomp_launcher_pmi_fd (void)
{
  const char *fd_s = getenv ("PMI_FD");
  if (!fd_s || !*fd_s
      || (!getenv ("MPI_LOCALNRANKS") && !getenv ("HYDI_CONTROL_FD")))
    return -1;
  return atoi (fd_s);
}
