/* main.c -- the program's life on every rank: rank 0 runs the user's main
   on a stack inside the shared segment, the other ranks serve region
   dispatches; at the end every rank leaves in step with rank 0's exit
   status; fatal errors end the whole job.

   The end.  Rank 0's main returns (or its initial thread calls exit()):
   our on_exit handler, registered before the user's main runs and so run
   after the user's own atexit handlers, broadcasts the status; every rank
   then prints its statistics, meets the others in a final barrier, stops
   the transport and leaves with that status.  MPICH 4.0.2 over TCP can
   hang inside MPI_Finalize, with 2 ranks too (docs/hosts.md), so no
   rank calls it: after the last barrier no message
   is in flight (a rank leaves a barrier only after its last receive, its
   sends already handed to the kernel), and a rank just tells hydra's
   process manager that it finalised (PMI-1) and exits.
   exit() called anywhere else (another thread of rank 0 while a region
   runs, or any thread of another rank) cannot end the job in step: the
   job ends with MPI_Abort and that status, called once, by rank 0 alone
   (with every rank aborting, the job's status was that of whichever
   abort hydra took first, and the reports of a signal instead of the
   status were blamed on two aborts at once; the cause was another, see
   gomp_cl_exit_guard).  A rank other than 0 asks rank 0 to end the job
   with its status (a GOMP_CL_TAG_CONTROL message, served by rank 0's
   service thread) and waits to be ended; rank 0 claims the end of the
   job once (gomp_cl_end_claim): the first exit() it learns of ends the
   job, later requests are dropped.  If rank 0 does not end the job within
   GOMP_CL_ASK_END_S (rank 0 gone or hung), the asking rank aborts it
   itself.  If the ranks have not ended in step 10 s after the end began
   (a rank stopped answering), a watchdog aborts the job with the
   program's status.  */

#include "cluster-int.h"
#include <fcntl.h>
#include <link.h>
#include <pthread.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/resource.h>
#include <sys/syscall.h>
#include <ucontext.h>
#include <unistd.h>

/* 0: running; 1: ending in step (gomp_cl_finish started).  */
static int gomp_cl_ending;

/* Rank 0: how the job ends, decided once (gomp_cl_end_claim).  The high
   32 bits hold the kind, the low ones the status.  The in-step end, which
   rank 0's initial thread starts, can still turn into an abort (a request
   from a rank whose initial thread called exit() could never join it);
   an abort is final.  */
enum
{
  GOMP_CL_END_NONE,
  GOMP_CL_END_IN_STEP,
  GOMP_CL_END_ABORT
};
static uint64_t gomp_cl_end_word;

/* How long a rank that asked rank 0 to end the job waits before it
   aborts the job itself.  */
#define GOMP_CL_ASK_END_S 2

static struct
{
  int (*fn) (int, char **, char **);
  int argc;
  char **argv, **envp;
  int status;
} gomp_cl_user;
static ucontext_t gomp_cl_initial_ctx, gomp_cl_user_ctx;

/* Tells hydra's process manager that this rank finalised, with the PMI-1
   wire protocol on the descriptor it gave us (the runtime's launcher.c
   finds it), so that it does not take our exit for a crash.  Other
   launchers need nothing.  */
static void
gomp_cl_pmi_finalize (void)
{
  static const char cmd[] = "cmd=finalize\n";
  char ack[64];
  int fd = gomp_cl_host->env.pmi_fd;

  if (fd < 0)
    return;
  if (write (fd, cmd, sizeof cmd - 1) == (ssize_t) sizeof cmd - 1
      && read (fd, ack, sizeof ack - 1) < 0)
    return;
}

/* Rank 0: claims the end of the job for KIND (GOMP_CL_END_IN_STEP or
   GOMP_CL_END_ABORT) with STATUS.  False if an end of that kind or a
   final one is already under way.  Otherwise sets *STATUS_OUT to the
   status the job ends with: STATUS, or, for an abort that takes over an
   end in step, the status of that end (rank 0's exit() came first).  */
