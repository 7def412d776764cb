/* libgomp.h -- the runtime's one internal header.

   Naming: GOMP_* and omp_* are the ABI that GCC 12's libgomp.so.1 exports
   (declared in libgomp_g.h and omp.h); everything private is gomp_* (and
   ompc_* for the entry points the ompcluster plugin calls), has hidden
   visibility (the whole library is built with -fvisibility=hidden; ABI
   entry points are marked GOMP_EXPORT), and is declared here, grouped by
   the file that defines it.  */

#ifndef OMPC_LIBGOMP_H
#define OMPC_LIBGOMP_H 1

#define _GNU_SOURCE 1
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include "cluster.h"

#define GOMP_EXPORT __attribute__ ((visibility ("default")))
#define GOMP_NORETURN __attribute__ ((noreturn))
#define GOMP_LIKELY(x) __builtin_expect (!!(x), 1)
#define GOMP_UNLIKELY(x) __builtin_expect (!!(x), 0)

/* error.c: the one error path.  Messages read
   "ompcluster: rank R thread T: WHAT" (the rank part only with several
   nodes) and say what to do.  */
extern void gomp_error (const char *fmt, ...)
  __attribute__ ((format (printf, 1, 2)));
extern void gomp_fatal (const char *fmt, ...)
  __attribute__ ((format (printf, 1, 2))) GOMP_NORETURN;
/* An ABI entry point or a case that is not implemented yet.  */
extern void gomp_unsupported (const char *what) GOMP_NORETURN;
/* Debug output, enabled by OMPC_DEBUG=1.  */
extern int gomp_debug_enabled;
extern void gomp_debug (const char *fmt, ...)
  __attribute__ ((format (printf, 1, 2)));

/* launcher.c: the number of ranks the launcher started (1 without one).  */
extern int gomp_launcher_size (void);
/* This process's rank from the launcher's environment; -1 if unknown.  */
extern int gomp_launcher_rank (void);
/* Hydra's PMI-1 descriptor; -1 with another launcher.  */
extern int gomp_launcher_pmi_fd (void);
/* env.c: the number of invalid environment values seen (start.c refuses
   to run on several nodes with any).  */
extern int gomp_env_errors;
/* env_ompc.c: the environment as the cluster module needs it
   (cluster.h).  */
extern struct gomp_cluster_env gomp_cluster_env;
/* env.c: GOMP_SPINCOUNT was given (with a valid value).  */
extern bool gomp_spin_count_set;
/* parallel.c: runs this node's part of a region rank 0 started
   across the nodes; the cluster module calls it through its host table.  */
extern void gomp_cluster_run_region (void (*fn) (void *), void *data,
				     unsigned nthreads, unsigned flags);

/* ------------------------------------------------------------------------
   The single-node core: wait.h, team.c, barrier.c,
   parallel.c, work.c, loop.c, loop_ull.c, iter.c, iter_ull.c, sections.c,
   single.c, ordered.c, critical.c, lock.c, env.c, env_ompc.c,
   env_display.c, icv.c, affinity.c, affinity_fmt.c, wait.c.

   Model.  Every thread has a struct gomp_thread in TLS (gomp_thread ()).
   A team is one parallel region's threads.  A team spanning nodes has a
   global size NTHREADS (what omp_get_num_threads returns) of which this
   node runs LOCAL_NTHREADS, numbered globally from BASE
   (gomp_cluster_node_base); ts.team_id is always the global number, and
   ts.team_id - team->base indexes node-local arrays.  Teams not spanning
   nodes have base 0 and local_nthreads == nthreads.  The ICVs are the data
   environment of the implicit task (OpenMP 5.1 section 2.4): thr->icv
   points at the ICVs of the task the thread is running.

   Cluster mode (gomp_cluster != NULL), what the core does:
   - nthreads-var of the initial task is nodes x OMP_NUM_THREADS
     (gomp_cluster_init_icvs), so a plain "parallel" spans every node;
     nested regions are node-local and inherit that value unless
     OMP_NUM_THREADS lists one for their level.
   - A top-level region whose ICVs differ from the defaults (after
     omp_set_num_threads, omp_set_schedule...), or a combined parallel
     loop, reaches the other nodes through a trampoline in the shared heap
     (parallel.c) carrying rank 0's ICVs and the loop.
   - Barriers: the last local arriver calls gomp_cluster->barrier (or
     barrier_bcast for copyprivate); single is won on rank 0 only;
     critical, GOMP_atomic_start and locks take a node-local mutex found
     by the lock's address (the word in user memory is never touched),
     then gomp_cluster->lock; dynamic/guided loops and sections take node
     ranges from gomp_cluster->loop_next (unsigned long long loops too,
     when their bounds fit in long).  Static ordered loops pass their turn
     through a word in the shared heap (with a barrier at the loop's start
     and a flush at each ordered region's entry and exit); so do dynamic
     and guided ones, whose tickets are iteration numbers.
   ------------------------------------------------------------------------ */

