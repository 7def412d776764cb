/* module.c -- the cluster module's start-up: MPI with full thread support,
   the communicators, the check that every rank sees the same addresses,
   the DSM and the transport; and the operations table the runtime gets
   back (cluster.h).  The module's one exported symbol is
   ompc_cluster_module_init.  */

#include "cluster-int.h"
#include <dlfcn.h>
#include <elf.h>
#include <link.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

struct gomp_cluster_host *gomp_cl_host;
int gomp_cl_rank, gomp_cl_nodes;
MPI_Comm gomp_cl_dispatch_comm = MPI_COMM_NULL;
MPI_Comm gomp_cl_coll_comm = MPI_COMM_NULL;

void
gomp_cl_fatal (const char *fmt, ...)
{
  char msg[1024];
  va_list ap;

  va_start (ap, fmt);
  vsnprintf (msg, sizeof msg, fmt, ap);
  va_end (ap);
  gomp_cl_host->fatal (msg);
}

void
gomp_cl_check_mpi (int err, const char *what)
{
  char text[MPI_MAX_ERROR_STRING];
  int len = 0;

  if (__builtin_expect (err == MPI_SUCCESS, 1))
    return;
  if (MPI_Error_string (err, text, &len) != MPI_SUCCESS)
    snprintf (text, sizeof text, "error %d", err);
  gomp_cl_fatal ("%s failed: %s", what, text);
}

/* The addresses every rank must agree on.  With address space
   randomisation off (start.c re-executes the program) they do, unless the
   ranks run different binaries or libraries, or a rank's environment
   preloads a library.  */
struct gomp_cl_addr
{
  const char *what;
  const void *addr;
  bool id;	/* ADDR is an identifier, not an address.  */
};

/* The first 8 bytes of the GNU build ID (ld --build-id, the default of
   Debian's and most distributions' GCC) of the object INFO describes: two
   builds that differ in code but not in layout still differ here.  0
   without one.  */
static uint64_t
gomp_cl_phdr_build_id (struct dl_phdr_info *info)
{
  for (int i = 0; i < info->dlpi_phnum; i++)
    {
      const ElfW(Phdr) *ph = &info->dlpi_phdr[i];
      if (ph->p_type != PT_NOTE)
	continue;
      const char *p = (const char *) (info->dlpi_addr + ph->p_vaddr);
      const char *end = p + ph->p_memsz;
      while (p + sizeof (ElfW(Nhdr)) <= end)
	{
	  const ElfW(Nhdr) *nh = (const ElfW(Nhdr) *) p;
	  const char *desc = p + sizeof *nh + ((nh->n_namesz + 3) & ~3u);
	  if (nh->n_type == NT_GNU_BUILD_ID && nh->n_namesz == 4
	      && memcmp (p + sizeof *nh, "GNU", 4) == 0)
	    {
	      uint64_t id = 0;
	      memcpy (&id, desc, nh->n_descsz < 8 ? nh->n_descsz : 8);
	      return id;
	    }
	  p = desc + ((nh->n_descsz + 3) & ~3u);
	}
    }
  return 0;
}

static int
gomp_cl_build_id_phdr (struct dl_phdr_info *info, size_t size, void *data)
{
  (void) size;
  *(uint64_t *) data = gomp_cl_phdr_build_id (info);
  /* The first object is the program: stop there.  */
  return 1;
}

static uint64_t
gomp_cl_build_id (void)
{
  uint64_t id = 0;
  dl_iterate_phdr (gomp_cl_build_id_phdr, &id);
  return id;
}

/* The shared libraries loaded when the module starts, before MPI_Init
   (which may load transport modules that depend on the node's hardware):
   each one's file name and build ID (without one, its size in memory), in
   load order, for the check that every rank runs the same ones.  */
#define GOMP_CL_LIBS_MAX 48
struct gomp_cl_lib
{
  char name[56];
  uint64_t id;
};

struct gomp_cl_libs
{
  unsigned n;
  struct gomp_cl_lib lib[GOMP_CL_LIBS_MAX];
};