static bool
gomp_cl_end_claim (int kind, int status, int *status_out)
{
  uint64_t cur = __atomic_load_n (&gomp_cl_end_word, __ATOMIC_ACQUIRE);
  for (;;)
    {
      int cur_kind = (int) (cur >> 32);
      if (cur_kind >= kind)
	return false;
      int s = cur_kind == GOMP_CL_END_IN_STEP ? (int) (uint32_t) cur
					       : status;
      uint64_t want = (uint64_t) kind << 32 | (uint32_t) s;
      if (__atomic_compare_exchange_n (&gomp_cl_end_word, &cur, want, false,
				       __ATOMIC_ACQ_REL, __ATOMIC_ACQUIRE))
	{
	  *status_out = s;
	  return true;
	}
    }
}

/* Rank 0: ends the job with MPI_Abort for an exit(STATUS) called by a
   thread of rank ORIGIN that cannot end it in step, unless the job is
   already being aborted: then returns (the request is dropped).  */
static void
gomp_cl_end_abort (int status, int origin)
{
  if (!gomp_cl_end_claim (GOMP_CL_END_ABORT, status, &status))
    return;
  /* Rank 0's own output, as exit() would have flushed it, unless a thread
     of rank 0 holds the lock of stdout (on the service thread, waiting for
     it could wait for a thread that waits for this one).  */
  if (ftrylockfile (stdout) == 0)
    {
      fflush_unlocked (stdout);
      funlockfile (stdout);
    }
  gomp_cl_say ("ompcluster: rank 0: ending every rank of the job (exit "
	       "status %d, exit() on rank %d)\n", status, origin);
  gomp_cl_abort_job (status);
}

/* Rank 0's handler of a rank's request to end the job: an int32_t exit
   status.  Runs on the service thread (or a waiter helping it); the one
   handler that may not return (the job ends: nothing waits for it).  */
static void
gomp_cl_end_request (int src, const void *msg, size_t len, uint64_t token)
{
  int32_t status;

  (void) token;
  if (len != sizeof status)
    gomp_cl_fatal ("a request to end the job of %zu bytes came from rank "
		   "%d", len, src);
  memcpy (&status, msg, sizeof status);
  gomp_cl_end_abort (status, src);
}

void
gomp_cl_exit_init (void)
{
  if (gomp_cl_rank == 0)
    gomp_cl_register (GOMP_CL_TAG_CONTROL, gomp_cl_end_request);
}

/* Waits for the process to be ended by another thread or rank.  */
static void __attribute__ ((noreturn))
gomp_cl_park (void)
{
  for (;;)
    pause ();
}

/* Ranks other than 0: exit(STATUS) called here asks rank 0 to end the job
   and waits, without a processor, to be ended.  After GOMP_CL_ASK_END_S
   without an end, rank 0 is taken for gone or hung, and this rank aborts
   the job itself; unless it has begun to end in step meanwhile (rank 0's
   end reached its initial thread), which then ends the process, or the
   watchdog.  */
