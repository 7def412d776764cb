/* task.h -- the tasking part's own data structures, shared by task.c,
   tasksched.c, taskteam.c, taskdep.c, taskred.c, taskloop.c, tasksteal.c,
   cancel.c and target.c (explicit tasks, their scheduling, the teams'
   tasking state, taskgroups, dependences, task reductions, cancellation).
   Everything else sees tasks only through the hooks declared in
   libgomp.h.

   Model.  Every task of a team (the node-local part of a team spanning
   nodes) is protected by one lock, the team's TASKS->LOCK.  A deferred task
   is, until it completes, in exactly one of two lists of its parent:
   READY_CHILDREN (it may start) or BUSY_CHILDREN (it waits for dependences,
   runs, or waits for its detach event).  A ready task is also in the team's
   QUEUE and, when it belongs to a taskgroup, in the taskgroup's READY list;
   all three are ordered by priority.  A thread waiting in a barrier runs
   the team queue, in taskwait its own ready children, at the end of a
   taskgroup the taskgroup's ready tasks: each a descendant of the waiting
   task, as the task scheduling constraints ask (OpenMP 5.1, 2.12.6).

   Dependences (2.19.11) are a hash table per parent, from address to the
   last out/inout/mutexinoutset sibling and the in siblings since; a task
   with unmet dependences counts its predecessors and is queued when the
   count reaches zero.  A task's memory is freed when it completes; its
   unfinished children then lose their parent pointer (nothing else of the
   parent is used after its completion).  */

#ifndef OMPC_TASK_H
#define OMPC_TASK_H 1

#include "libgomp.h"
#include "libgomp_g.h"
#include "cluster.h"
#include <time.h>

/* From gomp-constants.h (GCC 12): GOMP_task flags and dependence kinds.  */
#define GOMP_TASK_FLAG_UNTIED		(1 << 0)
#define GOMP_TASK_FLAG_FINAL		(1 << 1)
#define GOMP_TASK_FLAG_MERGEABLE	(1 << 2)
#define GOMP_TASK_FLAG_DEPEND		(1 << 3)
#define GOMP_TASK_FLAG_PRIORITY		(1 << 4)
#define GOMP_TASK_FLAG_UP		(1 << 8)
#define GOMP_TASK_FLAG_GRAINSIZE	(1 << 9)
#define GOMP_TASK_FLAG_IF		(1 << 10)
#define GOMP_TASK_FLAG_NOGROUP		(1 << 11)
#define GOMP_TASK_FLAG_REDUCTION	(1 << 12)
#define GOMP_TASK_FLAG_DETACH		(1 << 13)
#define GOMP_TASK_FLAG_STRICT		(1 << 14)

#define GOMP_DEPEND_IN			1
#define GOMP_DEPEND_OUT			2
#define GOMP_DEPEND_INOUT		3
#define GOMP_DEPEND_MUTEXINOUTSET	4

/* GOMP_cancel's and GOMP_cancellation_point's WHICH.  */
#define GOMP_CANCEL_PARALLEL		1
#define GOMP_CANCEL_LOOP		2
#define GOMP_CANCEL_FOR			GOMP_CANCEL_LOOP
#define GOMP_CANCEL_DO			GOMP_CANCEL_LOOP
#define GOMP_CANCEL_SECTIONS		4
#define GOMP_CANCEL_TASKGROUP		8

enum gomp_task_kind
{
  GOMP_TASK_IMPLICIT,		/* A thread's implicit task.  */
  GOMP_TASK_UNDEFERRED,		/* Runs at once, on its creator's stack.  */
  GOMP_TASK_WAITING,		/* Deferred; waits for its dependences.  */
  GOMP_TASK_READY,		/* Deferred; queued.  */
  GOMP_TASK_RUNNING,
  GOMP_TASK_DETACHED,		/* Body done, detach event not fulfilled.  */
  GOMP_TASK_DEPWAIT		/* Not a task: a thread in taskwait depend.  */
};