#include <sched.h>
#include "wait.h"

/* env.c: the ICVs and the one table of environment variables.  */
enum gomp_schedule_type
{
  GFS_RUNTIME,
  GFS_STATIC,
  GFS_DYNAMIC,
  GFS_GUIDED,
  GFS_AUTO,
  /* loop.c's own flag for gomp_loop_init: the loop was declared
     nonmonotonic, its chunks may go to any thread in any order.  */
  GFS_NONMONOTONIC = 0x40000000U,
  GFS_MONOTONIC = 0x80000000U,
  /* sections.c's flag for gomp_loop_init: the loop numbers the sections
     of a sections construct, which a node takes one at a time.  */
  GFS_SECTIONS = 0x20000000U
};

/* omp_proc_bind_t's values.  */
enum gomp_proc_bind
{
  GOMP_BIND_FALSE = 0,
  GOMP_BIND_TRUE = 1,
  GOMP_BIND_PRIMARY = 2,
  GOMP_BIND_CLOSE = 3,
  GOMP_BIND_SPREAD = 4
};

struct gomp_task_icv
{
  unsigned long nthreads_var;
  enum gomp_schedule_type run_sched_var;
  long run_sched_chunk_size;
  int default_device_var;
  unsigned thread_limit_var;
  bool dyn_var;
  unsigned max_active_levels_var;
  char bind_var;
};

/* The initial values of the ICVs (from the environment).  */
extern struct gomp_task_icv gomp_global_icv;
/* OMP_NUM_THREADS=a,b,c and OMP_PROC_BIND=x,y: entry L is the value for
   the implicit tasks of a region at nesting level L (entry 0: the initial
   task); deeper levels keep the last entry's value.  */
extern unsigned long *gomp_nthreads_var_list;
extern size_t gomp_nthreads_var_list_len;
extern char *gomp_bind_var_list;
extern size_t gomp_bind_var_list_len;
extern bool gomp_cancel_var;			/* OMP_CANCELLATION */
extern int gomp_max_task_priority_var;		/* OMP_MAX_TASK_PRIORITY */
extern unsigned long gomp_stacksize;		/* OMP_STACKSIZE, 0: default */
extern int gomp_wait_policy;			/* -1 unset, 0 passive, 1 active */
extern bool gomp_display_affinity_var;		/* OMP_DISPLAY_AFFINITY */
extern char *gomp_affinity_format_var;		/* OMP_AFFINITY_FORMAT */
extern size_t gomp_affinity_format_len;
/* How many times the program's omp_set_affinity_format,
   omp_set_num_teams and omp_set_teams_thread_limit changed the device's
   global ICVs: the next region that spans the nodes after a change
   carries them (parallel.c).  */
extern unsigned gomp_global_icvs_gen;
/* teams.c's nteams-var and teams-thread-limit-var.  */
extern int gomp_nteams_var, gomp_teams_thread_limit_var;
/* Sets affinity-format-var to a copy of FORMAT.  */
extern void gomp_affinity_format_set (const char *format);
extern int gomp_target_offload_var;	/* OMP_TARGET_OFFLOAD: 0 DEFAULT,
					   1 MANDATORY, 2 DISABLED */
/* Cluster mode: the nthreads-var of the initial task becomes nodes x
   OMP_NUM_THREADS (a top-level team spans the nodes).  Idempotent; start.c
   should call it right after setting gomp_cluster; GOMP_parallel and
   gomp_cluster_run_region also call it.  */
extern void gomp_cluster_init_icvs (void);

