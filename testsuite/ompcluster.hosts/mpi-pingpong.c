/* mpi-pingpong.c -- the floor of the transport between two ranks: round trip
   of a 4 KiB message between rank 0 and rank 1 and the time of an
   MPI_Barrier over all ranks, in microseconds (medians of 5 batches).

   Usage: mpi-pingpong [ITERATIONS]  (default 2000 per batch).  */

#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

static int
cmp (const void *a, const void *b)
{
  double x = *(const double *) a, y = *(const double *) b;
  return (x > y) - (x < y);
}

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
  enum { BATCHES = 5, BYTES = 4096 };
  int rank, size, iters = argc > 1 ? atoi (argv[1]) : 2000;
  static char buf[BYTES];
  double rtt[BATCHES], bar[BATCHES];

  MPI_Init (&argc, &argv);
  MPI_Comm_rank (MPI_COMM_WORLD, &rank);
  MPI_Comm_size (MPI_COMM_WORLD, &size);
  for (int b = 0; b < BATCHES; b++)
    {
      MPI_Barrier (MPI_COMM_WORLD);
      double t = MPI_Wtime ();
      for (int i = 0; i < iters; i++)
	if (rank == 0)
	  {
	    MPI_Send (buf, BYTES, MPI_CHAR, 1, 0, MPI_COMM_WORLD);
	    MPI_Recv (buf, BYTES, MPI_CHAR, 1, 0, MPI_COMM_WORLD,
		      MPI_STATUS_IGNORE);
	  }
	else if (rank == 1)
	  {
	    MPI_Recv (buf, BYTES, MPI_CHAR, 0, 0, MPI_COMM_WORLD,
		      MPI_STATUS_IGNORE);
	    MPI_Send (buf, BYTES, MPI_CHAR, 0, 0, MPI_COMM_WORLD);
	  }
      rtt[b] = (MPI_Wtime () - t) / iters * 1e6;
      MPI_Barrier (MPI_COMM_WORLD);
      t = MPI_Wtime ();
      for (int i = 0; i < iters; i++)
	MPI_Barrier (MPI_COMM_WORLD);
      bar[b] = (MPI_Wtime () - t) / iters * 1e6;
    }
  if (rank == 0)
    {
      qsort (rtt, BATCHES, sizeof *rtt, cmp);
      qsort (bar, BATCHES, sizeof *bar, cmp);
      printf ("ranks %d: 4 KiB round trip %.1f us, MPI_Barrier %.1f us\n",
	      size, rtt[BATCHES / 2], bar[BATCHES / 2]);
    }
  end_job (0);
}
