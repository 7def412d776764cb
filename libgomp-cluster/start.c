/* start.c -- the program's entry: the runtime's main, which the plugin's
   renaming of the user's main (to __ompc_user_main) makes the executable's.

   With one node (a plain ./prog, or a launcher that started one rank) it
   simply calls the user's main.  With several nodes it turns off address
   space randomisation (re-exec), loads the cluster module
   lib/ompcluster-mpi.so and hands it the start.  */

#include "libgomp.h"
#include <signal.h>
#include "sys.h"
#include <dlfcn.h>
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/personality.h>
#include <unistd.h>

struct gomp_cluster_ops *gomp_cluster;

/* Defined by the plugin in the user's program; NULL without the plugin.  */
extern int __ompc_user_main (int, char **, char **) __attribute__ ((weak));
/* The bounds of the program's shared globals, from the linker fragment
   lib/ompcluster.ld; NULL without it.  These references from libgomp.so.1
   are also what makes the linker export the symbols from the executable,
   so that the cluster module (dlopen()ed, NULL otherwise) can find them.  */
extern char __ompc_shared_start[]
  __attribute__ ((weak, visibility ("default")));
extern char __ompc_shared_end[]
  __attribute__ ((weak, visibility ("default")));

/* Same addresses on every rank need address space randomisation off: re-exec
   the program once with ADDR_NO_RANDOMIZE (docs/cluster.md).  */
static void
gomp_disable_aslr (char **argv)
{
  int pers = personality (0xffffffff);
  if (pers == -1)
    gomp_fatal ("cannot read the process personality (%s); ompcluster needs "
		"address space randomisation off on every node",
		strerror (errno));
  if (pers & ADDR_NO_RANDOMIZE)
    return;
  if (personality (pers | ADDR_NO_RANDOMIZE) == -1
      || !(personality (0xffffffff) & ADDR_NO_RANDOMIZE))
    gomp_fatal ("cannot turn off address space randomisation (personality: "
		"%s); a container's seccomp profile may forbid it: allow "
		"personality(ADDR_NO_RANDOMIZE) or run with "
		"'setarch -R' on every node", strerror (errno));
  /* The program's own path, so that the process keeps its name (ps,
     /proc/PID/comm); /proc/self/exe only if it cannot be read.  */
  char path[PATH_MAX];
  ssize_t n = readlink ("/proc/self/exe", path, sizeof path - 1);
  if (n > 0)
    {
      path[n] = 0;
      execv (path, argv);
    }
  execv ("/proc/self/exe", argv);
  gomp_fatal ("cannot re-execute /proc/self/exe to turn off address space "
	      "randomisation: %s", strerror (errno));
}

static void GOMP_NORETURN
gomp_host_fatal (const char *msg)
{
  gomp_fatal ("%s", msg);
}

/* Loads lib/ompcluster-mpi.so from the directory of this library.  */
static struct gomp_cluster_ops *
gomp_load_cluster (int *argc, char ***argv)
{
  static struct gomp_cluster_host host;
  extern void gomp_cluster_run_region (void (*) (void *), void *, unsigned,
				       unsigned);
  Dl_info info;
  char path[PATH_MAX];
  const char *dir_end;

  if (!dladdr ((void *) gomp_load_cluster, &info) || !info.dli_fname)
    gomp_fatal ("cannot find the directory of libgomp.so.1");
  dir_end = strrchr (info.dli_fname, '/');
  snprintf (path, sizeof path, "%.*s/ompcluster-mpi.so",
	    dir_end ? (int) (dir_end - info.dli_fname) : 1,
	    dir_end ? info.dli_fname : ".");
  host.default_signals = 0;
  for (int sig = 1; sig < 64 && sig < NSIG; sig++)
    {
      struct sigaction sa;
      if (sigaction (sig, NULL, &sa) == 0 && !(sa.sa_flags & SA_SIGINFO)
	  && sa.sa_handler == SIG_DFL)
	host.default_signals |= 1ull << (sig - 1);
    }
  void *h = dlopen (path, RTLD_NOW | RTLD_LOCAL);
  if (!h)
    gomp_fatal ("cannot load the cluster module %s: %s; reinstall ompcluster",
		path, dlerror ());
  gomp_cluster_module_init_fn init
    = (gomp_cluster_module_init_fn) dlsym (h, GOMP_CLUSTER_MODULE_INIT);
  if (!init)
    gomp_fatal ("%s does not define %s; reinstall ompcluster", path,
		GOMP_CLUSTER_MODULE_INIT);
  host.abi = GOMP_CLUSTER_ABI;
  host.run_region = gomp_cluster_run_region;
  host.fatal = gomp_host_fatal;
  host.cancel = gomp_cancel_remote;
  host.env = gomp_cluster_env;
  host.env.launcher_rank = gomp_launcher_rank ();
  host.env.pmi_fd = gomp_launcher_pmi_fd ();
  gomp_task_steal_host (&host);
  struct gomp_cluster_ops *ops = init (&host, argc, argv);
  if (!ops || ops->abi != GOMP_CLUSTER_ABI)
    gomp_fatal ("%s does not match this libgomp.so.1; reinstall ompcluster",
		path);
  return ops;
}