struct gomp_task;

/* An intrusive doubly linked list of tasks.  */
struct gomp_tlink
{
  struct gomp_task *next, *prev;
};

struct gomp_tlist
{
  struct gomp_task *head, *tail;
};

/* One address of the dependence table.  */
struct gomp_dep_entry
{
  void *addr;
  struct gomp_dep_entry *chain;		/* Hash bucket chain.  */
  struct gomp_dep_rec *out;		/* Last out sibling's, not finished.  */
  struct gomp_dep_rec *ins;		/* in siblings' since then.  */
};

/* One depend clause item of a task.  */
struct gomp_dep_rec
{
  /* Its address's entry; NULL once the task finished or a later out
     sibling took over (nothing then refers to it from the entry).  */
  struct gomp_dep_entry *entry;
  struct gomp_dep_rec *next, *prev;	/* In ENTRY->INS.  */
  struct gomp_task *task;
  bool is_in;
};

struct gomp_dep_table
{
  size_t mask;				/* Buckets - 1.  */
  size_t count;
  struct gomp_dep_entry **buckets;
};

struct gomp_taskgroup
{
  struct gomp_taskgroup *prev;
  struct gomp_tlist ready;
  unsigned long num_children;		/* Member tasks not finished.  */
  int *waiter;				/* Set while taskgroup end sleeps.  */
  uintptr_t *reductions;		/* Registered task reductions.  */
  bool cancelled;
  bool workshare;			/* A work-share's reduction group.  */
};

struct gomp_task
{
  struct gomp_task *parent;		/* NULL: none, or it finished.  */
  struct gomp_team *team;
  /* The innermost taskgroup the task is in now, and the one it counts
     in (its creator's TASKGROUP when it was created).  */
  struct gomp_taskgroup *taskgroup, *member_of;
  void (*fn) (void *);
  void *fn_data;
  int priority;
  unsigned char kind;			/* enum gomp_task_kind */
  bool final_task;
  bool detach;				/* Has a detach clause ...  */
  bool fulfilled;			/* ... and its event is fulfilled.  */
  bool had_children;			/* Has made deferred children.  */
  bool recycle;				/* Record of the cached size.  */
  struct gomp_tlink child_link, team_link, tg_link;
  /* Children not finished, and how many.  */
  struct gomp_tlist ready_children, busy_children;
  unsigned long num_children;
  unsigned long running_children;	/* Of those, running their body.  */
  int *waiter;				/* Set while taskwait sleeps.  */
  /* Dependences: of the children (this task as parent), and this task's
     own predecessor count, successors and depend items.  */
  struct gomp_dep_table *deps;
  unsigned long npred;
  struct gomp_task **succ;
  unsigned nsucc, succ_cap;
  unsigned ndeps;
  struct gomp_dep_rec *dep_recs;
  /* An implicit task: the task the thread ran before the region, and the
     thread's inherited state then (see struct gomp_team_tasks).  */
  struct gomp_task *outer;
  uintptr_t outer_def_allocator;
  unsigned outer_num_teams_m1, outer_team_num;
  /* Tasks between nodes (tasksteal.c): whether it may run on another
     node (SITE_RETRY: as its site's retry, tasksite.c), and MOVED:
     GOMP_TASK_GIVEN, a task of this node running on another;
     GOMP_TASK_STOLEN, another node's task (NODE, where it is REMOTE_ID)
     running here.  ARG_SIZE and ARG_ALIGN: FN_DATA's.  SITE_DEPTH: how
     many of its ancestors on this node are of its own site, up to
     GOMP_TASK_SITE_DEPTHS - 1 (tasksite.c judges a recursive site's
     tasks by their depth).  */
  bool movable, site_retry;
  unsigned char moved, site_depth;
  int node;
  uint64_t remote_id;
  /* On a thief: the stolen task this one descends from (itself when
     STOLEN, NULL for others), and for a stolen task, how many of it and
     its descendants here have run and their bodies' own time, per
     function (gomp_task_steal_timed), which the completion reports.  */
  struct gomp_task *steal_root;
  struct gomp_cluster_task_time *sub_times;
  uint32_t arg_size, arg_align;
  struct gomp_task_icv icv;
};