/* icv.c: the omp_* queries.  The ICVs the current task reads (WRITE:
   for changing them; the initial thread then gets its own copy).  */
extern struct gomp_task_icv *gomp_icv_write (void);

/* barrier.c: the team barrier (node-local; the last local arriver of a
   team spanning nodes calls gomp_cluster->barrier ()).  STATE is the futex
   word: the arrivals at the team's barriers inside the region (bits 0-13),
   the arrivals at the region's closing barrier (bits 14-27: counted apart,
   so that a thread that cancelled the region and went to its end does not
   complete a barrier others wait in), a wake toggle (bit 28) and a
   generation (bits 29-31: a waiter sees it change at most twice before
   it arrives again).  At most GOMP_BAR_MAX_THREADS threads per node
   (16382; GCC's libgomp creates the 10000 of num_threads(10000)).  */
#define GOMP_BAR_ARRIVED_MASK 0x3fffu
#define GOMP_BAR_FINAL_SHIFT 14
#define GOMP_BAR_WAKE_BIT (1u << 28)
#define GOMP_BAR_GEN_SHIFT 29
#define GOMP_BAR_MAX_THREADS (GOMP_BAR_ARRIVED_MASK - 1)
struct gomp_barrier
{
  int state;
  int sleepers;
  unsigned total;
};

struct gomp_team;
extern void gomp_barrier_init (struct gomp_barrier *bar, unsigned count);
/* All threads of the team (this node's part) meet; pending tasks of the team
   run while waiting.  */
extern void gomp_team_barrier_wait (struct gomp_team *team);
/* Same, returning true (without completing the barrier) when the region is
   cancelled (team->cancelled).  */
extern bool gomp_team_barrier_wait_cancel (struct gomp_team *team);
/* The region's closing barrier (gomp_team_end and the workers).  */
extern void gomp_team_barrier_wait_final (struct gomp_team *team);
/* Same as gomp_team_barrier_wait, and in a team spanning nodes the LEN bytes
   at BUF of the node where WINNER is true reach every node.  */
extern void gomp_team_barrier_wait_bcast (struct gomp_team *team, void *buf,
					  size_t len, bool winner);
/* Wakes every thread waiting in the team's barrier so that it looks at
   team->task_queued, team->task_count and team->cancelled again.
   tasksched.c calls it after queueing a task and after finishing the
   team's last task, cancel.c after cancelling.  */
extern void gomp_team_barrier_wake (struct gomp_team *team);

/* work.c: the work-share queue.  Constructs are chained (each one names
   the next), so a thread may run any number of nowait constructs ahead of
   the others; a construct lives in one of the team's GOMP_WS_RING slots
   when that slot is free, else in storage the team grows for the purpose.  */
#define GOMP_WS_RING 8

/* iter.c: one local thread's block of a nonmonotonic dynamic loop's
   chunks, [lo, hi) packed as lo | hi << 32, alone on its cache line: its
   thread takes chunks from the bottom with no other thread writing the
   line, the others steal from the top once their own block is empty.  */
struct gomp_steal_block
{
  unsigned long long range;
} __attribute__ ((aligned (64)));

