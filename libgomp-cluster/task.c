/* task.c -- explicit tasks (OpenMP 5.1, section 2.12): GOMP_task with its
   if, final, untied, mergeable, priority, depend and detach clauses,
   taskwait (with depend), taskyield, taskgroup, omp_fulfill_event and
   omp_in_final, and the hooks by which teams and barriers run tasks.
   task.h describes the data structures; dependences are in taskdep.c.

   Untied tasks run as tied ones and mergeable ones are never merged (both
   are allowed).  With several nodes the queues belong to the node-local
   part of a team; tasksteal.c moves some tasks to other nodes.  */

#include "task.h"
#include "omp.h"
#include <pthread.h>
#include <stdlib.h>
#include <string.h>


/* Implicit-task records, reused by depth of nesting on each thread.  */
#define GOMP_IMPLICIT_CACHE 8
static __thread struct gomp_task *gomp_implicit_cache[GOMP_IMPLICIT_CACHE]
  __attribute__ ((tls_model ("initial-exec")));
static __thread unsigned gomp_implicit_depth
  __attribute__ ((tls_model ("initial-exec")));

/* ---- Lists. ---- */

/* The link at offset OFF of task T.  */
static inline struct gomp_tlink *
gomp_tlink_of (struct gomp_task *t, size_t off)
{
  return (struct gomp_tlink *) ((char *) t + off);
}

static inline void
gomp_tlist_remove (struct gomp_tlist *l, struct gomp_task *t, size_t off)
{
  struct gomp_tlink *lk = gomp_tlink_of (t, off);
  if (lk->prev)
    gomp_tlink_of (lk->prev, off)->next = lk->next;
  else
    l->head = lk->next;
  if (lk->next)
    gomp_tlink_of (lk->next, off)->prev = lk->prev;
  else
    l->tail = lk->prev;
  lk->next = lk->prev = NULL;
}

/* Inserts T after AFTER (NULL: at the head).  */
static inline void
gomp_tlist_insert_after (struct gomp_tlist *l, struct gomp_task *after,
			 struct gomp_task *t, size_t off)
{
  struct gomp_tlink *lk = gomp_tlink_of (t, off);
  struct gomp_task *next = after ? gomp_tlink_of (after, off)->next : l->head;
  lk->prev = after;
  lk->next = next;
  if (after)
    gomp_tlink_of (after, off)->next = t;
  else
    l->head = t;
  if (next)
    gomp_tlink_of (next, off)->prev = t;
  else
    l->tail = t;
}

/* FIFO among equal priorities: after the last task of priority >= T's.  */
static inline void
gomp_tlist_push_fifo (struct gomp_tlist *l, struct gomp_task *t, size_t off)
{
  struct gomp_task *after = l->tail;
  while (after && after->priority < t->priority)
    after = gomp_tlink_of (after, off)->prev;
  gomp_tlist_insert_after (l, after, t, off);
}

/* LIFO among equal priorities: before the first task of priority <= T's.  */
static inline void
gomp_tlist_push_lifo (struct gomp_tlist *l, struct gomp_task *t, size_t off)
{
  struct gomp_task *before = l->head, *after = NULL;
  while (before && before->priority > t->priority)
    {
      after = before;
      before = gomp_tlink_of (before, off)->next;
    }
  gomp_tlist_insert_after (l, after, t, off);
}

#define OFF_CHILD offsetof (struct gomp_task, child_link)
#define OFF_TEAM offsetof (struct gomp_task, team_link)
#define OFF_TG offsetof (struct gomp_task, tg_link)

/* ---- Waiting. ----
   A thread that must wait for children, taskgroup members or dependences
   publishes a word (0: waiting, 2: asleep) where the notifier, under the
   team's task lock, stores 1.  */

static void
gomp_task_word_wait (int *word)
{
  if (gomp_task_steal_on ())
    {
      /* Completions of tasks given away and thieves' requests need a
	 thread of the node: sleep in slices.  */
      gomp_task_steal_wait (word, false);
      return;
    }
  unsigned long n = gomp_spin_limit ();
  for (unsigned long i = 0; i < n; i++)
    {
      if (__atomic_load_n (word, __ATOMIC_ACQUIRE) == 1)
	return;
      gomp_cpu_relax ();
    }
  int expected = 0;
  if (!__atomic_compare_exchange_n (word, &expected, 2, false,
				    __ATOMIC_ACQ_REL, __ATOMIC_ACQUIRE))
    return;
  do
    gomp_futex_wait (word, 2);
  while (__atomic_load_n (word, __ATOMIC_ACQUIRE) != 1);
}

static inline void
gomp_task_word_notify (int **slot)
{
  int *word = *slot;
  if (word == NULL)
    return;
  *slot = NULL;
  if (__atomic_exchange_n (word, 1, __ATOMIC_RELEASE) == 2)
    gomp_futex_wake (word, 1);
}

/* Deferred task records with room for GOMP_TASK_REC_ROOM bytes of depend
   items and data are recycled: each thread keeps up to GOMP_TASK_CACHE
   of them, the ones it freed last, whoever allocated them (lists of one
   thread only: no atomics, no ABA; a record is a malloc block, so a full
   cache or any other thread may free it).  The bound matches the
   throttle: a team holds up to GOMP_TASK_THROTTLE unfinished tasks per
   thread.  A thread's cache is freed when it exits.  With several nodes
   a task runs on its creator's node, and its record stays node-private
   memory as before.  */
#define GOMP_TASK_REC_ROOM 256
#define GOMP_TASK_REC_SIZE (sizeof (struct gomp_task) + GOMP_TASK_REC_ROOM)
#define GOMP_TASK_CACHE GOMP_TASK_THROTTLE

static __thread struct gomp_task *gomp_task_cache	/* Linked by PARENT.  */
  __attribute__ ((tls_model ("initial-exec")));
static __thread unsigned gomp_task_cache_n
  __attribute__ ((tls_model ("initial-exec")));