static void __attribute__ ((noreturn))
gomp_cl_ask_end (int status)
{
  int32_t s = status;
  gomp_cl_send (0, GOMP_CL_TAG_CONTROL, &s, sizeof s);
  gomp_cl_count_msg (sizeof s);
  struct timespec ts = { GOMP_CL_ASK_END_S, 0 };
  while (nanosleep (&ts, &ts) != 0)
    ;
  if (__atomic_load_n (&gomp_cl_ending, __ATOMIC_ACQUIRE))
    gomp_cl_park ();
  gomp_cl_say ("ompcluster: rank %d: rank 0 did not end the job within %d s "
	       "of exit(%d); ending it from here\n", gomp_cl_rank,
	       GOMP_CL_ASK_END_S, status);
  gomp_cl_abort_job (status);
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
  gomp_cl_say ("ompcluster: rank %d: the ranks did not end in step within "
	       "%d s; ending the job\n", gomp_cl_rank, GOMP_CL_END_TIMEOUT_S);
  /* On rank 0 unless an exit() elsewhere already aborts the job.  */
  if (gomp_cl_rank == 0
      && !gomp_cl_end_claim (GOMP_CL_END_ABORT, status, &status))
    return NULL;
  gomp_cl_abort_job (status);
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
  gomp_cl_thread_stack (&attr, 256 << 10);
  if (pthread_create (&watchdog, &attr, gomp_cl_watchdog,
		      (void *) (intptr_t) status) != 0)
    gomp_cl_fatal ("cannot start a thread at the end of the job");
  pthread_attr_destroy (&attr);
  gomp_cl_output_end ();
  if (gomp_cl_stats_enabled)
    gomp_cl_stats_print ();
  gomp_cl_report_gather ();
  /* No rank goes on before every rank has stopped making requests.  */
  gomp_cl_check_mpi (MPI_Ibarrier (gomp_cl_dispatch_comm, &req),
		     "MPI_Ibarrier");
  gomp_cl_wait (&req);
  gomp_cl_heartbeat_stop ();
  gomp_cl_transport_fini ();
  gomp_cl_check_mpi (MPI_Ibarrier (gomp_cl_dispatch_comm, &req),
		     "MPI_Ibarrier");
  gomp_cl_wait (&req);
  fflush (NULL);
  gomp_cl_pmi_finalize ();
  __atomic_store_n (&gomp_cl_ended, 1, __ATOMIC_RELEASE);
  if (gomp_cl_rank != 0)
    _exit (status);
  gomp_cl_report_write ();
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
  gomp_cl_say ("ompcluster: rank %d: ending every rank of the job (exit "
	       "status %d)\n", gomp_cl_rank, status);
  fflush (stdout);
  gomp_cl_abort_job (status);
}

/* How far below the faulting thread's stack pointer a fault still counts
   as a stack overflow (a large frame is written from its bottom up).  */
#define GOMP_CL_STACK_OVERFLOW_REACH (256UL << 10)

/* Where a faulting address ADDR lies, for the crash message, in BUF:
   a NULL pointer, just below the thread's stack pointer SP (a stack
   overflow), the shared segment, a mapping of this rank (/proc/self/maps:
   a file or anonymous memory, with its permissions), or nothing on this
   rank.  Only read (2) and friends: called from the crash handler.  */
static void
gomp_cl_describe_address (const void *addr, uintptr_t sp, char *buf,
			  size_t size)
{
  uintptr_t a = (uintptr_t) addr;
  if (a < 65536)
    {
      snprintf (buf, size, "a NULL pointer (or a small offset from one)");
      return;
    }
  if (sp && a < sp + 4096 && a + GOMP_CL_STACK_OVERFLOW_REACH >= sp
      && !gomp_dsm_contains (addr))
    {
      snprintf (buf, size, "just below the thread's stack pointer %#lx: "
		"a stack overflow (endless recursion, or locals too large "
		"for the stack); raise the stack limit (ulimit -s) or, for "
		"the threads the runtime starts, OMP_STACKSIZE",
		(unsigned long) sp);
      return;
    }
  if (gomp_dsm_contains (addr))
    {
      snprintf (buf, size, "inside the shared segment, but the DSM did not "
		"handle the fault (a guard page, or a write to read-only "
		"data?)");
      return;
    }
  /* Scan /proc/self/maps, line by line, without stdio.  */
  char chunk[4096], line[512];
  size_t len = 0;
  ssize_t n;
  int fd = open ("/proc/self/maps", O_RDONLY | O_CLOEXEC);
  while (fd >= 0 && (n = read (fd, chunk, sizeof chunk)) > 0)
    for (ssize_t i = 0; i < n; i++)
      {
	if (chunk[i] != '\n')
	  {
	    if (len < sizeof line - 1)
	      line[len++] = chunk[i];
	    continue;
	  }
	line[len] = 0;
	len = 0;
	unsigned long lo, hi;
	char perms[8];
	int path = 0;
	if (sscanf (line, "%lx-%lx %7s %*s %*s %*s %n", &lo, &hi, perms,
		    &path) < 3 || a < lo || a >= hi)
	  continue;
	close (fd);
	snprintf (buf, size, "in memory that is not shared: %s (%s), this "
		  "rank's own mapping (a write to read-only data, or memory "
		  "of a library not compiled with the plugin?); only the "
		  "program's globals, the heap (malloc from code compiled with "
		  "the plugin) and the threads' stacks are shared",
		  path && line[path] ? line + path : "anonymous memory",
		  perms);
	return;
      }
  if (fd >= 0)
    close (fd);
  snprintf (buf, size, "in memory that is not shared and not mapped on this "
	    "rank: the pointer may come from another rank, from mmap or "
	    "from a library not compiled with the plugin (its malloc); only "
	    "the program's globals, the heap (malloc from code compiled with "
	    "the plugin) and the threads' stacks are shared");
}