/* Several ranks of the job on this machine (tests, or a launcher that put
   two ranks on one node) share its processors: when their threads
   outnumber the processors, waiting threads spin like those of an
   oversubscribed process, unless GOMP_SPINCOUNT or OMP_WAIT_POLICY says
   otherwise.  Called before the ICVs become cluster-wide, while
   nthreads-var is still the threads of one rank.  */
static void
gomp_share_processors (int local_ranks)
{
  if (local_ranks <= 1 || gomp_spin_count_set || gomp_wait_policy >= 0)
    return;
  if ((unsigned long) local_ranks * gomp_global_icv.nthreads_var
      > gomp_available_cpus)
    gomp_spin_count = gomp_spin_count_throttled;
}

/* C library functions that MPI, UCX and hwloc call.  A program that
   defines a global function of one of these names (Rodinia's myocyte
   defines read and write, for files of floats) has it called in their
   place on several nodes: the executable comes first in the dynamic
   linker's search, and it exports the name as soon as a library in its
   link uses it.  One node runs such a program as it is.  */
static const char *const gomp_libc_shadowed[] = {
  "read", "write", "pread", "pread64", "pwrite", "pwrite64", "readv",
  "writev", "open", "open64", "openat", "openat64", "close", "lseek",
  "lseek64", "stat", "stat64", "fstat", "fstat64", "lstat", "access",
  "unlink", "mkdir", "opendir", "readdir", "readdir64", "closedir",
  "fopen", "fopen64", "fclose", "fread", "fwrite", "fgets", "fscanf",
  "pipe", "dup", "dup2", "fcntl", "ioctl", "poll", "select", "epoll_wait",
  "socket", "connect", "accept", "bind", "listen", "send", "recv",
  "sendto", "recvfrom", "sendmsg", "recvmsg", "shutdown", "getsockopt",
  "setsockopt", "gethostname", "mmap", "munmap", "mprotect", "madvise",
  "getpid", "gettid", "kill", "sched_yield", "sched_getaffinity",
  "nanosleep", "usleep", "fork", "waitpid", NULL
};

/* The first of gomp_libc_shadowed that the program itself defines, or
   NULL.  */
static const char *
gomp_shadowed_libc (void)
{
  Dl_info prog, def;
  if (!__ompc_user_main || !dladdr ((void *) __ompc_user_main, &prog))
    return NULL;
  for (int i = 0; gomp_libc_shadowed[i]; i++)
    {
      void *p = dlsym (RTLD_DEFAULT, gomp_libc_shadowed[i]);
      if (p && dladdr (p, &def) && def.dli_fbase == prog.dli_fbase)
	return gomp_libc_shadowed[i];
    }
  return NULL;
}

/* A program built without the plugin cannot share its memory: refuse to
   run it on several nodes before it does anything.  Every rank fails;
   only rank 0 (or a rank that does not know its number) says why, so that
   the user reads the message once.  */