struct gomp_work_share
{
  /* Sequence number + 1 of the construct using the storage, and of the
     construct whose initialisation is complete.  */
  unsigned long claimed, ready;
  /* The team's next construct, set once by the first thread to reach it.  */
  struct gomp_work_share *next_ws;
  /* Local threads that have not yet moved on to the next construct: at 0
     nothing refers to the storage any more.  */
  unsigned left;
  gomp_mutex_t lock;
  enum gomp_schedule_type sched;
  bool ull;				/* unsigned long long loop */
  bool up;				/* ull loop counting upwards */
  bool atomic_next;			/* NEXT may be advanced by fetch-add */
  bool steal;				/* chunks from BLOCKS (iter.c) */
  bool ordered;
  /* A static ordered loop inside a node: each thread waits for its turn
     on its own line, BLOCKS[I] (ordered.c), not on ORDERED_SERVING.  */
  bool ordered_turns;
  bool spans;				/* loop shared across nodes */
  /* SPANS: a node takes one chunk per request from the loop's counter,
     never a batch (sections: a section that another one waits for must
     not sit in the range of a node whose threads are all busy).  */
  bool one_by_one;
  union
  {
    struct { long end, incr, chunk; };
    struct { unsigned long long end_ull, incr_ull, chunk_ull; };
  };
  /* STEAL: the loop's chunks (the last one may be short), and one block
     of them per local thread (team.c gives every slot of the ring room
     for the team's capacity).  */
  unsigned long nchunks;
  struct gomp_steal_block *blocks;
  /* Cluster loops: this node's current range from loop_next.  */
  long node_next, node_end;
  /* ordered: the ticket (chunk order) allowed into the ordered region,
     and the next ticket a dynamic/guided chunk gets.  */
  unsigned long ordered_serving, ordered_tickets;
  /* A static ordered loop across nodes: the served ticket, a word in the
     shared heap every node reaches with gomp_cluster->atomic.  */
  unsigned long *ordered_shared;
  /* single copyprivate: the winner's data.  */
  void *copyprivate;
  /* taskred.c: task reductions of a work-share (GOMP_loop_start's and
     GOMP_sections2_start's REDUCTIONS); doacross.c: a doacross loop's
     state.  */
  uintptr_t *task_reductions;
  void *doacross;
  /* GOMP_loop_start's MEM (lastprivate conditional, scan): up to this many
     bytes live here, more are malloc()ed.  */
  void *mem;
  long long inline_mem[8];
  /* A team spanning nodes (work.c): MEM is one block in the shared heap,
     the same on every node; rank 0 keeps the slot's block (grown, never
     shrunk) and hands its address to the others.  */
  void *mem_shared;
  size_t mem_shared_size;
  /* doacross.c: the state of a doacross loop, kept from one loop to the
     next that uses the same storage.  */
  void *doacross_buf;
  size_t doacross_buf_size;
  /* Storage beyond the ring (work.c): the links of the team's lists of
     all such storage and of the free part of it.  */
  struct gomp_work_share *all_next, *free_next;
  /* The next iteration, on a cache line of its own: the threads'
     fetch-adds on it must not keep invalidating the line that holds the
     bounds they read after each one.  */
  union
  {
    long next;
    unsigned long long next_ull;
  } __attribute__ ((aligned (64)));
} __attribute__ ((aligned (64)));

/* Starts the next work-sharing construct of the calling thread; returns
   true when the caller must initialise it (then call
   gomp_work_share_init_done).  thr->ts.work_share is the construct.  */
extern bool gomp_work_share_start (void);
extern void gomp_work_share_init_done (void);
/* Ends it: with a barrier, without, or with a cancellable barrier.  */
extern void gomp_work_share_end (void);
extern void gomp_work_share_end_nowait (void);
extern bool gomp_work_share_end_cancel (void);
/* GOMP_loop_start's and GOMP_sections2_start's MEM: *MEM bytes of zeroed
   memory shared by the construct's threads (FIRST: the initialising
   thread); *MEM becomes its address.  */
extern void gomp_work_share_mem (struct gomp_work_share *ws, bool first,
				 void **mem);
/* team.c's hooks: the construct the threads of a new region start from
   (the previous region's last, or the team's first storage), what a
   region that was cancelled leaves behind, and the storage beyond the
   ring when the team is freed.  */
extern void gomp_work_share_team_init (struct gomp_team *team);
extern void gomp_work_share_team_reset (struct gomp_team *team);
extern void gomp_work_share_team_free (struct gomp_team *team);

/* team.c: threads and teams.  */
struct gomp_team_state
{
  struct gomp_team *team;
  struct gomp_work_share *work_share;
  unsigned long ws_seq;			/* work shares entered (team->ws_base
					   at the region's start) */
  unsigned long single_count;		/* single constructs met */
  unsigned long static_trip;		/* static schedule progress */
  unsigned long ordered_ticket;		/* ticket of the current chunk */
  unsigned long ordered_ticket_end;	/* across nodes, dynamic: the
					   ticket after the chunk */
  unsigned long ordered_left;		/* iterations of the chunk whose
					   ordered region has not ended */
  unsigned team_id;			/* global thread number */
  unsigned level, active_level;
  unsigned place_partition_off, place_partition_len;
};

