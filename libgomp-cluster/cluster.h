/* cluster.h -- the interface between the runtime and its cluster layer.

   The runtime (libgomp.so.1, the C files of libgomp-cluster) never links MPI.  When a
   program runs on several nodes, start.c dlopen()s lib/ompcluster-mpi.so
   (libgomp-cluster/cluster/ and libgomp-cluster/dsm/), calls its
   ompc_cluster_module_init with the runtime's callbacks (struct
   gomp_cluster_host) and gets back the module's operations (struct
   gomp_cluster_ops), kept in GOMP_CLUSTER.  With one node GOMP_CLUSTER is
   NULL and every construct takes its single-node path: one predictable
   branch on a global, nothing else.

   Rules both sides keep:
   - A top-level parallel region with P nodes and N >= P threads spans every
     node: node R runs gomp_cluster_node_threads (N, P, R) threads whose
     global numbers start at gomp_cluster_node_base (N, P, R).  A region with
     N < P threads, and every nested region, runs inside the node of the
     thread that meets it (on rank 0 for top-level ones).
   - The barrier op is called by exactly one thread of the node, after every
     local thread of the team has arrived; it completes the DSM's release and
     acquire for the node.
   - Locks are named by an address (the omp_lock_t, the critical's mutex, a
     fixed key for GOMP_atomic_start).  The module keeps their state; the
     lock word in user memory is not used across nodes.  */

#ifndef OMPC_CLUSTER_H
#define OMPC_CLUSTER_H 1

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include "static-tls.h"

/* The version both sides must agree on; bump it with any change below.  */
#define GOMP_CLUSTER_ABI 17

/* Operations of the plugin's atomic entry points, for the atomic op.  */
enum gomp_cluster_atomic_op
{
  GOMP_CLUSTER_ATOMIC_LOAD,
  GOMP_CLUSTER_ATOMIC_STORE,
  GOMP_CLUSTER_ATOMIC_EXCHANGE,
  GOMP_CLUSTER_ATOMIC_CAS,	/* *EXPECTED compared, OPERAND stored.  */
  GOMP_CLUSTER_ATOMIC_ADD,
  GOMP_CLUSTER_ATOMIC_SUB,
  GOMP_CLUSTER_ATOMIC_AND,
  GOMP_CLUSTER_ATOMIC_OR,
  GOMP_CLUSTER_ATOMIC_XOR,
  GOMP_CLUSTER_ATOMIC_NAND
};

/* Where the DSM puts a block's home (OMPC_DSM_HOME).  */
enum gomp_cluster_home
{
  GOMP_CLUSTER_HOME_FIRST_TOUCH,
  GOMP_CLUSTER_HOME_BLOCK,
  GOMP_CLUSTER_HOME_CYCLIC
};

/* The environment as the module needs it.  The runtime's env.c is the one
   reader of every variable (its table holds the defaults, env_ompc.c
   parses the OMPC_* ones into this structure); with several
   nodes a bad value stops the job before the module is loaded, so the
   module never reads the environment itself.  */
struct gomp_cluster_env
{
  bool stats;				/* OMPC_STATS.  */
  unsigned heartbeat;			/* OMPC_HEARTBEAT, seconds; 0: off.  */
  size_t segment_size;			/* OMPC_SEGMENT_SIZE, bytes.  */
  size_t stack_area;			/* OMPC_STACK_AREA, bytes.  */
  size_t dsm_block;			/* OMPC_DSM_BLOCK; 0: the page size.  */
  enum gomp_cluster_home dsm_home;	/* OMPC_DSM_HOME.  */
  bool dsm_prefetch;			/* OMPC_DSM_PREFETCH.  */
  bool dsm_eager;			/* OMPC_DSM_EAGER.  */
  bool dsm_migrate;			/* OMPC_DSM_MIGRATE.  */
  bool ordered_output;			/* OMPC_ORDERED_OUTPUT.  */
  /* OMPC_REPORT: the sharing report's file; NULL when off.  */
  const char *report;
  /* OMP_NUM_THREADS' first level as given (threads per rank); 0 when
     not set.  */
  unsigned long num_threads;
  /* What the launcher told this process: its rank (-1 when no variable
     says) and hydra's PMI-1 descriptor (-1 with another launcher).  */
  int launcher_rank;
  int pmi_fd;
};

/* A thief names at most this many tasks whose descendants it asks for
   (ops->task_steal).  */
#define GOMP_CLUSTER_STEAL_ROOTS 16