/* A crash (a fault outside the DSM's memory, abort (), a bus error...)
   on any rank: hydra does not end a job whose rank on another host died
   without MPI_Abort (docs/hosts.md), so say which rank crashed and where,
   and abort the job with the shell's status for that signal.  Not
   async-signal-safe past the description, but the process is ending
   anyway.  */
static void
gomp_cl_crash (int sig, siginfo_t *si, void *ctx)
{
  char where[700];
  const char *name = sigabbrev_np (sig);
  if (!name)
    name = "?";
  if (si && si->si_code == SI_USER && si->si_pid != getpid ())
    gomp_cl_say ("ompcluster: rank %d: fatal signal SIG%s, sent by process "
		 "%d; ending the job\n", gomp_cl_rank, name, (int) si->si_pid);
  else if (sig == SIGABRT || !si || si->si_code == SI_USER
	   || si->si_code == SI_TKILL)
    gomp_cl_say ("ompcluster: rank %d: fatal signal SIG%s; ending the job\n",
		 gomp_cl_rank, name);
  else if (sig == SIGSEGV || sig == SIGBUS)
    {
      uintptr_t sp = 0;
#ifdef REG_RSP
      if (ctx)
	sp = ((ucontext_t *) ctx)->uc_mcontext.gregs[REG_RSP];
#endif
      gomp_cl_describe_address (si->si_addr, sp, where, sizeof where);
      gomp_cl_say ("ompcluster: rank %d: fatal signal SIG%s at address %p, "
		   "%s; ending the job\n", gomp_cl_rank, name, si->si_addr,
		   where);
    }
  else
    gomp_cl_say ("ompcluster: rank %d: fatal signal SIG%s at instruction "
		 "%p; ending the job\n", gomp_cl_rank, name, si->si_addr);
  gomp_cl_abort_job (128 + sig);
}

/* The signals that end a process from outside, and the handlers the MPI
   libraries installed for some of them.  */
static const int gomp_cl_ends[] = { SIGTERM, SIGHUP, SIGQUIT, SIGXCPU,
				    SIGUSR1, SIGUSR2 };
#define GOMP_CL_NENDS (sizeof gomp_cl_ends / sizeof gomp_cl_ends[0])
static struct sigaction gomp_cl_ends_mpi[GOMP_CL_NENDS];
static bool gomp_cl_ends_forward[GOMP_CL_NENDS];

/* A signal whose handler the MPI libraries installed: MPI's when the process or
   its parent sent it (or the kernel), else the end of the job.  */
static void
gomp_cl_end_signal (int sig, siginfo_t *si, void *ctx)
{
  size_t i = 0;
  while (i < GOMP_CL_NENDS && gomp_cl_ends[i] != sig)
    i++;
  if (i < GOMP_CL_NENDS && gomp_cl_ends_forward[i]
      && (!si || si->si_code != SI_USER || si->si_pid == getpid ()
	  || si->si_pid == getppid ()))
    {
      const struct sigaction *m = &gomp_cl_ends_mpi[i];
      if (m->sa_flags & SA_SIGINFO)
	m->sa_sigaction (sig, si, ctx);
      else if (m->sa_handler != SIG_DFL && m->sa_handler != SIG_IGN)
	m->sa_handler (sig);
      return;
    }
  gomp_cl_crash (sig, si, ctx);
}