static __thread bool gomp_task_cache_keyed
  __attribute__ ((tls_model ("initial-exec")));
static pthread_key_t gomp_task_cache_key;
static pthread_once_t gomp_task_cache_once = PTHREAD_ONCE_INIT;

/* At the exit of a thread that cached records.  */
static void
gomp_task_cache_exit (void *unused)
{
  (void) unused;
  struct gomp_task *t;
  while ((t = gomp_task_cache) != NULL)
    {
      gomp_task_cache = t->parent;
      free (t);
    }
  gomp_task_cache_n = 0;
  gomp_task_cache_keyed = false;
}

static void
gomp_task_cache_key_init (void)
{
  if (pthread_key_create (&gomp_task_cache_key, gomp_task_cache_exit) != 0)
    gomp_fatal ("cannot create the key of the task record cache");
}

/* A thread's first cached record: free its cache when it exits.  */
static void __attribute__ ((noinline))
gomp_task_cache_register (void)
{
  pthread_once (&gomp_task_cache_once, gomp_task_cache_key_init);
  pthread_setspecific (gomp_task_cache_key, (void *) 1);
  gomp_task_cache_keyed = true;
}

void
gomp_task_free (struct gomp_task *t)
{
  if (t->recycle && gomp_task_cache_n < GOMP_TASK_CACHE)
    {
      if (GOMP_UNLIKELY (!gomp_task_cache_keyed))
	gomp_task_cache_register ();
      t->parent = gomp_task_cache;
      gomp_task_cache = t;
      gomp_task_cache_n++;
    }
  else
    free (t);
}

/* A record of SIZE bytes.  */
struct gomp_task *
gomp_task_record (size_t size)
{
  struct gomp_task *t;
  if (GOMP_LIKELY (size <= GOMP_TASK_REC_SIZE))
    {
      t = gomp_task_cache;
      if (GOMP_LIKELY (t != NULL))
	{
	  gomp_task_cache = t->parent;
	  gomp_task_cache_n--;
	}
      else
	t = malloc (GOMP_TASK_REC_SIZE);
      if (t)
	t->recycle = true;
    }
  else
    {
      t = malloc (size);
      if (t)
	t->recycle = false;
    }
  return t;
}

/* A completed task's record is freed only once the thread has released
   the team's lock: free() may wait for the allocator's own lock, which the
   thread creating tasks holds in malloc(), and the creator would then
   wait for the team's lock in turn.  The record waits here until the
   thread next releases the team's lock (gomp_task_free_pending).  */
static __thread struct gomp_task *gomp_task_to_free
  __attribute__ ((tls_model ("initial-exec")));

static inline void
gomp_task_free_pending (void)
{
  if (gomp_task_to_free)
    {
      gomp_task_free (gomp_task_to_free);
      gomp_task_to_free = NULL;
    }
}

/* ---- Team state and the current task. ---- */

struct gomp_team_tasks *
gomp_team_tasks (struct gomp_team *team)
{
  struct gomp_team_tasks *tt = __atomic_load_n (&team->task_data,
						__ATOMIC_ACQUIRE);
  if (GOMP_LIKELY (tt != NULL))
    return tt;
  struct gomp_team_tasks *n = calloc (1, sizeof *n);
  if (n == NULL)
    gomp_fatal ("out of memory for the task queue of a team");
  gomp_mutex_init (&n->lock);
  n->owner = team;
  void *expected = NULL;
  if (__atomic_compare_exchange_n (&team->task_data, &expected, n, false,
				   __ATOMIC_ACQ_REL, __ATOMIC_ACQUIRE))
    return n;
  free (n);
  return expected;
}

static void
gomp_task_init_implicit (struct gomp_task *t, struct gomp_team *team,
			 struct gomp_task *outer)
{
  /* Field by field, as cheap as possible: every region does this.  */
  t->parent = NULL;
  t->team = team;
  t->taskgroup = t->member_of = NULL;
  t->priority = 0;
  t->kind = GOMP_TASK_IMPLICIT;
  t->final_task = t->detach = t->fulfilled = t->had_children = false;
  t->ready_children.head = t->ready_children.tail = NULL;
  t->busy_children.head = t->busy_children.tail = NULL;
  t->num_children = t->running_children = 0;
  t->waiter = NULL;
  t->deps = NULL;
  t->npred = 0;
  t->succ = NULL;
  t->nsucc = t->succ_cap = 0;
  t->ndeps = 0;
  t->outer = outer;
  t->movable = false;
  t->moved = 0;
}

static struct gomp_task *
gomp_implicit_record (unsigned depth)
{
  if (depth < GOMP_IMPLICIT_CACHE)
    {
      struct gomp_task *t = gomp_implicit_cache[depth];
      if (t == NULL)
	{
	  t = malloc (sizeof *t);
	  if (t == NULL)
	    gomp_fatal ("out of memory for an implicit task");
	  gomp_implicit_cache[depth] = t;
	}
      return t;
    }
  struct gomp_task *t = malloc (sizeof *t);
  if (t == NULL)
    gomp_fatal ("out of memory for an implicit task");
  return t;
}

/* The task the thread runs; an initial thread's implicit task gets its
   record the first time it is needed.  */
struct gomp_task *
gomp_current_task (struct gomp_thread *thr)
{
  struct gomp_task *t = thr->task;
  if (GOMP_LIKELY (t != NULL))
    return t;
  t = gomp_implicit_record (gomp_implicit_depth);
  gomp_task_init_implicit (t, thr->ts.team, NULL);
  thr->task = t;
  return t;
}

/* A team's tasking state outlives the team's region a little: a thread
   that finished the last task may still release the lock after the
   barrier completed.  So gomp_team_tasks_fini keeps it on the master's
   list of spares, and only the same team (team.c reuses a pool's team
   object) takes it back, which gomp_team_start does only after every
   worker of that pool has left the previous region.  */