static int
gomp_cl_libs_phdr (struct dl_phdr_info *info, size_t size, void *data)
{
  struct gomp_cl_libs *l = data;
  const char *name = info->dlpi_name;
  (void) size;
  /* The program (empty name), covered by its own build ID, and the vDSO
     (no file): the kernel's, not the node's installation.  */
  if (!name || !*name || !strchr (name, '/') || l->n == GOMP_CL_LIBS_MAX)
    return 0;
  struct gomp_cl_lib *e = &l->lib[l->n++];
  const char *base = strrchr (name, '/') + 1;
  memset (e->name, 0, sizeof e->name);
  strncpy (e->name, base, sizeof e->name - 1);
  e->id = gomp_cl_phdr_build_id (info);
  if (e->id == 0)
    for (int i = 0; i < info->dlpi_phnum; i++)
      if (info->dlpi_phdr[i].p_type == PT_LOAD)
	e->id += info->dlpi_phdr[i].p_memsz;
  return 0;
}

/* FNV-1a over L's entries: one number to compare first.  */
static uint64_t
gomp_cl_libs_hash (const struct gomp_cl_libs *l)
{
  uint64_t h = 0xcbf29ce484222325ULL;
  const unsigned char *p = (const unsigned char *) l->lib;
  for (size_t i = 0; i < l->n * sizeof l->lib[0]; i++)
    h = (h ^ p[i]) * 0x100000001b3ULL;
  return h ^ l->n;
}

static struct gomp_cl_libs gomp_cl_my_libs;

static size_t
gomp_cl_addresses (struct gomp_cl_addr *a)
{
  size_t n = 0;
  a[n++] = (struct gomp_cl_addr)
    { "the shared segment's start (__ompc_shared_start)",
      dlsym (RTLD_DEFAULT, "__ompc_shared_start"), false };
  a[n++] = (struct gomp_cl_addr)
    { "the shared segment's end (__ompc_shared_end)",
      dlsym (RTLD_DEFAULT, "__ompc_shared_end"), false };
  a[n++] = (struct gomp_cl_addr)
    { "the program's code (__ompc_user_main)",
      dlsym (RTLD_DEFAULT, "__ompc_user_main"), false };
  a[n++] = (struct gomp_cl_addr) { "libc (malloc)", (void *) malloc, false };
  a[n++] = (struct gomp_cl_addr) { "libc (printf)", (void *) printf, false };
  a[n++] = (struct gomp_cl_addr)
    { "MPI (MPI_Send)", (void *) MPI_Send, false };
  a[n++] = (struct gomp_cl_addr)
    { "the runtime libgomp.so.1", (void *) gomp_cl_host->run_region, false };
  a[n++] = (struct gomp_cl_addr)
    { "the cluster module ompcluster-mpi.so", (void *) gomp_cl_addresses,
      false };
  a[n++] = (struct gomp_cl_addr)
    { "the program's build ID (a different binary)",
      (void *) (uintptr_t) gomp_cl_build_id (), true };
  a[n++] = (struct gomp_cl_addr)
    { "the shared libraries' build IDs (different libraries)",
      (void *) (uintptr_t) gomp_cl_libs_hash (&gomp_cl_my_libs), true };
  return n;
}

/* Compares this rank's addresses with every other rank's; rank 0 names
   every difference and ends the job.  */
