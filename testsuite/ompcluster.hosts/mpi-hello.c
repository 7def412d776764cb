/* mpi-hello.c -- every rank prints its host name and whether it shares its
   host (shared memory domain) with rank 0; rank 0 checks that the ranks it
   was told sit on separate hosts really do.  A plain MPI program, for the
   virtual cluster's own tests (hosts.exp).

   Usage: mpi-hello [RANKS-PER-HOST]  (default 1).  Exits 1 if two ranks that
   should be on different hosts report the same host name, or ranks of one
   host report different names.  */

#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* Ends the job without MPI_Finalize, which can hang over TCP with MPICH
   4.0.2 (docs/hosts.md): a last barrier, then every rank leaves.  */
static void
end_job (int status)
{
  MPI_Barrier (MPI_COMM_WORLD);
  fflush (NULL);
  _exit (status);
}

int
main (int argc, char **argv)
{
  int rank, size, ppn = argc > 1 ? atoi (argv[1]) : 1;
  char name[MPI_MAX_PROCESSOR_NAME] = "";
  int len;

  MPI_Init (&argc, &argv);
  MPI_Comm_rank (MPI_COMM_WORLD, &rank);
  MPI_Comm_size (MPI_COMM_WORLD, &size);
  MPI_Get_processor_name (name, &len);

  /* Ranks that MPI finds to share memory with this one.  */
  MPI_Comm local;
  int nlocal;
  MPI_Comm_split_type (MPI_COMM_WORLD, MPI_COMM_TYPE_SHARED, 0,
		       MPI_INFO_NULL, &local);
  MPI_Comm_size (local, &nlocal);

  char *all = rank == 0 ? malloc ((size_t) size * sizeof name) : NULL;
  MPI_Gather (name, sizeof name, MPI_CHAR, all, sizeof name, MPI_CHAR, 0,
	      MPI_COMM_WORLD);
  int bad = 0;
  if (rank == 0)
    {
      for (int r = 0; r < size; r++)
	{
	  const char *n = all + (size_t) r * sizeof name;
	  printf ("rank %d of %d on host %s\n", r, size, n);
	  for (int q = 0; q < r; q++)
	    {
	      int same = strcmp (n, all + (size_t) q * sizeof name) == 0;
	      if (same != (q / ppn == r / ppn))
		{
		  printf ("error: ranks %d and %d %s host\n", q, r,
			  same ? "share a" : "are not on the same");
		  bad = 1;
		}
	    }
	}
      fflush (stdout);
    }
  /* Every rank checks that MPI's shared-memory group is exactly its host.  */
  if (nlocal != ppn && !(size % ppn && rank >= size - size % ppn))
    {
      printf ("error: rank %d shares memory with %d ranks, expected %d\n",
	      rank, nlocal, ppn);
      bad = 1;
    }
  int anybad;
  MPI_Reduce (&bad, &anybad, 1, MPI_INT, MPI_MAX, 0, MPI_COMM_WORLD);
  if (rank == 0)
    printf ("%s\n", anybad ? "hosts: WRONG" : "hosts: ok");
  MPI_Comm_free (&local);
  end_job (rank == 0 && anybad);
}
