/* floor.c -- the floor under any cluster OpenMP on this machine: what MPI
   and the kernel cost by themselves.  Run with 2 ranks (mpiexec -n 2).

   Prints, one a line, "floor NAME MEDIAN_US MIN_US" for:
     rtt_8b      round trip of an 8-byte message (ping-pong)
     rtt_4k      round trip of a 4 KiB message
     barrier     MPI_Barrier
     bcast_8b    MPI_Bcast of 8 bytes from rank 0
     bcast_barrier  MPI_Bcast of 8 bytes followed by MPI_Barrier
     allreduce_8b   MPI_Allreduce of one double (sum)
     fault_cycle one page: mprotect(PROT_NONE), a read that faults, and a
                 SIGSEGV handler that mprotect()s it back to read-write
     fault_cycle_busy  the same with a second thread of the process busy
                 on the other core (TLB shootdowns, as a DSM node with
                 several threads pays them)
   Each figure is the median (and minimum) over SAMPLES samples, each the
   mean of ITERS operations.  */

#define _GNU_SOURCE
#include <mpi.h>
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <time.h>
#include <unistd.h>

#define SAMPLES 15

static int rank, size;
static double samples[SAMPLES];

static double
now_us (void)
{
  struct timespec ts;
  clock_gettime (CLOCK_MONOTONIC, &ts);
  return ts.tv_sec * 1e6 + ts.tv_nsec * 1e-3;
}

static int
cmp_double (const void *a, const void *b)
{
  double x = *(const double *) a, y = *(const double *) b;
  return (x > y) - (x < y);
}

static void
report (const char *name)
{
  if (rank != 0)
    return;
  qsort (samples, SAMPLES, sizeof samples[0], cmp_double);
  printf ("floor %s %.3f %.3f\n", name, samples[SAMPLES / 2], samples[0]);
  fflush (stdout);
}

static void
pingpong (const char *name, size_t len, int iters)
{
  char *buf = calloc (1, len);
  for (int s = -1; s < SAMPLES; s++)	/* Sample -1 warms up.  */
    {
      MPI_Barrier (MPI_COMM_WORLD);
      double t0 = now_us ();
      for (int i = 0; i < iters; i++)
	if (rank == 0)
	  {
	    MPI_Send (buf, len, MPI_BYTE, 1, 0, MPI_COMM_WORLD);
	    MPI_Recv (buf, len, MPI_BYTE, 1, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
	  }
	else if (rank == 1)
	  {
	    MPI_Recv (buf, len, MPI_BYTE, 0, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
	    MPI_Send (buf, len, MPI_BYTE, 0, 0, MPI_COMM_WORLD);
	  }
      if (s >= 0)
	samples[s] = (now_us () - t0) / iters;
    }
  free (buf);
  report (name);
}

enum coll { BARRIER, BCAST, BCAST_BARRIER, ALLREDUCE };

static void
collective (const char *name, enum coll what, int iters)
{
  double x = 1.0, y;
  for (int s = -1; s < SAMPLES; s++)
    {
      MPI_Barrier (MPI_COMM_WORLD);
      double t0 = now_us ();
      for (int i = 0; i < iters; i++)
	switch (what)
	  {
	  case BARRIER:
	    MPI_Barrier (MPI_COMM_WORLD);
	    break;
	  case BCAST:
	    MPI_Bcast (&x, 1, MPI_DOUBLE, 0, MPI_COMM_WORLD);
	    break;
	  case BCAST_BARRIER:
	    MPI_Bcast (&x, 1, MPI_DOUBLE, 0, MPI_COMM_WORLD);
	    MPI_Barrier (MPI_COMM_WORLD);
	    break;
	  case ALLREDUCE:
	    MPI_Allreduce (&x, &y, 1, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
	    break;
	  }
      if (s >= 0)
	samples[s] = (now_us () - t0) / iters;
    }
  /* Rank 0's view; a broadcast's cost is only known once everybody has
     it, so the bcast figure is taken over many back-to-back calls.  */
  report (name);
}

/* The fault cycle.  */
static char *page;
static long pagesize;

static void
on_segv (int sig, siginfo_t *si, void *ctx)
{
  char *a = (char *) ((unsigned long) si->si_addr & ~(pagesize - 1));
  if (a != page || mprotect (page, pagesize, PROT_READ | PROT_WRITE) != 0)
    abort ();
}

static volatile int busy_stop;

static void *
busy (void *arg)
{
  volatile unsigned long n = 0;
  while (!busy_stop)
    n++;
  return NULL;
}

static void
fault_cycle (const char *name, int iters)
{
  volatile char sink = 0;
  for (int s = -1; s < SAMPLES; s++)
    {
      double t0 = now_us ();
      for (int i = 0; i < iters; i++)
	{
	  if (mprotect (page, pagesize, PROT_NONE) != 0)
	    abort ();
	  sink += page[i & 63];
	}
      if (s >= 0)
	samples[s] = (now_us () - t0) / iters;
    }
  report (name);
}

/* A barrier whose waiting does not take a core away from the fault cycle
   (MPICH busy-polls in MPI_Barrier).  */
static void
quiet_barrier (void)
{
  MPI_Request req;
  int done = 0;
  struct timespec ts = { 0, 100000 };
  MPI_Ibarrier (MPI_COMM_WORLD, &req);
  for (;;)
    {
      MPI_Test (&req, &done, MPI_STATUS_IGNORE);
      if (done)
	break;
      nanosleep (&ts, NULL);
    }
}

int
main (int argc, char **argv)
{
  MPI_Init (&argc, &argv);
  MPI_Comm_rank (MPI_COMM_WORLD, &rank);
  MPI_Comm_size (MPI_COMM_WORLD, &size);
  if (size < 2)
    {
      fprintf (stderr, "floor: run with at least 2 ranks\n");
      MPI_Abort (MPI_COMM_WORLD, 2);
    }
  pingpong ("rtt_8b", 8, 2000);
  pingpong ("rtt_4k", 4096, 2000);
  collective ("barrier", BARRIER, 2000);
  collective ("bcast_8b", BCAST, 2000);
  collective ("bcast_barrier", BCAST_BARRIER, 2000);
  collective ("allreduce_8b", ALLREDUCE, 2000);

  /* The fault cycle is a local cost: rank 0 measures it while the others
     wait in a barrier.  The handler is installed after MPI_Init so that
     it sits in front of UCX's.  */
  if (rank == 0)
    {
      pagesize = sysconf (_SC_PAGESIZE);
      page = mmap (NULL, pagesize, PROT_READ | PROT_WRITE,
		   MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
      if (page == MAP_FAILED)
	abort ();
      memset (page, 1, pagesize);
      struct sigaction sa, old;
      memset (&sa, 0, sizeof sa);
      sigemptyset (&sa.sa_mask);
      sa.sa_sigaction = on_segv;
      sa.sa_flags = SA_SIGINFO;
      sigaction (SIGSEGV, &sa, &old);
      fault_cycle ("fault_cycle", 2000);
      pthread_t th;
      pthread_create (&th, NULL, busy, NULL);
      fault_cycle ("fault_cycle_busy", 2000);
      busy_stop = 1;
      pthread_join (th, NULL);
      sigaction (SIGSEGV, &old, NULL);
    }
  quiet_barrier ();
  MPI_Finalize ();
  return 0;
}