static void
gomp_cl_check_addresses (void)
{
  struct gomp_cl_addr a[16];
  size_t n = gomp_cl_addresses (a);
  uint64_t mine[16], *all;
  MPI_Request req;
  char msg[2048];
  size_t len = 0;

  for (size_t i = 0; i < n; i++)
    mine[i] = (uint64_t) (uintptr_t) a[i].addr;
  all = malloc (sizeof (uint64_t) * n * gomp_cl_nodes);
  if (!all)
    gomp_cl_fatal ("out of memory");
  gomp_cl_check_mpi (MPI_Iallgather (mine, n, MPI_UINT64_T, all, n,
				     MPI_UINT64_T, gomp_cl_coll_comm, &req),
		     "MPI_Iallgather");
  gomp_cl_wait (&req);
  msg[0] = 0;
  /* The last entry is the libraries' hash: named below, library by
     library.  */
  size_t libs = n - 1;
  for (int r = 1; r < gomp_cl_nodes; r++)
    for (size_t i = 0; i < libs; i++)
      if (all[r * n + i] != all[i] && len < sizeof msg - 200)
	len += snprintf (msg + len, sizeof msg - len,
			 a[i].id ? "%s%s is %#llx on rank 0 but %#llx on rank %d"
			 : "%s%s is at %#llx on rank 0 but at %#llx on rank %d",
			 len ? "; " : "", a[i].what,
			 (unsigned long long) all[i],
			 (unsigned long long) all[r * n + i], r);
  /* Which library differs: every rank knows whether any list does, so
     all of them take part in gathering the lists, or none.  */
  bool libs_differ = false;
  for (int r = 1; r < gomp_cl_nodes; r++)
    libs_differ |= all[r * n + libs] != all[libs];
  if (libs_differ)
    {
      struct gomp_cl_libs *lists = malloc (sizeof *lists * gomp_cl_nodes);
      if (!lists)
	gomp_cl_fatal ("out of memory");
      gomp_cl_check_mpi (MPI_Iallgather (&gomp_cl_my_libs,
					 sizeof gomp_cl_my_libs, MPI_BYTE,
					 lists, sizeof gomp_cl_my_libs,
					 MPI_BYTE, gomp_cl_coll_comm, &req),
			 "MPI_Iallgather");
      gomp_cl_wait (&req);
      for (int r = 1; r < gomp_cl_nodes && len < sizeof msg - 300; r++)
	{
	  const struct gomp_cl_libs *l0 = &lists[0], *l = &lists[r];
	  for (unsigned i = 0; i < l0->n || i < l->n; i++)
	    {
	      const struct gomp_cl_lib *e0 = i < l0->n ? &l0->lib[i] : NULL;
	      const struct gomp_cl_lib *e = i < l->n ? &l->lib[i] : NULL;
	      if (e0 && e && !strcmp (e0->name, e->name) && e0->id == e->id)
		continue;
	      if (e0 && e && !strcmp (e0->name, e->name))
		len += snprintf (msg + len, sizeof msg - len, "%s%s is "
				 "another build on rank %d (build ID %#llx, "
				 "%#llx on rank 0)", len ? "; " : "",
				 e->name, r, (unsigned long long) e->id,
				 (unsigned long long) e0->id);
	      else
		len += snprintf (msg + len, sizeof msg - len, "%sshared "
				 "library %d is %s on rank 0 but %s on rank %d",
				 len ? "; " : "", i + 1,
				 e0 ? e0->name : "(none)",
				 e ? e->name : "(none)", r);
	      break;
	    }
	}
      free (lists);
    }
  free (all);
  if (len == 0)
    return;
  if (gomp_cl_rank == 0)
    {
      fprintf (stderr, "ompcluster: rank 0: fatal error: the ranks do not "
	       "see the same addresses, so they cannot share memory: %s.  "
	       "Run the same binary with the same libraries and environment "
	       "on every node (no LD_PRELOAD on some ranks only), with "
	       "address space randomisation off (ompcluster turns it off "
	       "itself unless the system forbids it).\n", msg);
      fflush (stderr);
      gomp_cl_abort_job (EXIT_FAILURE);
    }
  /* The other ranks wait for rank 0's abort.  */
  gomp_cl_check_mpi (MPI_Ibarrier (gomp_cl_coll_comm, &req), "MPI_Ibarrier");
  gomp_cl_wait (&req);
  gomp_cl_fatal ("the ranks do not see the same addresses: %s", msg);
}