/* A node's answer to a thief (ops->task_steal, host->task_state).  */
enum gomp_cluster_steal_state
{
  GOMP_CLUSTER_STEAL_IDLE,	/* No team, or its tasks are done.  */
  GOMP_CLUSTER_STEAL_BUSY,	/* Working, nothing to give now.  */
  GOMP_CLUSTER_STEAL_GOT	/* Tasks to give / given.  */
};

/* ops->addr_kind's answers: outside the shared segment; inside it and
   the same memory on every node; inside it but private to this node (a
   thread stack's private top, where glibc keeps its TLS); in the
   module's own views of the segment, which the program never names; a
   guard block below one of the node's thread stacks, which no access
   may touch on any node (in the last two cases a word of a task's data
   with such a value is no pointer it may use: often a small int in the
   low half of a word whose high half is left from an address of a
   stack).  */
#define GOMP_CLUSTER_ADDR_OUTSIDE 0
#define GOMP_CLUSTER_ADDR_SHARED 1
#define GOMP_CLUSTER_ADDR_PRIVATE 2
#define GOMP_CLUSTER_ADDR_VIEW 3
#define GOMP_CLUSTER_ADDR_GUARD 4

/* What a thief timed of a stolen task and the descendants it made
   there, per task function FN (0: the functions past the first
   GOMP_CLUSTER_TASK_TIMES - 1): how many ran, the time their bodies
   took of their own (less the tasks their threads ran inside them), and
   how much of that went to the DSM's faults and other waits for other
   nodes (ops->remote_time).  */
struct gomp_cluster_task_time
{
  uint64_t fn, ntasks, ns, remote_ns;
};
#define GOMP_CLUSTER_TASK_TIMES 8

/* What the runtime gives the module.  */
struct gomp_cluster_host
{
  int abi;				/* GOMP_CLUSTER_ABI.  */
  /* Runs this node's part of a top-level region that rank 0 started:
     NTHREADS is the whole team's size across nodes.  Returns after the
     region's closing barrier.  Called on ranks other than 0 by the
     thread that serves region dispatches.  */
  void (*run_region) (void (*fn) (void *), void *data, unsigned nthreads,
		      unsigned flags);
  /* Prints the runtime's "ompcluster: rank R thread T: ..." fatal error and
     ends the job; used for errors the module finds.  */
  void (*fatal) (const char *msg) __attribute__ ((noreturn));
  /* Another node cancelled (WHAT: GOMP_cancel's) the top-level region
     numbered REGION (ops->cancel).  Called by the module's message
     handler: must not block.  */
  void (*cancel) (uint64_t region, unsigned what);
  /* The signals (bit SIG - 1) whose disposition was the default before
     the module and the MPI libraries were loaded: a handler found on one
     of them later is the MPI libraries', not the program's.  */
  uint64_t default_signals;
  struct gomp_cluster_env env;
  /* Tasks between nodes (tasksteal.c).  task_state tells a thief's
     request what this node can give (enum gomp_cluster_steal_state),
     from a handler: must not block; EPOCH, the thief's, names the
     barrier it waits in (ops->task_steal), and a node not yet idle in
     that same barrier is busy.  task_pack takes movable queued
     tasks out of the queue for node SRC (at most MAX_TASKS, about half
     of them; only descendants of the tasks
     ROOTS[0..NROOTS) that this node stole from SRC, when NROOTS is not
     0) and writes them into BUF (at most MAX bytes); returns their
     length, 0 when there are none.  task_finish: the task
     ID given away completed at its thief, whose writes this node has
     acquired: TIMES[0..NTIMES) are the thief's (task_done), the release
     after it took RELEASE_NS there, and the whole of it TOTAL_NS.  task_wake: a request or a completion arrived (from a
     handler: must not block); the team's waiting threads look at
     ops->task_requests and ops->task_dones.  */
  int (*task_state) (uint64_t epoch);
  size_t (*task_pack) (int src, const uint64_t *roots, unsigned nroots,
		       unsigned max_tasks, void *buf, size_t max);
  void (*task_finish) (uint64_t id, uint64_t total_ns, uint64_t release_ns,
		       const struct gomp_cluster_task_time *times,
		       unsigned ntimes);
  /* Another node called omp_fulfill_event for EVENT, a task of this
     node's (ops->task_fulfill), and this node has acquired what that
     node released before; from a thread of the team, as task_finish.  */
  void (*task_fulfilled) (uint64_t event);
  void (*task_wake) (void);
  /* Another node announced (ops->task_announce) movable tasks in the
     interval between barriers numbered INTERVAL (from a handler: must
     not block).  */
  void (*task_noted) (uint64_t interval);
  /* OMPC_STATS: tasks of this node run here, other nodes' tasks run
     here, this node's tasks run elsewhere, bytes of tasks moved.  */
  const uint64_t *task_stats;
};