#define GOMP_TASK_GIVEN 1
#define GOMP_TASK_STOLEN 2

/* An event handle (omp_event_handle_t) is the address of its detached
   task's record, with several nodes or'ed with the node's rank + 1 at
   GOMP_TASK_EVENT_SHIFT (user addresses are below 1 << 47), so that
   omp_fulfill_event on another node (a stolen task, a thread there
   given the handle) finds whose it is.  */
#define GOMP_TASK_EVENT_SHIFT 56

static inline void *
gomp_task_event (struct gomp_task *t)
{
  uintptr_t e = (uintptr_t) t;
  if (GOMP_UNLIKELY (gomp_cluster != NULL))
    e |= (uintptr_t) (gomp_cluster->rank + 1) << GOMP_TASK_EVENT_SHIFT;
  return (void *) e;
}

extern void gomp_task_fulfill (struct gomp_task *t);
extern void gomp_task_fulfilled_remote (uint64_t event);

/* The stolen task that a child of PARENT descends from, if any.  */
static inline struct gomp_task *
gomp_task_steal_root_of (struct gomp_task *parent)
{
  return parent->moved == GOMP_TASK_STOLEN ? parent : parent->steal_root;
}

/* The team's tasking state (team->task_data).  */
struct gomp_team_tasks
{
  gomp_mutex_t lock;
  struct gomp_tlist queue;
  struct gomp_team_tasks *next_spare;
  struct gomp_team *owner;		/* The team object it serves.  */
  /* Threads sleeping in taskwait, taskgroup end or taskwait depend, which
     a new ready descendant of their task must wake.  */
  unsigned deep_waiters;
  /* What the team's threads inherit from the master beyond the ICVs
     team.c copies: def-allocator-var and the league of a teams region.  */
  uintptr_t def_allocator;
  unsigned num_teams_m1, team_num;
};

/* taskteam.c: the task THR runs (an initial thread's implicit task gets
   its record here), and TEAM's tasking state (made when first needed).  */
extern struct gomp_task *gomp_current_task (struct gomp_thread *thr);
extern struct gomp_team_tasks *gomp_team_tasks (struct gomp_team *team);
/* taskteam.c: a target region run on the host makes THR a new initial
   thread until the pop (target.c).  */
extern void *gomp_task_push_initial (struct gomp_thread *thr);
extern void gomp_task_pop_initial (struct gomp_thread *thr, void *saved);

/* task.c */
extern struct gomp_taskgroup *gomp_taskgroup_new (struct gomp_taskgroup *prev);
extern struct gomp_task *gomp_task_alloc (struct gomp_thread *thr,
					  struct gomp_task *parent,
					  void (*fn) (void *), void *data,
					  void (*cpyfn) (void *, void *),
					  long arg_size, long arg_align,
					  unsigned flags, int priority,
					  size_t ndeps, void *detach,
					  const void *bounds,
					  size_t bounds_size);
extern void gomp_task_undeferred (struct gomp_thread *thr,
				  struct gomp_task *parent,
				  void (*fn) (void *), void *data,
				  void (*cpyfn) (void *, void *),
				  long arg_size, long arg_align,
				  unsigned flags, int priority, void *detach,
				  const void *bounds, size_t bounds_size);
/* The deferred tasks a team may hold per local thread before new ones run
   undeferred (as GCC's libgomp: producers that outrun the consumers do not
   exhaust memory).  */
#define GOMP_TASK_THROTTLE 64
extern void gomp_taskgroup_wait (struct gomp_thread *thr,
				 struct gomp_task *task,
				 struct gomp_taskgroup *tg);

