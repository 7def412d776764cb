/* report.c -- the sharing report (OMPC_REPORT=file.html) at the cluster
   level: turning it on at start-up, and at the end of the job the
   gathering of every node's records on rank 0 (dsm/report.c packs them,
   dsm/report_html.c writes the page).

   The gathering runs in gomp_cl_finish on every rank, where OMPC_STATS
   prints its counters, before the ranks stop serving each other: an
   MPI_Igather of the sizes and an MPI_Igatherv of the records on the
   dispatch communicator, waited for with gomp_cl_wait (which serves
   requests meanwhile).  Every rank reads OMPC_REPORT from the same
   environment (the launcher passes it on), so every rank takes part.
   Rank 0 writes the page only once every rank has ended its part
   (gomp_cl_report_write): reading the program's debug information may
   take a while, and the end-of-job watchdog must not count it.  */

#include "cluster-int.h"
#include "../dsm/report.h"
#include <limits.h>
#include <stdlib.h>
#include <string.h>

static char *gomp_cl_report_path;
static void **gomp_cl_report_bufs;
static size_t *gomp_cl_report_lens;

void
gomp_cl_report_init (void)
{
  const char *v = gomp_cl_host->env.report;
  if (!v || !*v)
    return;
  if (!(gomp_cl_report_path = strdup (v)))
    gomp_cl_fatal ("out of memory");
  gomp_dsm_report_init ();
  gomp_cl_ops.heap_site = gomp_dsm_report_alloc;
}

void
gomp_cl_report_gather (void)
{
  MPI_Request req;
  if (!gomp_cl_report_path)
    return;
  size_t len;
  void *mine = gomp_dsm_report_pack (&len);
  uint64_t len64 = len, *all = NULL;
  int nodes = gomp_cl_nodes, *counts = NULL, *displs = NULL;
  char *big = NULL;
  if (gomp_cl_rank == 0)
    {
      all = calloc (nodes, sizeof *all);
      counts = calloc (nodes, sizeof *counts);
      displs = calloc (nodes, sizeof *displs);
      if (!all || !counts || !displs)
	gomp_cl_fatal ("out of memory for the sharing report");
    }
  if (len > INT_MAX)
    gomp_cl_fatal ("the sharing report of this node (%zu bytes) is more "
		   "than MPI can gather", len);
  gomp_cl_check_mpi (MPI_Igather (&len64, 1, MPI_UINT64_T, all, 1,
				  MPI_UINT64_T, 0, gomp_cl_dispatch_comm,
				  &req), "MPI_Igather");
  gomp_cl_wait (&req);
  if (gomp_cl_rank == 0)
    {
      uint64_t off = 0;
      for (int r = 0; r < nodes; r++)
	{
	  counts[r] = all[r];
	  displs[r] = off;
	  off += all[r];
	}
      if (off > INT_MAX)
	gomp_cl_fatal ("the sharing report (%lu bytes) is more than MPI can "
		       "gather", (unsigned long) off);
      if (!(big = malloc (off ? off : 1)))
	gomp_cl_fatal ("out of memory for the sharing report");
    }
  gomp_cl_check_mpi (MPI_Igatherv (mine, (int) len, MPI_BYTE, big, counts,
				   displs, MPI_BYTE, 0,
				   gomp_cl_dispatch_comm, &req),
		     "MPI_Igatherv");
  gomp_cl_wait (&req);
  free (mine);
  if (gomp_cl_rank != 0)
    return;
  gomp_cl_report_bufs = malloc (nodes * sizeof *gomp_cl_report_bufs);
  gomp_cl_report_lens = malloc (nodes * sizeof *gomp_cl_report_lens);
  if (!gomp_cl_report_bufs || !gomp_cl_report_lens)
    gomp_cl_fatal ("out of memory for the sharing report");
  for (int r = 0; r < nodes; r++)
    {
      gomp_cl_report_bufs[r] = big + displs[r];
      gomp_cl_report_lens[r] = counts[r];
    }
  free (all);
  free (counts);
  free (displs);
}

void
gomp_cl_report_write (void)
{
  if (gomp_cl_rank != 0 || !gomp_cl_report_bufs)
    return;
  gomp_dsm_report_write (gomp_cl_report_path, gomp_cl_report_bufs,
			 gomp_cl_report_lens, gomp_cl_nodes);
}