/* What the module gives the runtime.  */
struct gomp_cluster_ops
{
  int abi;				/* GOMP_CLUSTER_ABI.  */
  int rank, nodes;

  /* Start-up: called from the runtime's main on every rank after init.
     Rank 0 runs USER_MAIN (on a stack inside the shared segment) and ends
     the job with its status; the other ranks serve region dispatches until
     rank 0 ends.  Never returns.  */
  void (*run_main) (int (*user_main) (int, char **, char **), int argc,
		    char **argv, char **envp) __attribute__ ((noreturn));
  /* Rank 0's master starting a top-level region that spans the nodes
     (NTHREADS >= nodes): dispatches it to the other ranks and returns at
     once; rank 0 then runs its own part like any team.  */
  void (*region_start) (void (*fn) (void *), void *data, unsigned nthreads,
			unsigned flags);
  /* The inter-node part of a team barrier (see the rules above).  */
  void (*barrier) (void);
  /* Like barrier, and the node that passes WINNER true gives every node
     the LEN bytes at BUF (copyprivate's pointer, broadcasts).  */
  void (*barrier_bcast) (void *buf, size_t len, bool winner);
  /* Like barrier_bcast (BUF may be NULL), and returns the bitwise OR of
     the FLAGS every node passed (the runtime's cancel.c gives them their
     meaning).  */
  unsigned (*barrier_flags) (void *buf, size_t len, bool winner,
			     unsigned flags);
  /* Tells every other node's host->cancel that this node cancelled
     (WHAT) the region numbered REGION, the runtime's count of the
     top-level regions spanning the nodes, the same on every node.  Does
     not wait.  */
  void (*cancel) (uint64_t region, unsigned what);
  /* omp flush / __sync_synchronize / seq_cst fences in shared code.  */
  void (*flush) (void);

  /* Cluster-wide mutual exclusion named by KEY; nested locks count in the
     runtime, these are plain.  try_lock returns true when acquired.  */
  void (*lock) (void *key);
  bool (*try_lock) (void *key);
  void (*unlock) (void *key);

  /* An atomic of SIZE bytes (1, 2, 4, 8 or 16) at ADDR.  OPERAND points at
     the value, EXPECTED (CAS only) at the expected value, which is updated
     on failure; RESULT receives the old value (the new one for an op-fetch
     when OP_FETCH).  Returns CAS's success.  */
  bool (*atomic) (enum gomp_cluster_atomic_op op, void *addr, size_t size,
		  const void *operand, void *expected, void *result,
		  bool op_fetch, int memorder);

  /* The shared heap: the plugin's heap rewrites land here.  free and
     realloc accept memory libc allocated (they hand it back to libc).  */
  void *(*malloc) (size_t size);
  /* calloc: zeroes only memory that may be non-zero, so that fresh
     memory keeps its first-touch placement.  */
  void *(*calloc) (size_t n, size_t size);
  void *(*memalign) (size_t align, size_t size);
  void (*free) (void *ptr);
  void *(*realloc) (void *ptr, size_t size);
  size_t (*usable_size) (void *ptr);

  /* Dynamic, guided and runtime loops across nodes: takes the next chunk of
     at most NODE_CHUNK iterations for this node from the global counter of
     the loop identified by LOOP_ID (the work share's sequence number in the
     team).  Returns false when the iterations are exhausted.  */
  bool (*loop_next) (unsigned long loop_id, long start, long end, long incr,
		     long node_chunk, long *istart, long *iend);

  /* Exit: rank 0's main returned or exit() was called with STATUS.  */
  void (*shutdown) (int status);
  /* A fatal error on this rank: end every rank of the job (MPI_Abort)
     with STATUS.  */
  void (*abort) (int status) __attribute__ ((noreturn));

  /* Worker threads.  thread_stack_alloc gives a stack of SIZE bytes inside
     the shared segment for pthread_attr_setstack (never freed); its top
     THREAD_STACK_PRIVATE bytes, where glibc keeps the thread's TCB and
     TLS, are private memory, so a thread whose locals other nodes may use
     must first move below them (alloca).  thread_init is the first call
     of every thread that runs on such a stack (a private signal stack for
     the DSM's faults).  */
  void *(*thread_stack_alloc) (size_t size);
  void (*thread_init) (void);
  size_t thread_stack_private;