/* Waits for the siblings a depend clause conflicts with (taskwait depend,
   target constructs).  */
extern void gomp_task_wait_depend (void **depend);

/* tasksched.c (with the team's task lock held, except where said).  */
extern bool gomp_task_cancelled (struct gomp_team *team,
				 struct gomp_taskgroup *tg);
/* Gives back the record of a task that completed or never ran.  */
extern void gomp_task_free (struct gomp_task *t);
extern bool gomp_task_submit (struct gomp_team_tasks *tt,
			      struct gomp_task *parent, struct gomp_task *t,
			      void **depend);
extern void gomp_barrier_maybe_wake (struct gomp_team *team);
/* Waits (no lock held) until a notifier stores 1 in *WORD.  */
extern void gomp_task_word_wait (int *word);
/* Ended T's unfinished children lose their parent.  */
extern void gomp_task_orphan_children (struct gomp_task *t);
/* Runs dequeued T on THR, with TT's lock held as on return.  */
extern void gomp_task_run_locked (struct gomp_thread *thr,
				  struct gomp_team_tasks *tt,
				  struct gomp_task *t);
/* Waits (no lock held) until *COUNT, the unfinished children of TASK or
   the members of its taskgroup TG, is 0, running ready tasks meanwhile.  */
extern void gomp_task_wait_children (struct gomp_thread *thr,
				     struct gomp_task *task,
				     struct gomp_taskgroup *tg,
				     unsigned long *count);
/* Waits (no lock held) until the children of PARENT that DEPEND conflicts
   with have finished, running ready children meanwhile.  */
extern void gomp_task_wait_depend_1 (struct gomp_thread *thr,
				     struct gomp_task *parent, void **depend);

/* tasksched.c: a record the thread freed while holding a team's task
   lock, given back once it released the lock (gomp_task_free_pending).  */
extern __thread struct gomp_task *gomp_task_to_free
  __attribute__ ((tls_model ("initial-exec")));

/* After the calling thread released a team's task lock: gives back the
   record it completed meanwhile, if any.  */
static inline void
gomp_task_free_pending (void)
{
  if (gomp_task_to_free)
    {
      gomp_task_free (gomp_task_to_free);
      gomp_task_to_free = NULL;
    }
}

/* A task record that starts: not detached, no children, nobody waiting
   for it, no dependences (task.c, taskteam.c, tasksteal.c).  */
static inline void
gomp_task_clear_links (struct gomp_task *t)
{
  t->detach = t->fulfilled = t->had_children = false;
  t->ready_children.head = t->ready_children.tail = NULL;
  t->busy_children.head = t->busy_children.tail = NULL;
  t->num_children = t->running_children = 0;
  t->waiter = NULL;
  t->deps = NULL;
  t->npred = 0;
  t->succ = NULL;
  t->nsucc = t->succ_cap = 0;
}

/* teams.c: the league of the calling thread.  */
extern __thread unsigned gomp_num_teams_m1
  __attribute__ ((tls_model ("initial-exec")));
extern __thread unsigned gomp_team_num
  __attribute__ ((tls_model ("initial-exec")));

/* alloc.c: def-allocator-var of the calling thread.  */
extern __thread uintptr_t gomp_thread_def_allocator
  __attribute__ ((tls_model ("initial-exec")));

/* target.c: runs a target region's FN on this thread as a new initial
   thread (host fallback).  */
extern void gomp_target_run_host (void (*fn) (void *), void **hostaddrs,
				  unsigned thread_limit);
/* target.c: true while the calling thread runs a target region met
   inside a team (or inside such a region): its parallel regions stay in
   the node (parallel.c), as their data may be private to it.  */
extern __thread bool gomp_target_in_node
  __attribute__ ((tls_model ("initial-exec")));

/* tasksched.c, for tasksteal.c (with the team's task lock held, except
   the record's allocation and the wake).  */