void
gomp_cl_crash_init (void)
{
  static const int sigs[] = { SIGSEGV, SIGBUS, SIGFPE, SIGILL, SIGABRT };
  struct sigaction sa;

  memset (&sa, 0, sizeof sa);
  sigemptyset (&sa.sa_mask);
  sa.sa_sigaction = gomp_cl_crash;
  sa.sa_flags = SA_SIGINFO | SA_ONSTACK | SA_RESETHAND;
  for (size_t i = 0; i < sizeof sigs / sizeof sigs[0]; i++)
    if (sigaction (sigs[i], &sa, NULL) != 0)
      gomp_cl_fatal ("cannot install the handler of signal %d", sigs[i]);

  /* Signals that end a process from outside (kill, a batch system's time
     limit): without a word the launcher would only say that some process
     died.  Only where the program has not set its own handler (it may
     still set one later, replacing ours).  SIGINT stays the launcher's:
     it forwards ^C to every rank.  A handler that the MPI libraries
     installed (UCX takes SIGHUP as its debug signal, MPICH takes SIGUSR1 for the
     launcher's notices of failed processes) is kept for what the process
     itself or its parent (the launcher's proxy) sends; the same signal
     from anyone else ends the job like the others.  */
  struct sigaction end = sa;
  end.sa_sigaction = gomp_cl_end_signal;
  end.sa_flags = SA_SIGINFO | SA_ONSTACK | SA_RESTART;
  for (size_t i = 0; i < GOMP_CL_NENDS; i++)
    {
      int sig = gomp_cl_ends[i];
      struct sigaction old;
      if (sigaction (sig, NULL, &old) != 0)
	continue;
      if (!(old.sa_flags & SA_SIGINFO) && old.sa_handler == SIG_DFL)
	sigaction (sig, &sa, NULL);
      else if ((gomp_cl_host->default_signals >> (sig - 1) & 1)
	       && (old.sa_flags & SA_SIGINFO || old.sa_handler != SIG_IGN))
	{
	  gomp_cl_ends_mpi[i] = old;
	  gomp_cl_ends_forward[i] = true;
	  sigaction (sig, &end, NULL);
	}
    }
}

/* Registered GOMP_CL_EXIT_GUARDS times just before gomp_cl_on_exit, so
   run right after it, each copy by whichever thread takes it from libc's
   list.  glibc 2.36 does not serialise exit(): each thread that calls it
   takes the next handler from the list, and when the list is empty ends
   the process.  So while one thread runs gomp_cl_on_exit (ending the job
   in step, or asking for its end), a second thread that calls exit() ran
   the handlers left and ended the process under it, and the launcher saw
   a rank vanish (GCC's sections-2.c at 2 x 2: "killed by signal 9" once
   in 22 runs).  With one guard, a third thread still did: it ran the
   libraries' exit handlers and destructors (MPI's and UCX's among them)
   under the end of the job (always, with every thread of 2 nodes x 4
   calling exit() at once), and hydra sometimes reported "EXIT CODE: 1"
   ("Hangup (signal 1)"): 4 runs in 420 on a loaded machine, 0 in 300
   with the guards.  Unless the job has already ended in step, each
   thread that takes a guard waits here for the first to end the process
   (the watchdog bounds an end in step); only more threads than guards
   calling exit() at the same moment on one node could get past.  After
   an end in step every copy returns at once.  */
#define GOMP_CL_EXIT_GUARDS 1024
static void
gomp_cl_exit_guard (void)
{
  if (__atomic_load_n (&gomp_cl_ended, __ATOMIC_ACQUIRE))
    return;
  for (;;)
    pause ();
}

/* Registered with on_exit before the user's main starts; glibc runs it
   once per process, on whichever thread takes it from the list (the first
   to call exit(), or the one that runs the program's own exit handlers
   before it).  The process's output, flushed here, and the message are
   written before the job can end.  */