/* An atomic on shared memory with the ordering its memory order asks
   for across nodes (OpenMP 5.1 section 1.4.4, C11 7.17.3): with release,
   acq_rel or seq_cst, this node's writes reach their homes (a release)
   before an atomic that writes; with acquire, acq_rel or seq_cst
   (consume as acquire), what other nodes released becomes visible after
   an atomic that reads (a pull).  Relaxed atomics cost nothing more.
   The atomic itself runs at its block's home, where every node's
   atomics on a location are ordered, so seq_cst atomics have one total
   order.  */
static bool
gomp_cl_atomic (enum gomp_cluster_atomic_op op, void *addr, size_t size,
		const void *operand, void *expected, void *result,
		bool op_fetch, int memorder)
{
  int mo = memorder & 0xffff;	/* Without the HLE bits.  */
  bool shared = gomp_dsm_contains (addr);
  bool writes = op != GOMP_CLUSTER_ATOMIC_LOAD;
  bool reads = op != GOMP_CLUSTER_ATOMIC_STORE;
  if (shared && writes && (mo == __ATOMIC_RELEASE || mo == __ATOMIC_ACQ_REL
			   || mo == __ATOMIC_SEQ_CST))
    gomp_cl_release ();
  bool ok = gomp_dsm_atomic (op, addr, size, operand, expected, result,
			     op_fetch, memorder);
  if (shared && reads && (mo == __ATOMIC_ACQUIRE || mo == __ATOMIC_CONSUME
			  || mo == __ATOMIC_ACQ_REL || mo == __ATOMIC_SEQ_CST))
    gomp_cl_acquire_pull ();
  return ok;
}

/* ops->remote_time: the DSM's faults, and the waits for other nodes
   outside them (remote locks, atomics, heap calls ...) and in them.  */
static uint64_t
cl_remote_time (void)
{
  return gomp_dsm_fault_time () + gomp_cl_thread_wait_ns ();
}

struct gomp_cluster_ops gomp_cl_ops =
{
  .abi = GOMP_CLUSTER_ABI,
  .run_main = gomp_cl_run_main,
  .region_start = gomp_cl_region_start,
  .barrier = gomp_cl_barrier,
  .barrier_bcast = gomp_cl_barrier_bcast,
  .barrier_flags = gomp_cl_barrier_flags,
  .cancel = gomp_cl_cancel,
  .flush = gomp_cl_flush,
  .lock = gomp_cl_lock,
  .try_lock = gomp_cl_try_lock,
  .unlock = gomp_cl_unlock,
  .atomic = gomp_cl_atomic,
  .malloc = gomp_dsm_malloc,
  .calloc = gomp_dsm_calloc,
  .memalign = gomp_dsm_memalign,
  .free = gomp_dsm_free,
  .realloc = gomp_dsm_realloc,
  .usable_size = gomp_dsm_usable_size,
  .loop_next = gomp_cl_loop_next,
  .shutdown = gomp_cl_shutdown,
  .abort = gomp_cl_abort,
  .thread_stack_alloc = gomp_dsm_pthread_stack_alloc,
  .thread_init = gomp_dsm_thread_init,
  .thread_stack_private = GOMP_DSM_STACK_PRIVATE,
  .shared = gomp_dsm_contains,
  .addr_kind = gomp_dsm_addr_kind,
  .task_steal = gomp_cl_task_steal,
  .task_serve = gomp_cl_task_serve,
  .task_done = gomp_cl_task_done,
  .task_fulfill = gomp_cl_task_fulfill,
  .task_take_done = gomp_cl_task_take_done,
  .task_announce = gomp_cl_task_announce,
  .remote_time = cl_remote_time,
};