extern struct gomp_task *gomp_task_record (size_t size);
extern void gomp_task_make_ready (struct gomp_team_tasks *tt,
				  struct gomp_task *t);
extern void gomp_task_dequeue (struct gomp_team_tasks *tt,
			       struct gomp_task *t);
extern bool gomp_task_complete (struct gomp_team_tasks *tt,
				struct gomp_task *t);
extern void gomp_task_barrier_wake_done (struct gomp_team *team);
/* Runs stolen T (dequeued) on THR, with TT's lock held as on return.  */
extern void gomp_task_run_stolen (struct gomp_thread *thr,
				  struct gomp_team_tasks *tt,
				  struct gomp_task *t);

/* tasksteal.c: deferred tasks run by other nodes.  A moved task's data
   block is at most GOMP_TASK_MOVE_MAX bytes; a thief takes at most
   GOMP_TASK_STEAL_BATCH tasks and GOMP_TASK_STEAL_BUF bytes at once.  */
#define GOMP_TASK_MOVE_MAX 4096
#define GOMP_TASK_STEAL_BATCH 16
#define GOMP_TASK_STEAL_BUF (64 * 1024)
/* The depths of a recursive site's tasks told apart (task->site_depth,
   tasksite.c); deeper ones count as the deepest.  */
#define GOMP_TASK_SITE_DEPTHS 8

/* The site_depth of a task of FN made by PARENT.  */
static inline unsigned char
gomp_task_site_depth_of (struct gomp_task *parent, void (*fn) (void *))
{
  if (parent->fn != fn || parent->kind == GOMP_TASK_IMPLICIT)
    return 0;
  return parent->site_depth + 1 < GOMP_TASK_SITE_DEPTHS
	 ? parent->site_depth + 1 : GOMP_TASK_SITE_DEPTHS - 1;
}

extern bool gomp_task_movable (struct gomp_thread *thr, struct gomp_task *t,
			       unsigned flags, long arg_size, long arg_align);
extern void gomp_task_steal_poll_1 (void);
extern void gomp_task_steal_queued (struct gomp_task *t, int delta);
extern int gomp_task_steal_idle (struct gomp_team *team, unsigned long gen);
extern void gomp_task_steal_wait (int *word, bool one_slice);
extern bool gomp_task_steal_for (struct gomp_thread *thr,
				 struct gomp_team_tasks *tt,
				 struct gomp_task *task);
extern void gomp_task_steal_complete (struct gomp_thread *thr,
				      struct gomp_task *t,
				      struct gomp_taskgroup *tg,
				      uint64_t start_ns);
extern void gomp_task_steal_timed (struct gomp_task *root,
				   void (*fn) (void *), uint64_t ns,
				   uint64_t remote_ns);

/* CLOCK_MONOTONIC in nanoseconds, as the cluster module's clock.  */
static inline uint64_t
gomp_task_now_ns (void)
{
  struct timespec ts;
  clock_gettime (CLOCK_MONOTONIC, &ts);
  return (uint64_t) ts.tv_sec * 1000000000u + ts.tv_nsec;
}

/* The time the calling thread has waited for other nodes so far
   (cluster.h's remote_time; 0 on one node).  */
static inline uint64_t
gomp_task_remote_ns (void)
{
  return gomp_cluster ? gomp_cluster->remote_time () : 0;
}

/* A wait for other tasks inside a task's body, timed when the body is
   (tasksched.c): gomp_task_wait_start at its start, gomp_task_wait_end
   at its end count the wait, and what the thread waited for other nodes
   meanwhile (the faults of the tasks it ran there, a steal, the acquire
   of a completion), as not the body's own.  */
struct gomp_task_wait_mark
{
  uint64_t t0, remote0, inner_remote0;
};

static inline void
gomp_task_wait_start (struct gomp_thread *thr, struct gomp_task_wait_mark *m)
{
  m->t0 = 0;
  if (GOMP_LIKELY (!thr->task_timed))
    return;
  m->t0 = gomp_task_now_ns ();
  m->remote0 = gomp_task_remote_ns ();
  m->inner_remote0 = thr->task_inner_remote_ns;
}