static void __attribute__ ((constructor))
gomp_check_launch (void)
{
  if (gomp_launcher_size () > 1
      && (!__ompc_user_main || !__ompc_shared_start || !__ompc_shared_end)
      && gomp_launcher_rank () > 0)
    _exit (1);
  if (gomp_launcher_size () > 1 && !__ompc_user_main)
    gomp_fatal ("this program was not compiled with the ompcluster plugin, "
		"so it cannot run on %d nodes; rebuild it with ompcc (or gcc "
		"-fopenmp -fplugin=ompcluster) or run it on one node",
		gomp_launcher_size ());
  if (gomp_launcher_size () > 1
      && (!__ompc_shared_start || !__ompc_shared_end))
    gomp_fatal ("this program was linked without the ompcluster linker "
		"fragment (ompcluster.ld), so its globals cannot be shared "
		"on %d nodes; link it with ompcc (or gcc -fopenmp "
		"-fplugin=ompcluster) or run it on one node",
		gomp_launcher_size ());
  const char *shadowed = gomp_launcher_size () > 1
			 ? gomp_shadowed_libc () : NULL;
  if (shadowed)
    {
      if (gomp_launcher_rank () > 0)
	_exit (1);
      gomp_fatal ("not supported: the program defines its own function "
		  "%s(), which the MPI, UCX and hwloc libraries that run "
		  "the cluster would call in place of the C library's; "
		  "rename it or make it static to run on %d nodes (one node "
		  "runs the program as it is)", shadowed,
		  gomp_launcher_size ());
    }
  /* env.c's constructor ran before: a value one node would ignore could
     leave the nodes configured differently from what the user meant.  */
  if (gomp_launcher_size () > 1 && gomp_env_errors)
    {
      if (gomp_launcher_rank () > 0)
	_exit (1);
      gomp_fatal ("%d environment variable%s above %s an invalid value: fix "
		  "%s before running on %d nodes (OMP_DISPLAY_ENV=true shows "
		  "the settings; one node ignores invalid values)",
		  gomp_env_errors, gomp_env_errors > 1 ? "s" : "",
		  gomp_env_errors > 1 ? "have" : "has",
		  gomp_env_errors > 1 ? "them" : "it", gomp_launcher_size ());
    }
}

/* The launcher said it started several processes, but MPI joined a
   different number of them: without a process manager that MPI can talk
   to (Slurm's srun without --mpi=pmi2, where MpiDefault is none), every
   process starts MPI alone and would run the whole program by itself.
   Refuse, rank 0 of the launcher saying why; the other processes leave
   quietly, as for a program without the plugin.  */
static void
gomp_check_world (void)
{
  if (gomp_cluster->nodes == gomp_launcher_size ())
    return;
  if (gomp_launcher_rank () > 0)
    _exit (EXIT_FAILURE);
  gomp_fatal ("the launcher started %d processes but MPI joined %d of "
	      "them: MPI found no process manager to talk to (under Slurm, "
	      "start the job with 'srun --mpi=pmi2', or set MpiDefault=pmi2 "
	      "in slurm.conf)", gomp_launcher_size (), gomp_cluster->nodes);
}

GOMP_EXPORT int
main (int argc, char **argv, char **envp)
{
  if (!__ompc_user_main)
    gomp_fatal ("the program has no main compiled with the ompcluster "
		"plugin; rebuild it with ompcc");
  if (gomp_launcher_size () > 1)
    {
      gomp_disable_aslr (argv);
      gomp_cluster = gomp_load_cluster (&argc, &argv);
      gomp_check_world ();
      __atomic_store_n (&gomp_sys_hooked, 1, __ATOMIC_RELEASE);
      gomp_share_processors (gomp_cluster->local_ranks);
      if (gomp_cluster->local_unbound)
	gomp_affinity_bind_rank (gomp_cluster->local_rank,
				 gomp_cluster->local_ranks,
				 gomp_cluster_env.num_threads);
      gomp_cluster_init_icvs ();
      gomp_cluster->run_main (__ompc_user_main, argc, argv, envp);
    }
  return __ompc_user_main (argc, argv, envp);
}