static __thread struct gomp_team_tasks *gomp_spare_tasks
  __attribute__ ((tls_model ("initial-exec")));

void
gomp_team_tasks_init (struct gomp_team *team)
{
  struct gomp_team_tasks **pp = &gomp_spare_tasks, *tt;
  while ((tt = *pp) && tt->owner != team)
    pp = &tt->next_spare;
  if (tt)
    *pp = tt->next_spare;
  else
    {
      tt = calloc (1, sizeof *tt);
      if (tt == NULL)
	gomp_fatal ("out of memory for the task queue of a team");
      gomp_mutex_init (&tt->lock);
      tt->owner = team;
    }
  tt->def_allocator = gomp_thread_def_allocator;
  tt->num_teams_m1 = gomp_num_teams_m1;
  tt->team_num = gomp_team_num;
  team->task_data = tt;
  if (GOMP_UNLIKELY (team->spans))
    gomp_task_steal_team_start (team);
}

void
gomp_team_tasks_fini (struct gomp_team *team)
{
  struct gomp_team_tasks *tt = team->task_data;
  if (GOMP_UNLIKELY (team->spans))
    gomp_task_steal_team_end (team);
  if (tt == NULL)
    return;
  tt->next_spare = gomp_spare_tasks;
  gomp_spare_tasks = tt;
  team->task_data = NULL;
}

void
gomp_thread_task_init (struct gomp_thread *thr)
{
  unsigned depth = ++gomp_implicit_depth;
  struct gomp_task *t = gomp_implicit_record (depth);
  gomp_task_init_implicit (t, thr->ts.team, thr->task);
  t->outer_def_allocator = gomp_thread_def_allocator;
  t->outer_num_teams_m1 = gomp_num_teams_m1;
  t->outer_team_num = gomp_team_num;
  struct gomp_team_tasks *tt = thr->ts.team ? thr->ts.team->task_data : NULL;
  if (tt)
    {
      gomp_thread_def_allocator = tt->def_allocator;
      gomp_num_teams_m1 = tt->num_teams_m1;
      gomp_team_num = tt->team_num;
    }
  /* GOMP_parallel_reductions: the implicit tasks are in the reduction's
     taskgroup.  */
  if (thr->ts.team)
    t->taskgroup = thr->ts.team->reduction_data;
  thr->task = t;
}

void
gomp_thread_task_fini (struct gomp_thread *thr)
{
  struct gomp_task *t = thr->task;
  unsigned depth = gomp_implicit_depth--;
  thr->task = t->outer;
  gomp_thread_def_allocator = t->outer_def_allocator;
  gomp_num_teams_m1 = t->outer_num_teams_m1;
  gomp_team_num = t->outer_team_num;
  if (t->deps)
    gomp_dep_table_free (t->deps);
  if (depth >= GOMP_IMPLICIT_CACHE)
    free (t);
}

/* A target region run on the host makes the thread a new initial thread
   (target.c): its implicit task gets a record one level deeper, and the
   enclosing task is restored afterwards.  */
void *
gomp_task_push_initial (struct gomp_thread *thr)
{
  void *saved = thr->task;
  gomp_implicit_depth++;
  thr->task = NULL;
  return saved;
}

void
gomp_task_pop_initial (struct gomp_thread *thr, void *saved)
{
  struct gomp_task *t = thr->task;
  unsigned depth = gomp_implicit_depth--;
  if (t)
    {
      if (t->deps)
	gomp_dep_table_free (t->deps);
      if (depth >= GOMP_IMPLICIT_CACHE)
	free (t);
    }
  thr->task = saved;
}

/* ---- Queueing and completion (all with the team's task lock held). ---- */

/* After queueing tasks (task_queued was stored with seq_cst): threads
   spinning in the barrier see task_queued themselves, and one about to
   sleep checks it after counting itself in the sleepers (barrier.c).  */
void
gomp_barrier_maybe_wake (struct gomp_team *team)
{
  if (__atomic_load_n (&team->barrier.sleepers, __ATOMIC_SEQ_CST))
    gomp_team_barrier_wake (team);
}

/* After the team's last task finished (task_count was stored with
   seq_cst): the barrier can complete only if every thread has arrived;
   otherwise the last to arrive sees task_count itself.  */
void
gomp_task_barrier_wake_done (struct gomp_team *team)
{
  if ((__atomic_load_n (&team->barrier.state, __ATOMIC_SEQ_CST)
       & GOMP_BAR_ARRIVED_MASK) >= team->barrier.total)
    gomp_team_barrier_wake (team);
}

/* T may start: queue it and tell whoever may run it.  */
void
gomp_task_make_ready (struct gomp_team_tasks *tt, struct gomp_task *t)
{
  struct gomp_team *team = t->team;
  bool was_busy = t->kind == GOMP_TASK_WAITING;
  t->kind = GOMP_TASK_READY;
  if (t->parent)
    {
      if (was_busy)
	gomp_tlist_remove (&t->parent->busy_children, t, OFF_CHILD);
      gomp_tlist_push_lifo (&t->parent->ready_children, t, OFF_CHILD);
      gomp_task_word_notify (&t->parent->waiter);
      /* Threads waiting for a deeper ancestor may run T as well.  */
      if (GOMP_UNLIKELY (tt->deep_waiters))
	for (struct gomp_task *p = t->parent->parent; p; p = p->parent)
	  gomp_task_word_notify (&p->waiter);
    }
  if (t->member_of)
    {
      gomp_tlist_push_lifo (&t->member_of->ready, t, OFF_TG);
      gomp_task_word_notify (&t->member_of->waiter);
    }
  gomp_tlist_push_fifo (&tt->queue, t, OFF_TEAM);
  if (GOMP_UNLIKELY (t->movable | t->moved))
    gomp_task_steal_queued (t, 1);
  __atomic_store_n (&team->task_queued, team->task_queued + 1,
		    __ATOMIC_SEQ_CST);
}