static inline void
gomp_task_wait_end (struct gomp_thread *thr,
		    const struct gomp_task_wait_mark *m)
{
  if (GOMP_LIKELY (!m->t0))
    return;
  thr->task_inner_ns += gomp_task_now_ns () - m->t0;
  /* The tasks run meanwhile added theirs: all of it counts once.  */
  thr->task_inner_remote_ns = m->inner_remote0 + gomp_task_remote_ns ()
			      - m->remote0;
}

/* tasksite.c: what the node learns per task site (function) of the time
   its tasks take here and on other nodes, and whether the site's tasks
   are worth giving away now.  */
extern void gomp_task_site_ran_here (void (*fn) (void *), long ns);
/* Whether no task of FN's site has been timed here yet.  */
extern bool gomp_task_site_untimed (void (*fn) (void *));
/* DEPTH: the given task's site_depth.  */
extern void gomp_task_site_ran_away (void (*fn) (void *), unsigned depth,
				     long total_ns, long release_ns,
				     const struct gomp_cluster_task_time *times,
				     unsigned ntimes);
/* RECURSIVE: the task was made by a task of the same site; DEPTH: its
   site_depth.  RETRY: for a new task, which may be let go as a retry of
   a refused site (*RETRY is then set); NULL when giving a queued task
   away.  */
extern bool gomp_task_site_worth_moving (void (*fn) (void *), bool recursive,
					 unsigned depth, bool *retry);
/* Which of the QUEUED ready tasks of FN's site a thief gets, counted
   from the oldest (0), or -1 for none (tasksite.c).  */
extern int gomp_task_site_pick (void (*fn) (void *), unsigned queued);
/* Whether FN's site is still learning (too few of its tasks given away
   have come back to value them).  */
extern bool gomp_task_site_learning (void (*fn) (void *));
/* A task of FN's site was given away: away until
   gomp_task_site_ran_away, or gomp_task_site_back when its thief gave it
   back unstarted.  */
extern void gomp_task_site_given (void (*fn) (void *), unsigned depth);
extern void gomp_task_site_back (void (*fn) (void *), unsigned depth);

/* taskmove.c: whether the data block DATA of ARG_SIZE bytes (at most
   GOMP_TASK_MOVE_MAX), aligned to ARG_ALIGN, names no private memory,
   so that its task may run on another node; gomp_task_steal_low reads
   the lowest address mapped at start, once (gomp_task_steal_host).  */
extern bool gomp_task_data_movable (const void *data, long arg_size,
				    long arg_align);
extern void gomp_task_steal_low (void);

/* Whether this node may give or take tasks now: several nodes, stealing
   on.  */
static inline bool
gomp_task_steal_on (void)
{
  return GOMP_UNLIKELY (gomp_cluster != NULL) && gomp_task_steal_var;
}

/* Answers waiting thieves and takes completions, if any (no lock held).  */
static inline void
gomp_task_steal_poll (void)
{
  if (gomp_task_steal_on ())
    gomp_task_steal_poll_1 ();
}

/* taskdep.c (with the team's task lock held).  */
extern size_t gomp_depend_count (void **depend);
/* Adds to T the edges from the siblings it depends on, per the table of
   PARENT; when RECORD, enters T's items in the table.  */
extern void gomp_task_add_depend (struct gomp_task *parent,
				  struct gomp_task *t, void **depend,
				  bool record);
extern void gomp_task_remove_depend (struct gomp_dep_table *tab,
				     struct gomp_task *t);
extern void gomp_dep_table_free (struct gomp_dep_table *tab);

/* taskred.c */
extern void gomp_reduction_register (uintptr_t *data, uintptr_t *old,
				     uintptr_t *orig, unsigned nthreads);

#endif /* OMPC_TASK_H */