struct gomp_team
{
  unsigned nthreads;			/* whole team (all nodes) */
  unsigned local_nthreads;		/* on this node */
  unsigned base;			/* global number of local thread 0 */
  bool spans;				/* the team spans nodes */
  unsigned capacity;			/* threads the allocation holds */
  struct gomp_barrier barrier;
  /* What the master's team state was before the team (ancestors).  */
  struct gomp_team_state prev_ts;
  /* The master's ICV pointer, implicit ICVs and task before the region
     (restored by gomp_team_end).  */
  struct gomp_task_icv *prev_icv;
  struct gomp_task_icv prev_implicit_icv;
  void *prev_task;
  unsigned long single_count;
  /* The sequence number of the region's first work share: numbers keep
     growing across the regions that reuse this team, so the ring's slots
     need no reset (their old numbers are all smaller).  */
  unsigned long ws_base;
  /* The construct every thread of the next region starts from: it counts
     as construct WS_BASE - 1 (or holds the combined construct WS_BASE).  */
  struct gomp_work_share *ws_start;
  /* Storage beyond the ring: all of it, and the free part (under
     WS_EXTRA_LOCK).  */
  struct gomp_work_share *ws_extra_all, *ws_extra_free;
  gomp_mutex_t ws_extra_lock;
  /* Cancellation (cancel.c sets them): the region, and the innermost
     for/sections construct.  */
  unsigned cancelled, ws_cancelled;
  /* The tasking part's per-team state (tasksched.c): nonzero TASK_QUEUED
     says tasks may be waiting to run; TASK_COUNT counts the team's tasks
     not yet finished (a barrier completes only at 0); TASK_DATA is the
     tasking part's own (taskteam.c, task.h).  REDUCTION_DATA is
     GOMP_parallel_reductions' taskgroup for the implicit tasks.  */
  unsigned task_queued;
  unsigned long task_count;
  void *task_data;
  void *reduction_data;
  struct gomp_team *next_retired;
  /* Rank 0 of a team spanning nodes: the shared word of its static ordered
     loops (allocated at the first one).  */
  unsigned long *ordered_block;
  struct gomp_work_share ws[GOMP_WS_RING];
  /* The threads of this node, by local number (thread 0: the master).  */
  struct gomp_thread *threads[];
};

struct gomp_thread_pool;

struct gomp_thread
{
  struct gomp_team_state ts;
  /* The ICVs of the task being run: &implicit_icv, or an explicit task's
     copy while it runs (tasksched.c, and task.c for undeferred tasks, save
     and restore the pointer).
     NULL for an initial thread that never changed them: gomp_global_icv.  */
  struct gomp_task_icv *icv;
  struct gomp_task_icv implicit_icv;
  /* The tasking part's (task.h, taskteam.c): the task being run (opaque
     here).  */
  void *task;
  /* Task bodies' own time (tasksched.c): how many tasks on this thread's
     stack are timed, and the time the innermost of them has spent so far
     waiting for other tasks (taskwait, taskgroup end, taskyield), running
     them or not, and what the DSM's faults and other waits for other
     nodes took in that time (ops->remote_time).  */
  unsigned task_timed;
  uint64_t task_inner_ns, task_inner_remote_ns;
  /* Which of the movable tasks it runs at home it times
     (tasksched.c, task_time_this): the state of its random pick, and
     whether the last one it timed ran too briefly to time them all (at
     first it times them all).  */
  uint64_t task_time_rng;
  bool task_time_sampled;
  /* Workers: what to run next, and the futex word the master bumps.  */
  void (*fn) (void *);
  void *data;
  int release;
  int sleepers;
  /* Nonzero from a worker's start in a team until it has left the team's
     closing barrier; the master does not reuse the team before.  */
  int in_team;
  /* The pools of worker threads this thread uses when it is a master, by
     the level of the team it is then in (its own workers are busy in that
     team when it starts a nested one).  */
  struct gomp_thread_pool **pools;
  unsigned npools;
  /* Place (1-based index into gomp_places, 0: not bound).  */
  unsigned place;
};

extern __thread struct gomp_thread gomp_tls_data
  __attribute__ ((tls_model ("initial-exec")));

static inline struct gomp_thread *
gomp_thread (void)
{
  return &gomp_tls_data;
}

static inline struct gomp_task_icv *
gomp_icv (void)
{
  struct gomp_thread *thr = gomp_thread ();
  return thr->icv ? thr->icv : &gomp_global_icv;
}