/* Takes ready T out of the queues: it is about to run.  */
void
gomp_task_dequeue (struct gomp_team_tasks *tt, struct gomp_task *t)
{
  struct gomp_team *team = t->team;
  gomp_tlist_remove (&tt->queue, t, OFF_TEAM);
  if (GOMP_UNLIKELY (t->movable | t->moved))
    gomp_task_steal_queued (t, -1);
  if (t->member_of)
    gomp_tlist_remove (&t->member_of->ready, t, OFF_TG);
  if (t->parent)
    {
      gomp_tlist_remove (&t->parent->ready_children, t, OFF_CHILD);
      gomp_tlist_insert_after (&t->parent->busy_children,
			       t->parent->busy_children.tail, t, OFF_CHILD);
      t->parent->running_children++;
    }
  __atomic_store_n (&team->task_queued, team->task_queued - 1,
		    __ATOMIC_RELAXED);
  t->kind = GOMP_TASK_RUNNING;
}

/* A queued task that descends from TASK, for a thread waiting in TASK
   when no child or taskgroup member of it is ready and no child runs:
   then only deeper descendants (say a grandchild whose parent's body
   ended, detached) can make progress, and any descendant may run.  */
static struct gomp_task *
gomp_task_find_descendant (struct gomp_team_tasks *tt, struct gomp_task *task)
{
  if (task->running_children)
    return NULL;
  for (struct gomp_task *c = tt->queue.head; c; c = c->team_link.next)
    for (struct gomp_task *p = c->parent; p; p = p->parent)
      if (p == task)
	return c;
  return NULL;
}

/* Sleeps on behalf of TASK (with TG, when not NULL, the taskgroup it
   waits for) until something it may run or wait for changes.  Called and
   returning with the lock held.  */
static void
gomp_task_sleep (struct gomp_team_tasks *tt, struct gomp_task *task,
		 struct gomp_taskgroup *tg)
{
  int word = 0;
  task->waiter = &word;
  if (tg)
    tg->waiter = &word;
  tt->deep_waiters++;
  /* With children on other nodes, wake up now and then to take some of
     their descendants back (gomp_task_steal_for).  */
  bool one_slice = gomp_task_steal_on () && task->running_children;
  gomp_mutex_unlock (&tt->lock);
  gomp_task_free_pending ();
  if (GOMP_UNLIKELY (one_slice))
    gomp_task_steal_wait (&word, true);
  else
    gomp_task_word_wait (&word);
  gomp_mutex_lock (&tt->lock);
  tt->deep_waiters--;
  if (task->waiter == &word)
    task->waiter = NULL;
  if (tg && tg->waiter == &word)
    tg->waiter = NULL;
}

/* T has ended: its unfinished children (queued, waiting for their
   dependences or running) outlive it and lose their parent, so that
   their completion no longer touches T's record.  */
static void
gomp_task_orphan_children (struct gomp_task *t)
{
  for (struct gomp_task *c = t->ready_children.head; c;
       c = c->child_link.next)
    c->parent = NULL;
  for (struct gomp_task *c = t->busy_children.head; c;
       c = c->child_link.next)
    c->parent = NULL;
}

/* T is complete.  Releases its successors, leaves its parent and
   taskgroup, orphans its own unfinished children.  Returns true when it
   was the team's last task (the caller wakes the barrier after
   unlocking); T is freed by the caller.  */
bool
gomp_task_complete (struct gomp_team_tasks *tt, struct gomp_task *t)
{
  struct gomp_team *team = t->team;
  bool queued = false;
  for (unsigned i = 0; i < t->nsucc; i++)
    {
      struct gomp_task *s = t->succ[i];
      if (--s->npred == 0)
	{
	  if (s->kind == GOMP_TASK_DEPWAIT)
	    gomp_task_word_notify (&s->waiter);
	  else
	    {
	      gomp_task_make_ready (tt, s);
	      queued = true;
	    }
	}
    }
  free (t->succ);
  /* Idle threads of the team may run the released tasks.  */
  if (queued)
    gomp_barrier_maybe_wake (team);
  struct gomp_task *parent = t->parent;
  if (parent)
    {
      if (t->ndeps)
	gomp_task_remove_depend (parent->deps, t);
      gomp_tlist_remove (&parent->busy_children, t, OFF_CHILD);
      __atomic_store_n (&parent->num_children, parent->num_children - 1,
			__ATOMIC_RELEASE);
      if (parent->num_children == 0)
	gomp_task_word_notify (&parent->waiter);
    }
  struct gomp_taskgroup *tg = t->member_of;
  if (tg)
    {
      __atomic_store_n (&tg->num_children, tg->num_children - 1,
			__ATOMIC_RELEASE);
      if (tg->num_children == 0)
	gomp_task_word_notify (&tg->waiter);
    }
  gomp_task_orphan_children (t);
  if (t->deps)
    gomp_dep_table_free (t->deps);
  unsigned long left = team->task_count - 1;
  if (left)
    __atomic_store_n (&team->task_count, left, __ATOMIC_RELEASE);
  else
    __atomic_store_n (&team->task_count, left, __ATOMIC_SEQ_CST);
  return left == 0;
}

/* Whether tasks of taskgroup TG (NULL: none) of TEAM must not start.  */
bool
gomp_task_cancelled (struct gomp_team *team, struct gomp_taskgroup *tg)
{
  if (__atomic_load_n (&team->cancelled, __ATOMIC_RELAXED))
    return true;
  for (; tg; tg = tg->workshare ? tg->prev : NULL)
    if (__atomic_load_n (&tg->cancelled, __ATOMIC_RELAXED))
      return true;
  return false;
}

/* Runs dequeued T on THR, called with the lock held.  Returns false with
   the lock held, or true, with the lock released and the barrier woken,
   when T was the team's last task: a thread in the team's barrier must
   then not touch TT again, the barrier may complete at once.  */
