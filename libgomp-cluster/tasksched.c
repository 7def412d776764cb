/* tasksched.c -- the task scheduler behind the tasking constructs
   (OpenMP 5.1, section 2.12.6): the priority-ordered lists, the words
   waiting threads sleep on, the recycled task records, queueing a task
   (gomp_task_submit, gomp_task_make_ready) and taking it off the queues,
   running it and completing it, the barrier's hook that runs queued tasks,
   and the loops in which a task waits for its children, a taskgroup's
   members or its dependences while running what it may.  Everything that
   touches the queues runs with the team's task lock held.  task.h
   describes the data structures; task.c has the constructs' entry
   points.  */

#include "task.h"
#include <pthread.h>
#include <stdlib.h>
#include <string.h>

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

void
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
   thread next releases the team's lock (gomp_task_free_pending, task.h).  */
__thread struct gomp_task *gomp_task_to_free
  __attribute__ ((tls_model ("initial-exec")));

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
void
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

/* The time a task's body takes on this thread, less the time it waits
   for other tasks (taskwait, taskgroup end, a dependence, taskyield),
   running them or not (gomp_task_wait_start): a recursive task's own
   work, not its subtree's, which tasksite.c compares with the same time
   on a thief.  Tasks run only at those waits (or in barriers, outside
   any task's body).  A task is timed when WANT or when a task it runs
   inside is.  Of its own time, what went to the DSM's faults and to
   other waits for other nodes is counted alike: what the thread waited
   for other nodes during the waits, in the bodies of the tasks it ran
   there or not, is not the body's (every task run inside a timed one
   is timed).  */
struct task_clock
{
  uint64_t t0, inner0, remote0, inner_remote0;
};

static inline bool
task_clock_start (struct gomp_thread *thr, bool want, struct task_clock *c)
{
  if (!want && !thr->task_timed)
    return false;
  c->inner0 = thr->task_inner_ns;
  thr->task_inner_ns = 0;
  c->inner_remote0 = thr->task_inner_remote_ns;
  thr->task_inner_remote_ns = 0;
  thr->task_timed++;
  c->remote0 = gomp_task_remote_ns ();
  c->t0 = gomp_task_now_ns ();
  return true;
}

/* The body's own time, and (*REMOTE) the part of it that went to other
   nodes; the enclosing task's wait counts all of it.  */
static inline uint64_t
task_clock_stop (struct gomp_thread *thr, const struct task_clock *c,
		 uint64_t *remote)
{
  uint64_t all = gomp_task_now_ns () - c->t0;
  uint64_t all_remote = gomp_task_remote_ns () - c->remote0;
  uint64_t inner = thr->task_inner_ns;
  uint64_t inner_remote = thr->task_inner_remote_ns;
  thr->task_inner_ns = c->inner0;
  thr->task_inner_remote_ns = c->inner_remote0 + all_remote;
  thr->task_timed--;
  uint64_t own = inner < all ? all - inner : 0;
  uint64_t own_remote = inner_remote < all_remote
			? all_remote - inner_remote : 0;
  *remote = own_remote < own ? own_remote : own;
  return own;
}

/* Whether THR times movable task T, which it runs at home (its site's
   average here, tasksite.c).  Reading the clock twice costs ~60 ns on
   this project's virtual machines: BOTS health, 2.25 million tasks of well
   under a microsecond each, ran 0.5 s slower at 2 x 1 with stealing on,
   a fifth of rank 0's samples in clock_gettime.  So while the tasks it
   times take less than TIME_ALL_NS, a thread times one in
   2^TIME_EVERY_SHIFT, picked at random (sites alternating in a fixed
   pattern must not hide from a counter); an average needs no more.  It
   times its first task, every one while they take longer, and the first
   of each site: a site whose first tasks at home go untimed is valued
   by its thieves' times alone when they first report (tasksite.c).
   The tasks of a stolen subtree are all timed on the thief: their sums
   go back.  */
#define TIME_ALL_NS 20000
#define TIME_EVERY_SHIFT 4	/* One in 16.  */

static inline bool
task_time_this (struct gomp_thread *thr, struct gomp_task *t)
{
  if (!thr->task_time_sampled)
    return true;
  thr->task_time_rng = thr->task_time_rng * 6364136223846793005ul
		       + 1442695040888963407ul;
  return (thr->task_time_rng >> (64 - TIME_EVERY_SHIFT)) == 0
	 || gomp_task_site_untimed (t->fn);
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
	  struct task_clock c;
	  task_clock_start (thr, true, &c);
	  t->fn (t->fn_data);
	  uint64_t remote, own = task_clock_stop (thr, &c, &remote);
	  gomp_task_steal_timed (t, t->fn, own, remote);
	  gomp_task_steal_complete (thr, t, tg, c.t0);
	  __atomic_add_fetch (&gomp_task_stats[GOMP_TASK_STAT_STOLEN], 1,
			      __ATOMIC_RELAXED);
	}
      else
	{
	  /* A task that could have moved: how long its site's tasks run
	     here (tasksite.c).  */
	  struct task_clock c;
	  struct gomp_task *root = t->steal_root;
	  bool timed = task_clock_start (thr, root
					       || (t->movable
						   && task_time_this (thr, t)),
					 &c);
	  t->fn (t->fn_data);
	  if (timed)
	    {
	      uint64_t remote, own = task_clock_stop (thr, &c, &remote);
	      if (t->movable)
		{
		  gomp_task_site_ran_here (t->fn, (long) own);
		  thr->task_time_sampled = own < TIME_ALL_NS;
		}
	      if (root)
		/* A descendant of a stolen task: its thief's figures.  */
		gomp_task_steal_timed (root, t->fn, own, remote);
	    }
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
void
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

/* ---- Waiting for children and dependences. ---- */

/* Waits until *COUNT (the unfinished children of TASK, or the members of
   its taskgroup TG) is 0, running ready tasks meanwhile: TG's members
   first (when TG is not NULL), then TASK's children (a member may wait
   for siblings outside the taskgroup: those are children of TASK), then
   any descendant of TASK; sleeping when none is ready.  */
void
gomp_task_wait_children (struct gomp_thread *thr, struct gomp_task *task,
			 struct gomp_taskgroup *tg, unsigned long *count)
{
  if (__atomic_load_n (count, __ATOMIC_ACQUIRE) == 0)
    return;
  struct gomp_task_wait_mark m;
  gomp_task_wait_start (thr, &m);
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
  gomp_task_wait_end (thr, &m);
}

/* Waits until the siblings that DEPEND conflicts with have finished,
   running ready children meanwhile.  */
void
gomp_task_wait_depend_1 (struct gomp_thread *thr, struct gomp_task *parent,
			 void **depend)
{
  struct gomp_task_wait_mark m;
  gomp_task_wait_start (thr, &m);
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
  gomp_task_wait_end (thr, &m);
}