/* How many threads a new region gets (OpenMP 5.1 section 2.6.1).  */
extern unsigned gomp_resolve_num_threads (unsigned specified, unsigned count);
/* The team gomp_team_start starts; fields left out are 0, false or NULL.  */
struct gomp_loop_spec;
struct gomp_team_spec
{
  void (*fn) (void *);		/* Every thread runs FN (DATA).  */
  void *data;
  unsigned nthreads;		/* The whole team's, all nodes' when SPANS.  */
  unsigned flags;		/* GOMP_parallel's (proc_bind in bits 0-2).  */
  bool spans;			/* A top-level team across the nodes.  */
  void *reduction_data;		/* The task reductions' (team->reduction_data).  */
  /* The loop every thread of the team starts in (combined parallel loops
     and sections), or NULL.  */
  const struct gomp_loop_spec *loop;
};
/* Starts the team SPEC describes and makes the caller its thread BASE
   (local 0); the caller then runs FN itself and calls gomp_team_end.  */
extern void gomp_team_start (const struct gomp_team_spec *spec);
extern void gomp_team_end (void);
/* The ICVs of the implicit tasks of a team at LEVEL whose master's ICVs are
   ICV (OMP_NUM_THREADS and OMP_PROC_BIND lists applied).  */
extern void gomp_child_icv (struct gomp_task_icv *child,
			    const struct gomp_task_icv *icv, unsigned level);
/* A new contention group on the calling thread (a target region run on
   the host inside a team): gomp_pools_save sets the thread's pools aside,
   so that the group's regions use other threads (spare pools of earlier
   groups, or new ones); gomp_pools_restore keeps the group's pools as
   spares and puts the old pools back.  */
struct gomp_pools_saved
{
  struct gomp_thread_pool **pools;
  unsigned npools;
};
extern void gomp_pools_save (struct gomp_thread *thr,
			     struct gomp_pools_saved *saved);
extern void gomp_pools_restore (struct gomp_thread *thr,
				struct gomp_pools_saved *saved);
/* Threads the process runs (workers + initial), for the spin throttle.  */
extern unsigned gomp_managed_threads;

/* parallel.c: a top-level region in cluster mode (LOOP: a combined
   parallel loop's or sections' (COUNT of them), or NULL); it spans the
   nodes when rank 0 asks for at least one thread per node.  */
struct gomp_loop_spec;
extern void gomp_parallel_cluster (void (*fn) (void *), void *data,
				   unsigned num_threads, unsigned count,
				   unsigned flags,
				   const struct gomp_loop_spec *loop);
/* parallel.c: the start of a GOMP 1.0 pair (GOMP_parallel_start, the
   GOMP_parallel_loop_*_start and GOMP_parallel_sections_start) in cluster
   mode at top level; the caller then runs FN and GOMP_parallel_end.  */
extern void gomp_parallel_start_cluster (void (*fn) (void *), void *data,
					 unsigned num_threads,
					 const struct gomp_loop_spec *loop,
					 unsigned count);

/* iter.c / iter_ull.c: schedule arithmetic on the current work share.
   Each returns false when the thread gets no more iterations.  */
extern bool gomp_iter_static_next (long *istart, long *iend);
extern bool gomp_iter_dynamic_next (long *istart, long *iend);
extern bool gomp_iter_guided_next (long *istart, long *iend);
extern bool gomp_iter_ull_static_next (unsigned long long *istart,
				       unsigned long long *iend);
extern bool gomp_iter_ull_dynamic_next (unsigned long long *istart,
					unsigned long long *iend);
extern bool gomp_iter_ull_guided_next (unsigned long long *istart,
				       unsigned long long *iend);
/* iter.c: makes WS, a dynamic loop set up for fetch-add (atomic_next,
   CHUNK iterations a chunk) in a team of NTHREADS local threads, a
   work-stealing one (STEAL) when its chunks can be counted in 32 bits;
   called by the initialising thread.  */
extern void gomp_iter_steal_init (struct gomp_work_share *ws,
				  unsigned long chunk, unsigned nthreads);
/* iter.c: a node's next range of a loop shared across nodes (from
   gomp_cluster->loop_next), with the work share's lock held.  */
