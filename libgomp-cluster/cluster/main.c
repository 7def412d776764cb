/* main.c -- the program's life on every rank: rank 0 runs the user's main
   on a stack inside the shared segment, the other ranks serve region
   dispatches; at the end every rank leaves in step with rank 0's exit
   status; fatal errors end the whole job.

   The end.  Rank 0's main returns (or its initial thread calls exit()):
   our on_exit handler, registered before the user's main runs and so run
   after the user's own atexit handlers, broadcasts the status; every rank
   then prints its statistics, meets the others in a final barrier, stops
   the transport and leaves with that status.  MPICH 4.0.2 over TCP can
   hang inside MPI_Finalize with three or more ranks (NOTES-GCC12.md), so
   under hydra (which gives each rank a PMI-1 socket) we only tell the
   process manager that the rank finalised, after the final barrier has
   shown that no message is in flight; elsewhere we call MPI_Finalize.
   exit() called anywhere else (another thread of rank 0 while a region
   runs, or any thread of another rank) cannot end the job in step: it ends
   it with MPI_Abort and that status.  If the ranks have not ended in step
   10 s after the end began (a rank stopped answering), a watchdog aborts
   the job with the program's status.  */

#include "cluster-int.h"
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/syscall.h>
#include <ucontext.h>
#include <unistd.h>

/* 0: running; 1: ending in step (gomp_cl_finish started).  */
static int gomp_cl_ending;

static struct
{
  int (*fn) (int, char **, char **);
  int argc;
  char **argv, **envp;
  int status;
} gomp_cl_user;
static ucontext_t gomp_cl_initial_ctx, gomp_cl_user_ctx;

/* Tells hydra's process manager that this rank finalised, with the PMI-1
   wire protocol on the descriptor it gave us (PMI_FD).  Returns false when
   the rank was not started by hydra.  */
static bool
gomp_cl_pmi_finalize (void)
{
  const char *fd_s = getenv ("PMI_FD");
  static const char cmd[] = "cmd=finalize\n";
  char ack[64];
  ssize_t n;

  if (!fd_s || !getenv ("HYDI_CONTROL_FD"))
    return false;
  int fd = atoi (fd_s);
  if (write (fd, cmd, sizeof cmd - 1) != (ssize_t) sizeof cmd - 1)
    return false;
  n = read (fd, ack, sizeof ack - 1);
  return n > 0;
}

/* How long the ranks may take to end in step before the job is aborted
   with the program's status: a rank that stopped answering must not turn
   the end of the job into a hang.  */
#define GOMP_CL_END_TIMEOUT_S 10

static int gomp_cl_ended;

static void *
gomp_cl_watchdog (void *arg)
{
  int status = (int) (intptr_t) arg;
  struct timespec ts = { GOMP_CL_END_TIMEOUT_S, 0 };
  while (nanosleep (&ts, &ts) != 0)
    ;
  if (__atomic_load_n (&gomp_cl_ended, __ATOMIC_ACQUIRE))
    return NULL;
  char msg[200];
  int n = snprintf (msg, sizeof msg, "ompcluster: rank %d: the ranks did "
		    "not end in step within %d s; ending the job\n",
		    gomp_cl_rank, GOMP_CL_END_TIMEOUT_S);
  if (write (STDERR_FILENO, msg, n) < 0)
    n = 0;
  MPI_Abort (MPI_COMM_WORLD, status);
  _exit (status);
}

void
gomp_cl_finish (int status)
{
  MPI_Request req;
  pthread_t watchdog;
  pthread_attr_t attr;

  if (__atomic_exchange_n (&gomp_cl_ending, 1, __ATOMIC_ACQ_REL))
    return;
  pthread_attr_init (&attr);
  pthread_attr_setdetachstate (&attr, PTHREAD_CREATE_DETACHED);
  if (pthread_create (&watchdog, &attr, gomp_cl_watchdog,
		      (void *) (intptr_t) status) != 0)
    gomp_cl_fatal ("cannot start a thread at the end of the job");
  pthread_attr_destroy (&attr);
  if (gomp_cl_stats_enabled)
    gomp_cl_stats_print ();
  /* No rank goes on before every rank has stopped making requests.  */
  gomp_cl_check_mpi (MPI_Ibarrier (gomp_cl_dispatch_comm, &req),
		     "MPI_Ibarrier");
  gomp_cl_wait (&req);
  gomp_cl_transport_fini ();
  gomp_cl_check_mpi (MPI_Ibarrier (gomp_cl_dispatch_comm, &req),
		     "MPI_Ibarrier");
  gomp_cl_wait (&req);
  fflush (NULL);
  if (!gomp_cl_pmi_finalize ())
    MPI_Finalize ();
  __atomic_store_n (&gomp_cl_ended, 1, __ATOMIC_RELEASE);
  if (gomp_cl_rank != 0)
    _exit (status);
}