static bool
gomp_task_run (struct gomp_thread *thr, struct gomp_team_tasks *tt,
	       struct gomp_task *t)
{
  struct gomp_team *team = t->team;
  bool cancelled = gomp_cancel_var && gomp_task_cancelled (team,
							   t->member_of);
  gomp_mutex_unlock (&tt->lock);
  gomp_task_free_pending ();
  if (!cancelled)
    {
      void *saved_task = thr->task;
      struct gomp_task_icv *saved_icv = thr->icv;
      thr->task = t;
      thr->icv = &t->icv;
      if (GOMP_UNLIKELY (t->moved == GOMP_TASK_STOLEN))
	{
	  /* Its descendants here complete before it does (the creator's
	     taskgroups count them through it).  */
	  struct gomp_taskgroup *tg = gomp_taskgroup_new (NULL);
	  t->taskgroup = tg;
	  t->fn (t->fn_data);
	  gomp_task_steal_complete (thr, t, tg);
	  __atomic_add_fetch (&gomp_task_stats[GOMP_TASK_STAT_STOLEN], 1,
			      __ATOMIC_RELAXED);
	}
      else
	{
	  t->fn (t->fn_data);
	  if (GOMP_UNLIKELY (gomp_cluster != NULL))
	    __atomic_add_fetch (&gomp_task_stats[GOMP_TASK_STAT_LOCAL], 1,
				__ATOMIC_RELAXED);
	}
      thr->task = saved_task;
      thr->icv = saved_icv;
    }
  gomp_task_steal_poll ();
  gomp_mutex_lock (&tt->lock);
  if (t->parent)
    t->parent->running_children--;
  if (t->detach && !t->fulfilled && !cancelled)
    {
      /* omp_fulfill_event completes it.  */
      t->kind = GOMP_TASK_DETACHED;
      return false;
    }
  bool last = gomp_task_complete (tt, t);
  if (!last)
    {
      gomp_task_to_free = t;
      return false;
    }
  gomp_mutex_unlock (&tt->lock);
  gomp_task_barrier_wake_done (team);
  gomp_task_free (t);
  return true;
}

/* The same for a thread outside the barrier, which keeps the lock.  */
static inline void
gomp_task_run_locked (struct gomp_thread *thr, struct gomp_team_tasks *tt,
		      struct gomp_task *t)
{
  if (gomp_task_run (thr, tt, t))
    gomp_mutex_lock (&tt->lock);
}

void
gomp_task_run_stolen (struct gomp_thread *thr, struct gomp_team_tasks *tt,
		      struct gomp_task *t)
{
  gomp_task_run_locked (thr, tt, t);
}

/* ---- Hooks for the barrier. ---- */

bool
gomp_barrier_handle_tasks (struct gomp_team *team)
{
  struct gomp_team_tasks *tt = __atomic_load_n (&team->task_data,
						__ATOMIC_ACQUIRE);
  if (tt == NULL)
    return false;
  struct gomp_thread *thr = gomp_thread ();
  bool ran = false;
  gomp_mutex_lock (&tt->lock);
  struct gomp_task *t;
  while ((t = tt->queue.head) != NULL)
    {
      gomp_task_dequeue (tt, t);
      if (gomp_task_run (thr, tt, t))
	return true;
      ran = true;
    }
  gomp_mutex_unlock (&tt->lock);
  gomp_task_free_pending ();
  return ran;
}

/* ---- GOMP_task. ---- */

static void gomp_task_wait_depend_1 (struct gomp_thread *thr,
				     struct gomp_task *parent, void **depend);

void
gomp_task_icv_own (struct gomp_thread *thr)
{
  struct gomp_task *t = thr->task;
  if (t->kind == GOMP_TASK_UNDEFERRED && thr->icv != &t->icv)
    {
      t->icv = *gomp_icv ();
      thr->icv = &t->icv;
    }
}

/* Undeferred T has ended: its children that outlive it lose their
   parent, as with any task.  */
static void __attribute__ ((noinline))
gomp_task_undeferred_orphan (struct gomp_task *t)
{
  struct gomp_team_tasks *tt = gomp_team_tasks (t->team);
  gomp_mutex_lock (&tt->lock);
  gomp_task_orphan_children (t);
  gomp_mutex_unlock (&tt->lock);
  if (t->deps)
    gomp_dep_table_free (t->deps);
}

/* Runs a task at once on this thread (if(0), final, outside a team, or
   throttled); its dependences are already met.  BOUNDS as in
   gomp_task_alloc.  */
void
gomp_task_undeferred (struct gomp_thread *thr, struct gomp_task *parent,
		      void (*fn) (void *), void *data,
		      void (*cpyfn) (void *, void *), long arg_size,
		      long arg_align, unsigned flags, int priority,
		      void *detach, const void *bounds, size_t bounds_size)
{
  struct gomp_task t;

  /* Only what an undeferred task uses: it is never queued, never a
     dependence's target, never anyone's sibling in a list.  */
  t.parent = parent;
  t.team = thr->ts.team;
  t.taskgroup = parent->taskgroup;
  t.member_of = NULL;
  t.priority = priority;
  t.kind = GOMP_TASK_UNDEFERRED;
  t.final_task = parent->final_task || (flags & GOMP_TASK_FLAG_FINAL);
  t.detach = t.fulfilled = t.had_children = false;
  t.ready_children.head = t.ready_children.tail = NULL;
  t.busy_children.head = t.busy_children.tail = NULL;
  t.num_children = t.running_children = 0;
  t.waiter = NULL;
  t.deps = NULL;
  t.movable = false;
  t.moved = 0;
  t.icv = *gomp_icv ();
  int done = 0;
  if (flags & GOMP_TASK_FLAG_DETACH)
    {
      t.detach = true;
      t.waiter = &done;
      *(void **) detach = &t;
      if (data)
	*(void **) data = &t;
    }

  struct gomp_task_icv *saved_icv = thr->icv;
  thr->task = &t;
  thr->icv = &t.icv;
  if (GOMP_UNLIKELY (cpyfn != NULL))
    {
      char buf[arg_size + arg_align - 1];
      char *arg = (char *) (((uintptr_t) buf + arg_align - 1)
			    & ~(uintptr_t) (arg_align - 1));
      cpyfn (arg, data);
      if (bounds_size)
	memcpy (arg, bounds, bounds_size);
      fn (arg);
    }
  else
    {
      if (bounds_size)
	memcpy (data, bounds, bounds_size);
      fn (data);
    }
  thr->icv = saved_icv;

  if (t.detach)
    {
      /* The task completes when its event is fulfilled.  */
      if (__atomic_load_n (&done, __ATOMIC_ACQUIRE) != 1)
	gomp_task_word_wait (&done);
    }

  if (t.had_children)
    gomp_task_undeferred_orphan (&t);
  thr->task = parent;
}