extern bool gomp_iter_node_take (struct gomp_work_share *ws, long start,
				 long end, long incr, unsigned long chunk,
				 unsigned long want, unsigned long node_chunk,
				 long *istart, long *iend);
/* A loop's bounds and schedule (a combined parallel loop's, given to
   gomp_team_start).  */
struct gomp_loop_spec
{
  enum gomp_schedule_type sched;
  long start, end, incr, chunk;
};
/* work.c: initialises WS for a loop (or sections, with GFS_SECTIONS).  */
extern void gomp_loop_init (struct gomp_work_share *ws, long start, long end,
			    long incr, enum gomp_schedule_type sched,
			    long chunk, bool ordered);
/* loop.c: a combined parallel loop (or sections) region (SPEC: its loop;
   COUNT: the sections, for OMP_DYNAMIC).  */
extern void gomp_parallel_loop (void (*fn) (void *), void *data,
				unsigned num_threads, unsigned flags,
				const struct gomp_loop_spec *spec,
				unsigned count);
extern void gomp_loop_ull_init (struct gomp_work_share *ws, bool up,
				unsigned long long start,
				unsigned long long end,
				unsigned long long incr,
				enum gomp_schedule_type sched,
				unsigned long long chunk, bool ordered);
/* ordered.c: ordered tickets: chunks of an ordered loop enter their
   ordered regions in ticket order (iteration order).  */
#define GOMP_NO_TICKET (~0ul)
/* Every thread of a team spanning nodes, after setting up a static ordered
   loop: one barrier gives every node the loop's shared ticket word.  */
extern void gomp_ordered_cluster_begin (struct gomp_work_share *ws,
					bool first);
extern void gomp_ordered_chunk_done (void);
/* The initialising thread of a static ordered loop in a team of NTHREADS
   local threads (not spanning nodes): per-thread turn words.  */
extern void gomp_ordered_turns_init (struct gomp_work_share *ws,
				     unsigned nthreads);

/* critical.c: the mutex GOMP_atomic_start uses (also its cluster key),
   and the cluster form of every lock named by KEY: a node-local mutex for
   KEY (never the word at KEY), then the module's lock of KEY.  */
extern gomp_mutex_t gomp_atomic_lock;
extern void gomp_cluster_lock_acquire (void *key);
extern void gomp_cluster_lock_release (void *key);
extern bool gomp_cluster_lock_try (void *key);

/* affinity.c: processors and places.  OMP_PLACES is checked at start-up
   (gomp_places_parse_check) but turned into places, through hwloc for the
   abstract names, only when binding or the places API needs them.  */
extern unsigned gomp_available_cpus;
extern const char *gomp_places_var;
extern void gomp_affinity_init_cpus (void);
/* OMPC_BIND_RANKS, and the binding of this rank's process to cores of
   its own: LOCAL_RANK of the LOCAL_RANKS ranks of this machine, each with
   THREADS threads (gomp_affinity_bind_rank says when).  */
extern bool gomp_bind_ranks_var;
extern void gomp_affinity_bind_rank (int local_rank, int local_ranks,
				     unsigned long threads);
extern bool gomp_places_parse_check (const char *val);
extern void gomp_places_show (char *buf, size_t len);
/* Binds the calling thread to place PLACE (1-based).  */
extern void gomp_bind_thread (unsigned place);
extern unsigned gomp_places_count (void);
/* Place PLACE's processors (1-based), NULL if there is no such place.  */
extern const cpu_set_t *gomp_place_set (unsigned place);
extern int gomp_place_format (char *buf, size_t len, const cpu_set_t *set);
/* The place (1-based) of thread I of a new team of N threads under policy
   BIND (enum gomp_proc_bind) whose master is at place MASTER; narrows the
   partition *OFF and *LEN (0-based places) to the thread's.  */
extern unsigned gomp_affinity_place (int bind, unsigned master,
				     unsigned *off, unsigned *len,
				     unsigned n, unsigned i);
/* affinity_fmt.c: OMP_DISPLAY_AFFINITY's line for the calling thread.  */
extern void gomp_display_affinity_thread (void);