void
gomp_cl_shutdown (int status)
{
  if (__atomic_load_n (&gomp_cl_ending, __ATOMIC_ACQUIRE))
    return;
  if (gomp_cl_rank == 0)
    gomp_cl_dispatch_exit (status);
  gomp_cl_finish (status);
}

void
gomp_cl_abort (int status)
{
  char msg[128];
  int n = snprintf (msg, sizeof msg, "ompcluster: rank %d: ending every "
		    "rank of the job (exit status %d)\n", gomp_cl_rank,
		    status);
  if (write (STDERR_FILENO, msg, n) < 0)
    n = 0;
  MPI_Abort (MPI_COMM_WORLD, status);
  _exit (status);
}

/* Registered with on_exit before the user's main starts.  */
static void
gomp_cl_on_exit (int status, void *arg)
{
  if (__atomic_load_n (&gomp_cl_ending, __ATOMIC_ACQUIRE))
    return;
  if (gomp_cl_rank == 0 && syscall (SYS_gettid) == getpid ())
    {
      gomp_cl_shutdown (status);
      return;
    }
  fflush (NULL);
  char msg[200];
  int n = snprintf (msg, sizeof msg, "ompcluster: rank %d: exit(%d) called "
		    "%s; the other ranks cannot end in step with it\n",
		    gomp_cl_rank, status,
		    gomp_cl_rank == 0 ? "by a thread other than the initial "
		    "one" : "on a rank other than 0");
  if (write (STDERR_FILENO, msg, n) < 0)
    n = 0;
  gomp_cl_abort (status);
}

static void
gomp_cl_user_start (void)
{
  gomp_cl_user.status = gomp_cl_user.fn (gomp_cl_user.argc,
					  gomp_cl_user.argv,
					  gomp_cl_user.envp);
}

/* The size of the stack rank 0's main runs on: the process's stack limit
   (what main would have had), at least 8 MiB, at most 1 GiB.  */
static size_t __attribute__ ((noinline))
gomp_cl_main_stack_size (void)
{
  struct rlimit rl;
  size_t size = 8UL << 20;
  if (getrlimit (RLIMIT_STACK, &rl) == 0 && rl.rlim_cur != RLIM_INFINITY
      && rl.rlim_cur > size)
    size = rl.rlim_cur;
  if (size > (1UL << 30))
    size = 1UL << 30;
  return size;
}

void
gomp_cl_run_main (int (*user_main) (int, char **, char **), int argc,
		  char **argv, char **envp)
{
  if (on_exit (gomp_cl_on_exit, NULL) != 0)
    gomp_cl_fatal ("cannot register the exit handler");
  if (gomp_cl_rank != 0)
    {
      gomp_cl_dispatch_post ();
      int status = gomp_cl_serve ();
      gomp_cl_finish (status);
      _exit (status);
    }

  /* Rank 0: the user's main on a stack that every node can address, so
     that its locals handed to parallel regions are valid everywhere.  */
  size_t size = gomp_cl_main_stack_size ();
  void *stack = gomp_dsm_stack_alloc (size);
  if (!stack)
    gomp_cl_fatal ("cannot allocate the %zu-byte stack of main in the "
		   "shared segment; make the segment larger", size);
  gomp_cl_user.fn = user_main;
  gomp_cl_user.argc = argc;
  gomp_cl_user.argv = argv;
  gomp_cl_user.envp = envp;
  if (getcontext (&gomp_cl_user_ctx) != 0)
    gomp_cl_fatal ("getcontext failed");
  gomp_cl_user_ctx.uc_stack.ss_sp = stack;
  gomp_cl_user_ctx.uc_stack.ss_size = size;
  gomp_cl_user_ctx.uc_link = &gomp_cl_initial_ctx;
  makecontext (&gomp_cl_user_ctx, gomp_cl_user_start, 0);
  if (swapcontext (&gomp_cl_initial_ctx, &gomp_cl_user_ctx) != 0)
    gomp_cl_fatal ("cannot switch to the stack of main");
  exit (gomp_cl_user.status);
}