  /* Ranks of this job on this machine, sharing its processors (1 on a
     real cluster; more when tests run several ranks on one machine): the
     runtime's waits must then not spin as if they had them alone.  */
  int local_ranks;
  /* This rank's number among them (0 .. LOCAL_RANKS - 1), and whether
     they all started with the same processors (no launcher bound them
     each to their own): the runtime may then give each its own cores
     (OMPC_BIND_RANKS).  */
  int local_rank;
  bool local_unbound;

  /* Whether ADDR lies in the shared segment (globals, shared heap,
     threads' stacks), which every node can reach: a region whose data
     block is elsewhere (a stack of the program's own pthread, an explicit
     task's copy) runs inside its node.  */
  bool (*shared) (const void *addr);
  /* What ADDR is, for tasks that may move (taskmove.c): one of
     GOMP_CLUSTER_ADDR_*.  */
  int (*addr_kind) (const void *addr);

  /* The sharing report (OMPC_REPORT): NULL when it is off; else the
     heap entry points (ompc_heap.c) call it with every block of the
     shared heap they hand out, its size, and the return address of
     their caller, the allocation's call site.  */
  void (*heap_site) (void *ptr, size_t size, void *caller);

  /* Tasks between nodes (tasksteal.c, cluster/steal.c), from program
     threads of a team spanning the nodes, never holding a lock of the
     runtime.  task_steal asks node VICTIM for MAX_TASKS tasks at most
     for a thread of this node in the barrier EPOCH names (a number the
     runtime gives every barrier of the regions spanning the nodes, the
     same on every node; host->task_state gets it)
     (when NROOTS is not
     0, only descendants of the tasks ROOTS[0..NROOTS) this node gave
     VICTIM, as host->task_pack's): with
     GOMP_CLUSTER_STEAL_GOT, BUF holds *LEN bytes that host->task_pack
     wrote there, and this node has acquired what VICTIM released before
     it gave them.  task_serve answers the requests that wait
     (*task_requests nonzero) through host->task_pack, releasing first.
     task_done: task ID that VICTIM gave, started here at START_NS
     (CLOCK_MONOTONIC), has completed with its descendants here, whose
     bodies took TIMES[0..NTIMES) (at most GOMP_CLUSTER_TASK_TIMES);
     releases and tells VICTIM, with those, the release's time and the
     time since START_NS.  task_take_done (when
     *task_dones is nonzero) acquires what the thieves released and calls
     host->task_finish for each completed task (and host->task_fulfilled
     for each event fulfilled elsewhere).  */
  int (*task_steal) (int victim, uint64_t epoch, const uint64_t *roots,
		     unsigned nroots, unsigned max_tasks, void *buf,
		     size_t max, size_t *len);
  void (*task_serve) (void);
  void (*task_done) (int victim, uint64_t id, uint64_t start_ns,
		     const struct gomp_cluster_task_time *times,
		     unsigned ntimes);
  void (*task_take_done) (void);
  /* omp_fulfill_event on this node of EVENT, the handle of a detached
     task of node NODE: releases and tells NODE, whose task_take_done
     acquires the release and calls host->task_fulfilled.  */
  void (*task_fulfill) (int node, uint64_t event);
  /* Tells every other node's host->task_noted that this node has
     movable tasks in the interval between barriers numbered INTERVAL
     (the runtime's number, the same on every node for the same interval:
     tasksteal.c's gomp_task_steal_interval); does not wait.  */
  void (*task_announce) (uint64_t interval);
  const unsigned *task_requests;
  const unsigned *task_dones;
  /* The time the calling thread has spent so far in the DSM's fault
     handler and waiting for the answers of other nodes (remote locks,
     atomics, heap calls ...) (ns): what its accesses to shared memory
     and its synchronisation cost beyond what they cost on one node.  */
  uint64_t (*remote_time) (void);
};

/* NULL with one node.  */
extern struct gomp_cluster_ops *gomp_cluster
  __attribute__ ((visibility ("hidden")));

/* The module's one exported symbol.  */
typedef struct gomp_cluster_ops *(*gomp_cluster_module_init_fn)
  (struct gomp_cluster_host *host, int *argc, char ***argv);
#define GOMP_CLUSTER_MODULE_INIT "ompc_cluster_module_init"

/* How a top-level team of NTHREADS spreads over NODES nodes.  */
static inline unsigned
gomp_cluster_node_threads (unsigned nthreads, unsigned nodes, unsigned rank)
{
  return nthreads / nodes + (rank < nthreads % nodes);
}

static inline unsigned
gomp_cluster_node_base (unsigned nthreads, unsigned nodes, unsigned rank)
{
  unsigned q = nthreads / nodes, r = nthreads % nodes;
  return rank * q + (rank < r ? rank : r);
}

#endif /* OMPC_CLUSTER_H */