__attribute__ ((visibility ("default"))) struct gomp_cluster_ops *
ompc_cluster_module_init (struct gomp_cluster_host *host, int *argc,
			  char ***argv)
{
  int provided, initialized;

  gomp_cl_host = host;
  if (host->abi != GOMP_CLUSTER_ABI)
    {
      fprintf (stderr, "ompcluster: fatal error: libgomp.so.1 and "
	       "ompcluster-mpi.so come from different builds (interface %d "
	       "and %d); reinstall ompcluster\n", host->abi,
	       GOMP_CLUSTER_ABI);
      exit (EXIT_FAILURE);
    }
  dl_iterate_phdr (gomp_cl_libs_phdr, &gomp_cl_my_libs);
  gomp_cl_check_mpi (MPI_Initialized (&initialized), "MPI_Initialized");
  if (initialized)
    gomp_cl_fatal ("MPI is already initialised: a program run by ompcluster "
		   "must not call MPI_Init itself");
  gomp_cl_start_watch ();
  gomp_cl_check_mpi (MPI_Init_thread (argc, argv, MPI_THREAD_MULTIPLE,
				      &provided), "MPI_Init_thread");
  gomp_cl_start_watch_end ();
  /* MPICH's MPI_Init_thread leaves stdout unbuffered, so that every
     printf costs a write to the launcher's pipe: Rodinia's pathfinder,
     which prints a million numbers from its serial code, took 35-40 s
     at 2 nodes against 0.9 s on one.  Line-buffered instead, as on a
     terminal: each line still reaches the job's output as soon as it is
     complete, and a line costs one write.  Whatever the program itself
     sets later (setvbuf in main) holds.  A buffer of its own: glibc
     would keep the one-byte buffer of the unbuffered mode.  */
  static char stdout_buf[BUFSIZ];
  setvbuf (stdout, stdout_buf, _IOLBF, sizeof stdout_buf);
  gomp_cl_check_mpi (MPI_Comm_set_errhandler (MPI_COMM_WORLD,
					      MPI_ERRORS_RETURN),
		     "MPI_Comm_set_errhandler");
  MPI_Comm_rank (MPI_COMM_WORLD, &gomp_cl_rank);
  MPI_Comm_size (MPI_COMM_WORLD, &gomp_cl_nodes);
  gomp_cl_ops.rank = gomp_cl_rank;
  gomp_cl_ops.nodes = gomp_cl_nodes;
  if (provided < MPI_THREAD_MULTIPLE)
    gomp_cl_fatal ("the MPI library provides thread level %d, not "
		   "MPI_THREAD_MULTIPLE (%d), which ompcluster needs; use an "
		   "MPI library built with full thread support (MPICH's "
		   "default)", provided, MPI_THREAD_MULTIPLE);
  gomp_cl_check_mpi (MPI_Comm_dup (MPI_COMM_WORLD, &gomp_cl_dispatch_comm),
		     "MPI_Comm_dup");
  gomp_cl_check_mpi (MPI_Comm_dup (MPI_COMM_WORLD, &gomp_cl_coll_comm),
		     "MPI_Comm_dup");
  gomp_cl_stats_init ();
  gomp_cl_wait_init ();
  gomp_cl_check_addresses ();

  gomp_cl_crash_init ();
  gomp_cl_lock_init ();
  gomp_cl_pull_init ();
  gomp_cl_steal_init ();
  gomp_cl_loop_init ();
  gomp_cl_cancel_init ();
  gomp_cl_exit_init ();
  gomp_cl_output_init (host->env.ordered_output);
  static const enum gomp_dsm_home_policy homes[] = {
    [GOMP_CLUSTER_HOME_FIRST_TOUCH] = HOME_FIRST_TOUCH,
    [GOMP_CLUSTER_HOME_BLOCK] = HOME_BLOCK,
    [GOMP_CLUSTER_HOME_CYCLIC] = HOME_CYCLIC
  };
  struct gomp_dsm_config dsm = {
    .segment_size = host->env.segment_size,
    .stack_area = host->env.stack_area,
    .block = host->env.dsm_block,
    .home = homes[host->env.dsm_home],
    .prefetch = host->env.dsm_prefetch,
    .eager = host->env.dsm_eager,
    .migrate = host->env.dsm_migrate
  };
  gomp_dsm_init (gomp_cl_rank, gomp_cl_nodes, &dsm);
  gomp_cl_report_init ();
  gomp_cl_transport_init ();
  gomp_cl_heartbeat_start ();
  return &gomp_cl_ops;
}