/* The common undeferred task (no copy constructor, no depend or detach
   clause, no cancellation): what gomp_task_undeferred does for it, with
   little live across the body.  */
static void __attribute__ ((noinline))
gomp_task_undeferred_plain (struct gomp_thread *thr, struct gomp_task *parent,
			    void (*fn) (void *), void *data, unsigned flags)
{
  struct gomp_task t;

  t.parent = parent;
  t.team = thr->ts.team;
  t.taskgroup = parent->taskgroup;
  t.member_of = NULL;
  t.kind = GOMP_TASK_UNDEFERRED;
  t.final_task = parent->final_task | ((flags & GOMP_TASK_FLAG_FINAL) != 0);
  t.detach = t.had_children = false;
  t.ready_children.head = t.ready_children.tail = NULL;
  t.busy_children.head = t.busy_children.tail = NULL;
  t.num_children = t.running_children = 0;
  t.waiter = NULL;
  t.deps = NULL;
  t.movable = false;
  t.moved = 0;
  /* T.ICV is copied only if the task changes an ICV
     (gomp_task_icv_own): until then it reads its creator's.  */
  struct gomp_task_icv *saved_icv = thr->icv;
  thr->task = &t;
  fn (data);
  thr->icv = saved_icv;
  if (GOMP_UNLIKELY (t.had_children))
    gomp_task_undeferred_orphan (&t);
  thr->task = parent;
}

/* Allocates deferred task FN (DATA copied by CPYFN or memcpy) with room
   for NDEPS depend items, then overwrites the start of its data with the
   BOUNDS_SIZE bytes at BOUNDS (taskloop's iteration range).  DETACH is
   GOMP_task's.  Not yet visible to anyone.  */
struct gomp_task *
gomp_task_alloc (struct gomp_thread *thr, struct gomp_task *parent,
		 void (*fn) (void *), void *data,
		 void (*cpyfn) (void *, void *), long arg_size, long arg_align,
		 unsigned flags, int priority, size_t ndeps, void *detach,
		 const void *bounds, size_t bounds_size)
{
  size_t dep_size = ndeps * sizeof (struct gomp_dep_rec);
  struct gomp_task *t = gomp_task_record (sizeof *t + dep_size + arg_size
					  + arg_align - 1);
  if (t == NULL)
    gomp_fatal ("out of memory creating a task (%ld bytes of data)",
		arg_size);
  /* Field by field: the list links are set when the task enters a list,
     the implicit-task fields are never used.  */
  t->parent = parent;
  t->team = thr->ts.team;
  t->taskgroup = t->member_of = parent->taskgroup;
  t->fn = fn;
  t->priority = priority;
  t->kind = GOMP_TASK_READY;
  t->final_task = (flags & GOMP_TASK_FLAG_FINAL) != 0;
  t->detach = t->fulfilled = t->had_children = false;
  t->ready_children.head = t->ready_children.tail = NULL;
  t->busy_children.head = t->busy_children.tail = NULL;
  t->num_children = t->running_children = 0;
  t->waiter = NULL;
  t->deps = NULL;
  t->npred = 0;
  t->succ = NULL;
  t->nsucc = t->succ_cap = 0;
  t->icv = *gomp_icv ();
  t->ndeps = ndeps;
  t->dep_recs = (struct gomp_dep_rec *) (t + 1);
  char *arg = (char *) (((uintptr_t) (t + 1) + dep_size + arg_align - 1)
			& ~(uintptr_t) (arg_align - 1));
  t->fn_data = arg;
  t->movable = false;
  t->moved = 0;
  t->arg_size = (uint32_t) arg_size;
  t->arg_align = (uint32_t) arg_align;
  if (flags & GOMP_TASK_FLAG_DETACH)
    {
      t->detach = true;
      *(void **) detach = t;
      if (data)
	*(void **) data = t;
    }
  if (cpyfn)
    {
      /* Copy constructors run as part of the new task.  */
      thr->task = t;
      cpyfn (arg, data);
      thr->task = parent;
    }
  else
    memcpy (arg, data, arg_size);
  if (bounds_size)
    memcpy (arg, bounds, bounds_size);
  if (gomp_task_steal_on ())
    t->movable = gomp_task_movable (thr, t, flags, ndeps, arg_size,
				    arg_align);
  return t;
}

/* Makes allocated task T a child of PARENT in the team, queued or waiting
   for the siblings DEPEND names.  With the team's task lock held; returns
   true when T was queued (the caller then wakes the barrier).  */
bool
gomp_task_submit (struct gomp_team_tasks *tt, struct gomp_task *parent,
		  struct gomp_task *t, void **depend)
{
  struct gomp_team *team = t->team;
  if (t->member_of)
    t->member_of->num_children++;
  parent->num_children++;
  parent->had_children = true;
  /* No barrier can complete meanwhile: the creator has not arrived, or
     runs a task that keeps the count above zero.  */
  __atomic_store_n (&team->task_count, team->task_count + 1,
		    __ATOMIC_RELEASE);
  if (t->ndeps)
    gomp_task_add_depend (parent, t, depend, true);
  if (t->npred)
    {
      t->kind = GOMP_TASK_WAITING;
      gomp_tlist_insert_after (&parent->busy_children,
			       parent->busy_children.tail, t, OFF_CHILD);
      return false;
    }
  gomp_task_make_ready (tt, t);
  return true;
}