/* cancel.c: cancellation in a team spanning the nodes.  team.c calls
   span_start when such a team starts (after resetting its cancellation
   state) and span_end after its closing barrier, when OMP_CANCELLATION
   is true; every barrier of such a team then goes through
   gomp_cancel_cluster_barrier (barrier.c), which returns with
   team->cancelled set when the barrier completed as cancelled.
   gomp_cancel_remote is the host's cancel callback (cluster.h).  */
extern void gomp_cancel_span_start (struct gomp_team *team);
extern void gomp_cancel_span_end (void);
extern void gomp_cancel_cluster_barrier (struct gomp_team *team, bool final,
					 void *buf, size_t len, bool winner);
extern void gomp_cancel_remote (uint64_t region, unsigned what);

/* The tasking part's hooks, which team.c and barrier.c call: taskteam.c's
   for teams and threads, tasksched.c's for the barrier (taskred.c's for the
   reductions).
   - gomp_team_tasks_init/fini: the master, before starting the threads /
     after the region's closing barrier.
   - gomp_thread_task_init: every thread of a team (the master too) after
     thr->ts and thr->icv are set, before running the implicit task.
   - gomp_thread_task_fini: every thread after the closing barrier; it must
     not touch the team (the master may already be reusing it).
   - gomp_barrier_handle_tasks: a thread waiting in a team barrier while
     team->task_queued is nonzero; runs queued tasks, returns true if it
     ran any.
   - gomp_parallel_reduction_register/unregister: GOMP_parallel_reductions'
     task reductions; the result goes to team->reduction_data.  */
extern void gomp_team_tasks_init (struct gomp_team *team);
extern void gomp_team_tasks_fini (struct gomp_team *team);
extern void gomp_thread_task_init (struct gomp_thread *thr);
extern void gomp_thread_task_fini (struct gomp_thread *thr);
extern bool gomp_barrier_handle_tasks (struct gomp_team *team);
/* tasksteal.c's hooks: a team spanning the nodes starts / ends (team.c,
   through gomp_team_tasks_init/fini); a thread of TEAM waits in its
   barrier of generation GEN (arrivals at SHIFT) with no local task
   (barrier.c): returns an
   enum gomp_cluster_steal_state; a thread of TEAM leaves a single
   construct to another node (single.c); the host's task callbacks
   (start.c); OMPC_STATS's task counters (GOMP_TASK_STAT_*).  */
extern bool gomp_task_steal_var;		/* OMPC_TASK_STEAL */
extern void gomp_task_steal_team_start (struct gomp_team *team);
extern void gomp_task_steal_team_end (struct gomp_team *team);
extern int gomp_task_steal_barrier (struct gomp_team *team,
				    unsigned long gen, unsigned shift);
extern void gomp_task_steal_claimed (struct gomp_team *team);
extern void gomp_task_steal_single_left (struct gomp_team *team);
struct gomp_cluster_host;
extern void gomp_task_steal_host (struct gomp_cluster_host *host);
enum
{
  GOMP_TASK_STAT_LOCAL,		/* Tasks of this node run here.  */
  GOMP_TASK_STAT_STOLEN,	/* Other nodes' tasks run here.  */
  GOMP_TASK_STAT_GIVEN,		/* This node's tasks run elsewhere.  */
  GOMP_TASK_STAT_BYTES,		/* Bytes of tasks sent and received.  */
  GOMP_TASK_STATS
};
extern uint64_t gomp_task_stats[GOMP_TASK_STATS];
extern void *gomp_parallel_reduction_register (uintptr_t *rdata,
					       unsigned nthreads);
extern void gomp_parallel_reduction_unregister (void *data);
/* task.c: before the current task changes an ICV; an undeferred task
   reads its creator's ICVs until then, and gets its own copy here.  */
extern void gomp_task_icv_own (struct gomp_thread *thr);
/* taskred.c: a node other than rank 0 joining the task reductions rank 0
   registered for a region spanning the nodes (RDATA in shared memory);
   the result is freed by gomp_parallel_reduction_unregister.  */
extern void *gomp_parallel_reduction_attach (uintptr_t *rdata);
/* GOMP_loop_start / GOMP_sections2_start REDUCTIONS: the first thread to
   reach the construct registers (FIRST true), the others join.  */
extern void gomp_workshare_reduction_register (uintptr_t *reductions,
					       struct gomp_work_share *ws,
					       bool first);

#endif /* OMPC_LIBGOMP_H */
