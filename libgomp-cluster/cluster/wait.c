/* wait.c -- waiting for MPI requests with back-off (transport.h's
   struct gomp_cl_backoff), so that idle ranks and oversubscribed nodes do
   not burn the processors their peers need.  MPICH busy-polls inside
   blocking calls; this module never makes one that can wait long.

   A thread that waits here is the node's MPI progress while it spins: it
   runs the transport's passes (serving other nodes' requests), so the
   service thread sleeps meanwhile and the node has one thread polling MPI,
   not two competing for MPICH's lock and for the processors.  */

#include "cluster-int.h"
#include <sched.h>
#include <stdlib.h>
#include <unistd.h>

/* While spinning, a waiter serves other nodes and watches the dispatch
   once in this many polls.  */
#define GOMP_CL_SERVE_EVERY 4

void
gomp_cl_wait_init (void)
{
  MPI_Comm local;
  int local_ranks = 1;
  cpu_set_t set;
  long cpus = sysconf (_SC_NPROCESSORS_ONLN);

  CPU_ZERO (&set);
  if (sched_getaffinity (0, sizeof set, &set) == 0)
    cpus = CPU_COUNT (&set);
  int local_rank = 0;
  bool unbound = false;
  if (MPI_Comm_split_type (MPI_COMM_WORLD, MPI_COMM_TYPE_SHARED, 0,
			   MPI_INFO_NULL, &local) == MPI_SUCCESS)
    {
      MPI_Comm_size (local, &local_ranks);
      MPI_Comm_rank (local, &local_rank);
      /* Did the launcher bind each rank to processors of its own?  Not
	 when they all have the same set.  */
      if (local_ranks > 1)
	{
	  cpu_set_t *all = calloc ((size_t) local_ranks, sizeof *all);
	  if (!all)
	    gomp_cl_fatal ("out of memory at start-up");
	  if (MPI_Allgather (&set, (int) sizeof set, MPI_BYTE, all,
			     (int) sizeof set, MPI_BYTE, local) == MPI_SUCCESS)
	    {
	      unbound = true;
	      for (int i = 1; i < local_ranks; i++)
		unbound = unbound && CPU_EQUAL (&all[i], &all[0]);
	    }
	  free (all);
	}
      MPI_Comm_free (&local);
    }
  gomp_cl_ops.local_ranks = local_ranks;
  gomp_cl_ops.local_rank = local_rank;
  gomp_cl_ops.local_unbound = unbound;
  /* The threads of every rank here (OMP_NUM_THREADS's first level;
     default: one per processor).  */
  long threads = cpus;
  if (gomp_cl_host->env.num_threads)
    threads = gomp_cl_host->env.num_threads;
  if (cpus > 0 && local_ranks > 1 && local_ranks * threads > cpus)
    gomp_cl_backoff_oversubscribed ();
}

double
gomp_cl_now (void)
{
  struct timespec ts;
  clock_gettime (CLOCK_MONOTONIC, &ts);
  return ts.tv_sec + ts.tv_nsec * 1e-9;
}

void
gomp_cl_wait (MPI_Request *req)
{
  struct gomp_cl_backoff b;
  int done = 0;
  bool polling = true;
  unsigned n = 0;

  gomp_cl_backoff_init (&b);
  gomp_cl_poller_enter ();
  for (;;)
    {
      gomp_cl_check_mpi (MPI_Test (req, &done, MPI_STATUS_IGNORE),
			 "MPI_Test");
      if (done)
	break;
      /* The rest costs MPI calls: while spinning, one poll in
	 GOMP_CL_SERVE_EVERY (MPI_Test drives MPI's progress anyway).  */
      if (polling && ++n % GOMP_CL_SERVE_EVERY != 0)
	{
	  gomp_cl_backoff_pause (&b);
	  continue;
	}
      if (gomp_cl_progress ())
	{
	  /* Serving another node (its faults, its locks): stay awake.  */
	  if (!polling)
	    gomp_cl_poller_enter ();
	  polling = true;
	  gomp_cl_backoff_init (&b);
	}
      if (gomp_cl_rank != 0)
	gomp_cl_dispatch_poll ();
      gomp_cl_backoff_pause (&b);
      if (polling && b.sleep_ns > 0)
	{
	  /* Sleeping from now on: the service thread serves.  */
	  gomp_cl_poller_leave ();
	  polling = false;
	}
    }
  if (polling)
    gomp_cl_poller_leave ();
}