/* The effective priority of a priority clause.  */
static inline int
gomp_task_priority (unsigned flags, int priority)
{
  if (GOMP_LIKELY (!(flags & GOMP_TASK_FLAG_PRIORITY)))
    return 0;
  if (priority > gomp_max_task_priority_var)
    priority = gomp_max_task_priority_var;
  return priority < 0 ? 0 : priority;
}

/* Whether a new task must run undeferred.  */
static inline bool
gomp_task_undeferred_p (struct gomp_team *team, struct gomp_task *parent,
			bool if_clause, unsigned long ntasks)
{
  return !if_clause || team == NULL || parent->final_task
	 || team->task_count + ntasks
	    > GOMP_TASK_THROTTLE * team->local_nthreads;
}

/* GOMP_task, every case (GOMP_task runs the common undeferred one itself).
   DEPEND: if depend[0] is nonzero, depend[0] items of which the first
   depend[1] are out/inout and the rest in, addresses from depend[2].
   Otherwise depend[1] items: depend[2] out/inout, depend[3]
   mutexinoutset, depend[4] in, addresses from depend[5], then omp_depend_t
   pointers (depobj) for the rest.  */
static void __attribute__ ((noinline))
gomp_task_1 (void (*fn) (void *), void *data, void (*cpyfn) (void *, void *),
	     long arg_size, long arg_align, bool if_clause, unsigned flags,
	     void **depend, int priority_arg, void *detach)
{
  struct gomp_thread *thr = gomp_thread ();
  struct gomp_team *team = thr->ts.team;
  struct gomp_task *parent = gomp_current_task (thr);
  int priority = gomp_task_priority (flags, priority_arg);

  if (GOMP_UNLIKELY (gomp_cancel_var) && team
      && gomp_task_cancelled (team, parent->taskgroup))
    return;

  if (gomp_task_undeferred_p (team, parent, if_clause, 1))
    {
      if ((flags & GOMP_TASK_FLAG_DEPEND) && parent->deps)
	gomp_task_wait_depend_1 (thr, parent, depend);
      gomp_task_undeferred (thr, parent, fn, data, cpyfn, arg_size,
			    arg_align, flags, priority, detach, NULL, 0);
      return;
    }

  size_t ndeps = (flags & GOMP_TASK_FLAG_DEPEND) ? gomp_depend_count (depend)
						  : 0;
  struct gomp_task *t = gomp_task_alloc (thr, parent, fn, data, cpyfn,
					 arg_size, arg_align, flags, priority,
					 ndeps, detach, NULL, 0);
  struct gomp_team_tasks *tt = gomp_team_tasks (team);
  gomp_mutex_lock (&tt->lock);
  if (GOMP_UNLIKELY (gomp_cancel_var)
      && gomp_task_cancelled (team, t->member_of))
    {
      gomp_mutex_unlock (&tt->lock);
      gomp_task_free (t);
      return;
    }
  bool queued = gomp_task_submit (tt, parent, t, depend);
  gomp_mutex_unlock (&tt->lock);
  if (queued)
    gomp_barrier_maybe_wake (team);
  gomp_task_steal_poll ();
}

GOMP_EXPORT void
GOMP_task (void (*fn) (void *), void *data, void (*cpyfn) (void *, void *),
	   long arg_size, long arg_align, bool if_clause, unsigned flags,
	   void **depend, int priority_arg, void *detach)
{
  struct gomp_thread *thr = gomp_thread ();
  struct gomp_task *parent = thr->task;
  if (GOMP_LIKELY (parent != NULL && cpyfn == NULL
		   && !(flags & (GOMP_TASK_FLAG_DEPEND
				 | GOMP_TASK_FLAG_DETACH))
		   && !gomp_cancel_var)
      && gomp_task_undeferred_p (thr->ts.team, parent, if_clause, 1))
    gomp_task_undeferred_plain (thr, parent, fn, data, flags);
  else
    gomp_task_1 (fn, data, cpyfn, arg_size, arg_align, if_clause, flags,
		 depend, priority_arg, detach);
}

/* ---- Waiting for children and dependences. ---- */

/* Waits until *COUNT (the unfinished children of TASK, or the members of
   its taskgroup TG) is 0, running ready tasks meanwhile: TG's members
   first (when TG is not NULL), then TASK's children (a member may wait
   for siblings outside the taskgroup: those are children of TASK), then
   any descendant of TASK; sleeping when none is ready.  */
static void
gomp_task_wait_children (struct gomp_thread *thr, struct gomp_task *task,
			 struct gomp_taskgroup *tg, unsigned long *count)
{
  if (__atomic_load_n (count, __ATOMIC_ACQUIRE) == 0)
    return;
  struct gomp_team_tasks *tt = gomp_team_tasks (thr->ts.team);
  gomp_mutex_lock (&tt->lock);
  while (*count)
    {
      struct gomp_task *c = tg ? tg->ready.head : NULL;
      if (c == NULL)
	c = task->ready_children.head;
      if (c == NULL)
	c = gomp_task_find_descendant (tt, task);
      if (c)
	{
	  gomp_task_dequeue (tt, c);
	  gomp_task_run_locked (thr, tt, c);
	}
      else if (gomp_task_steal_on () && task->running_children
	       && gomp_task_steal_for (thr, tt, task))
	continue;
      else
	gomp_task_sleep (tt, task, tg);
    }
  gomp_mutex_unlock (&tt->lock);
  gomp_task_free_pending ();
}

GOMP_EXPORT void
GOMP_taskwait (void)
{
  struct gomp_thread *thr = gomp_thread ();
  struct gomp_task *task = thr->task;
  if (task != NULL)
    gomp_task_wait_children (thr, task, NULL, &task->num_children);
}

