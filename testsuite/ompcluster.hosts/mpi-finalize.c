/* mpi-finalize.c -- how an MPI job ends over TCP between hosts, for the
   MPICH 4.0.2 + UCX hang in MPI_Finalize (docs/hosts.md).  Every rank first
   talks to every other one (so that all endpoints exist), then ends as MODE
   says:

     finalize   MPI_Barrier, MPI_Finalize, return 0
     exit       MPI_Barrier, fflush, _exit on every rank: no MPI_Finalize;
		rank 0's status is SECONDS (default 0), the others' 0
     exit-libc  as "exit", but rank 0 ends with exit(), running atexit
		handlers and library destructors (UCX's, MPICH's)
     pmi-exit   as "exit", but every rank first tells hydra's proxy that it
		finalised (PMI-1 "cmd=finalize" on $PMI_FD, waiting for the
		answer), as libgomp-cluster/cluster/main.c does
     exit-others  MPI_Barrier; ranks other than 0 _exit(0) at once; rank 0
		  then calls MPI_Finalize
     hold       rank 0 prints "ready", then every rank does an MPI_Allreduce
		every 10 ms for SECONDS (default 20), then ends as "exit"
     watchdog   MPI_Barrier, then MPI_Finalize under alarm(SECONDS): a rank
		still in it after SECONDS prints so and _exit(0)s
     abort1     rank 1 exits with status 3 (no finalize) after the barrier;
		the others wait in a second barrier
     mpiabort1  rank 1 calls MPI_Abort with 4 after the barrier; the others
		wait in a second barrier

   Usage: mpi-finalize MODE [SECONDS].  Rank 0 prints "done MODE" before it
   ends; each rank prints "finalize returned" after MPI_Finalize returns.  */

#include <mpi.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static int rank;

static void
on_alarm (int sig)
{
  static const char msg[] = "watchdog: MPI_Finalize did not return; _exit\n";
  (void) sig;
  write (2, msg, sizeof msg - 1);
  _exit (0);
}

int
main (int argc, char **argv)
{
  const char *mode = argc > 1 ? argv[1] : "finalize";
  int size, secs = argc > 2 ? atoi (argv[2]) : -1;

  MPI_Init (&argc, &argv);
  MPI_Comm_rank (MPI_COMM_WORLD, &rank);
  MPI_Comm_size (MPI_COMM_WORLD, &size);
  /* All-to-all traffic: every pair of ranks gets a connected endpoint.  */
  int *in = calloc (size, sizeof *in), *out = calloc (size, sizeof *out);
  for (int i = 0; i < size; i++)
    out[i] = rank * size + i;
  MPI_Alltoall (out, 1, MPI_INT, in, 1, MPI_INT, MPI_COMM_WORLD);
  for (int i = 0; i < size; i++)
    if (in[i] != i * size + rank)
      {
	fprintf (stderr, "rank %d: wrong data from %d\n", rank, i);
	MPI_Abort (MPI_COMM_WORLD, 1);
      }
  MPI_Barrier (MPI_COMM_WORLD);
  if (rank == 0)
    {
      printf ("done %s\n", mode);
      fflush (stdout);
    }
  if (strcmp (mode, "hold") == 0)
    {
      if (rank == 0)
	{
	  printf ("ready\n");
	  fflush (stdout);
	}
      double end = MPI_Wtime () + (secs > 0 ? secs : 20);
      int go = 1;
      while (go)
	{
	  int mine = MPI_Wtime () < end;
	  MPI_Allreduce (&mine, &go, 1, MPI_INT, MPI_MIN, MPI_COMM_WORLD);
	  usleep (10000);
	}
      secs = 0;
      mode = "exit";
    }
  if (strcmp (mode, "exit") == 0 || strcmp (mode, "exit-libc") == 0
      || strcmp (mode, "pmi-exit") == 0)
    {
      int status = rank == 0 && secs > 0 ? secs : 0;
      MPI_Barrier (MPI_COMM_WORLD);
      fflush (NULL);
      if (strcmp (mode, "pmi-exit") == 0 && getenv ("PMI_FD"))
	{
	  static const char cmd[] = "cmd=finalize\n";
	  char ack[64];
	  int fd = atoi (getenv ("PMI_FD"));
	  if (write (fd, cmd, sizeof cmd - 1) != sizeof cmd - 1
	      || read (fd, ack, sizeof ack) <= 0)
	    fprintf (stderr, "rank %d: PMI finalize failed\n", rank);
	}
      if (rank == 0 && strcmp (mode, "exit-libc") == 0)
	exit (status);
      _exit (status);
    }
  if (strcmp (mode, "exit-others") == 0 && rank != 0)
    _exit (0);
  if (strcmp (mode, "abort1") == 0)
    {
      if (rank == 1)
	_exit (3);
      MPI_Barrier (MPI_COMM_WORLD);
    }
  if (strcmp (mode, "mpiabort1") == 0)
    {
      if (rank == 1)
	MPI_Abort (MPI_COMM_WORLD, 4);
      MPI_Barrier (MPI_COMM_WORLD);
    }
  if (strcmp (mode, "watchdog") == 0)
    {
      MPI_Barrier (MPI_COMM_WORLD);
      signal (SIGALRM, on_alarm);
      alarm (secs > 0 ? secs : 2);
    }
  MPI_Finalize ();
  printf ("rank %d: finalize returned\n", rank);
  return 0;
}