static void
gomp_cl_on_exit (int status, void *arg)
{
  int s;

  if (__atomic_load_n (&gomp_cl_ending, __ATOMIC_ACQUIRE))
    return;
  if (gomp_cl_rank == 0 && syscall (SYS_gettid) == getpid ())
    {
      /* Another rank's exit() may already be ending the job.  */
      if (!gomp_cl_end_claim (GOMP_CL_END_IN_STEP, status, &s))
	gomp_cl_park ();
      gomp_cl_shutdown (status);
      return;
    }
  fflush (NULL);
  gomp_cl_output_fatal ();
  gomp_cl_say ("ompcluster: rank %d: exit(%d) called %s; the other ranks "
	       "cannot end in step with it\n", gomp_cl_rank, status,
	       gomp_cl_rank == 0 ? "by a thread other than the initial one"
	       : "on a rank other than 0");
  if (gomp_cl_rank != 0)
    gomp_cl_ask_end (status);
  gomp_cl_end_abort (status, 0);
  gomp_cl_park ();
}

/* Ranks other than 0: serving regions, on a stack of the segment.  */
static void
gomp_cl_serve_start (void)
{
  gomp_cl_user.status = gomp_cl_serve ();
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

/* dl_iterate_phdr callback: sets *DATA when the object asks for an
   executable stack.  GCC marks an object whose code builds trampolines of
   nested functions on the stack with a PT_GNU_STACK header that has PF_X;
   glibc makes every thread stack executable for such a program, and an
   executable without the header (very old linkers) gets one too.  */
static int
gomp_cl_exec_stack_object (struct dl_phdr_info *info, size_t size,
			   void *data)
{
  bool is_program = info->dlpi_name == NULL || info->dlpi_name[0] == '\0';
  bool marked = false;
  for (int i = 0; i < info->dlpi_phnum; i++)
    if (info->dlpi_phdr[i].p_type == PT_GNU_STACK)
      {
	marked = true;
	if (info->dlpi_phdr[i].p_flags & PF_X)
	  *(bool *) data = true;
      }
  if (is_program && !marked)
    *(bool *) data = true;
  return 0;
}

/* Thread stacks live in the shared segment, which the DSM maps without
   execute permission: a program that needs an executable stack (a nested
   function whose address is taken runs a trampoline written on the
   stack) has the DSM add PROT_EXEC to the stack area, as glibc does for
   its own stacks.  Decided from the objects loaded at start-up, before
   the first stack of the segment is allocated; a library dlopen()ed later
   that needs it is not seen.  */
static void
gomp_cl_exec_stack_init (void)
{
  bool exec = false;
  dl_iterate_phdr (gomp_cl_exec_stack_object, &exec);
  gomp_dsm_stack_prot = exec ? PROT_EXEC : 0;
}

void
gomp_cl_run_main (int (*user_main) (int, char **, char **), int argc,
		  char **argv, char **envp)
{
  gomp_cl_exec_stack_init ();
  for (int i = 0; i < GOMP_CL_EXIT_GUARDS; i++)
    if (atexit (gomp_cl_exit_guard) != 0)
      gomp_cl_fatal ("cannot register the exit handler");
  if (on_exit (gomp_cl_on_exit, NULL) != 0)
    gomp_cl_fatal ("cannot register the exit handler");
  /* Rank 0: the user's main on a stack that every node can address, so
     that its locals handed to parallel regions are valid everywhere.  The
     other ranks' initial threads serve regions as their nodes' first
     threads: their locals too (a region's private variables, which other
     threads may reach through a pointer) live on such a stack.  */
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
  if (gomp_cl_rank != 0)
    {
      gomp_cl_dispatch_post ();
      makecontext (&gomp_cl_user_ctx, gomp_cl_serve_start, 0);
      if (swapcontext (&gomp_cl_initial_ctx, &gomp_cl_user_ctx) != 0)
	gomp_cl_fatal ("cannot switch to the stack of the serving thread");
      gomp_cl_finish (gomp_cl_user.status);
      _exit (gomp_cl_user.status);
    }
  makecontext (&gomp_cl_user_ctx, gomp_cl_user_start, 0);
  if (swapcontext (&gomp_cl_initial_ctx, &gomp_cl_user_ctx) != 0)
    gomp_cl_fatal ("cannot switch to the stack of main");
  exit (gomp_cl_user.status);
}