/* Waits until the siblings that DEPEND conflicts with have finished,
   running ready children meanwhile.  */
static void
gomp_task_wait_depend_1 (struct gomp_thread *thr, struct gomp_task *parent,
			 void **depend)
{
  struct gomp_team_tasks *tt = gomp_team_tasks (thr->ts.team);
  struct gomp_task w;
  memset (&w, 0, offsetof (struct gomp_task, icv));
  w.kind = GOMP_TASK_DEPWAIT;
  gomp_mutex_lock (&tt->lock);
  gomp_task_add_depend (parent, &w, depend, false);
  while (w.npred)
    {
      struct gomp_task *c = parent->ready_children.head;
      if (c == NULL)
	c = gomp_task_find_descendant (tt, parent);
      if (c)
	{
	  gomp_task_dequeue (tt, c);
	  gomp_task_run_locked (thr, tt, c);
	  continue;
	}
      int word = 0;
      w.waiter = &word;
      parent->waiter = &word;
      tt->deep_waiters++;
      gomp_mutex_unlock (&tt->lock);
      gomp_task_word_wait (&word);
      gomp_mutex_lock (&tt->lock);
      tt->deep_waiters--;
      if (parent->waiter == &word)
	parent->waiter = NULL;
      if (w.waiter == &word)
	w.waiter = NULL;
    }
  gomp_mutex_unlock (&tt->lock);
  gomp_task_free_pending ();
}

void
gomp_task_wait_depend (void **depend)
{
  struct gomp_thread *thr = gomp_thread ();
  struct gomp_task *task = thr->task;
  if (task == NULL || task->deps == NULL || thr->ts.team == NULL)
    return;
  gomp_task_wait_depend_1 (thr, task, depend);
}

GOMP_EXPORT void
GOMP_taskwait_depend (void **depend)
{
  struct gomp_thread *thr = gomp_thread ();
  /* Cancelled regions skip the wait, as every task scheduling point.  */
  if (GOMP_UNLIKELY (gomp_cancel_var) && thr->ts.team
      && __atomic_load_n (&thr->ts.team->cancelled, __ATOMIC_RELAXED))
    return;
  gomp_task_wait_depend (depend);
}

/* A task scheduling point: runs one ready child, if there is one.  */
GOMP_EXPORT void
GOMP_taskyield (void)
{
  struct gomp_thread *thr = gomp_thread ();
  struct gomp_task *task = thr->task;
  if (task == NULL || task->ready_children.head == NULL)
    return;
  struct gomp_team_tasks *tt = gomp_team_tasks (thr->ts.team);
  gomp_mutex_lock (&tt->lock);
  struct gomp_task *c = task->ready_children.head;
  if (c)
    {
      gomp_task_dequeue (tt, c);
      gomp_task_run_locked (thr, tt, c);
    }
  gomp_mutex_unlock (&tt->lock);
  gomp_task_free_pending ();
}

/* ---- taskgroup (2.19.6). ---- */

struct gomp_taskgroup *
gomp_taskgroup_new (struct gomp_taskgroup *prev)
{
  struct gomp_taskgroup *tg = calloc (1, sizeof *tg);
  if (tg == NULL)
    gomp_fatal ("out of memory for a taskgroup");
  tg->prev = prev;
  /* in_reduction inside a nested taskgroup finds the outer items.  */
  tg->reductions = prev ? prev->reductions : NULL;
  return tg;
}

GOMP_EXPORT void
GOMP_taskgroup_start (void)
{
  struct gomp_thread *thr = gomp_thread ();
  struct gomp_task *task = gomp_current_task (thr);
  task->taskgroup = gomp_taskgroup_new (task->taskgroup);
}

/* Waits until every member of TG has finished, running ready members.  */
void
gomp_taskgroup_wait (struct gomp_thread *thr, struct gomp_task *task,
		     struct gomp_taskgroup *tg)
{
  gomp_task_wait_children (thr, task, tg, &tg->num_children);
}

GOMP_EXPORT void
GOMP_taskgroup_end (void)
{
  struct gomp_thread *thr = gomp_thread ();
  struct gomp_task *task = thr->task;
  struct gomp_taskgroup *tg = task ? task->taskgroup : NULL;
  if (tg == NULL)
    return;
  gomp_taskgroup_wait (thr, task, tg);
  task->taskgroup = tg->prev;
  free (tg);
}

/* ---- detach (2.12.5) and task queries. ---- */

GOMP_EXPORT void
omp_fulfill_event (omp_event_handle_t event)
{
  struct gomp_task *t = (struct gomp_task *) event;
  if (t == NULL)
    gomp_fatal ("omp_fulfill_event: the event handle is not one a detach "
		"clause created");
  if (t->kind == GOMP_TASK_UNDEFERRED)
    {
      /* Its creator waits for this on its stack.  */
      t->fulfilled = true;
      int **slot = &t->waiter;
      int *word = *slot;
      if (__atomic_exchange_n (word, 1, __ATOMIC_RELEASE) == 2)
	gomp_futex_wake (word, 1);
      return;
    }
  struct gomp_team *team = t->team;
  struct gomp_team_tasks *tt = gomp_team_tasks (team);
  gomp_mutex_lock (&tt->lock);
  if (t->fulfilled)
    gomp_fatal ("omp_fulfill_event: the event was already fulfilled");
  t->fulfilled = true;
  bool last = false;
  if (t->kind == GOMP_TASK_DETACHED)
    {
      last = gomp_task_complete (tt, t);
      gomp_task_free (t);
    }
  gomp_mutex_unlock (&tt->lock);
  if (last)
    gomp_task_barrier_wake_done (team);
}

GOMP_EXPORT int
omp_in_final (void)
{
  struct gomp_task *t = gomp_thread ()->task;
  return t && t->final_task;
}
