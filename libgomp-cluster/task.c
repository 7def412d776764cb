/* task.c -- explicit tasks (OpenMP 5.1, section 2.12): GOMP_task with its
   if, final, untied, mergeable, priority, depend and detach clauses,
   taskwait (with depend), taskyield, taskgroup, omp_fulfill_event and
   omp_in_final.  The constructs call the scheduler (tasksched.c) to queue,
   run and wait; taskteam.c keeps the teams' and threads' tasking state.
   task.h describes the data structures; dependences are in taskdep.c.

   Untied tasks run as tied ones and mergeable ones are never merged (both
   are allowed).  With several nodes the queues belong to the node-local
   part of a team; tasksteal.c moves some tasks to other nodes.  */

#include "task.h"
#include "omp.h"
#include <stdlib.h>
#include <string.h>

/* ---- GOMP_task. ---- */

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
  /* Its children's site_depth counts it.  */
  t.fn = fn;
  t.site_depth = gomp_task_site_depth_of (parent, fn);
  t.final_task = parent->final_task || (flags & GOMP_TASK_FLAG_FINAL);
  t.detach = t.fulfilled = t.had_children = false;
  t.ready_children.head = t.ready_children.tail = NULL;
  t.busy_children.head = t.busy_children.tail = NULL;
  t.num_children = t.running_children = 0;
  t.waiter = NULL;
  t.deps = NULL;
  t.movable = false;
  t.moved = 0;
  t.steal_root = gomp_task_steal_root_of (parent);
  t.icv = *gomp_icv ();
  int done = 0;
  if (flags & GOMP_TASK_FLAG_DETACH)
    {
      t.detach = true;
      t.waiter = &done;
      *(void **) detach = gomp_task_event (&t);
      if (data)
	*(void **) data = gomp_task_event (&t);
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
  /* Its children's site_depth counts it.  */
  t.fn = fn;
  t.site_depth = gomp_task_site_depth_of (parent, fn);
  t.final_task = parent->final_task | ((flags & GOMP_TASK_FLAG_FINAL) != 0);
  t.detach = t.had_children = false;
  t.ready_children.head = t.ready_children.tail = NULL;
  t.busy_children.head = t.busy_children.tail = NULL;
  t.num_children = t.running_children = 0;
  t.waiter = NULL;
  t.deps = NULL;
  t.movable = false;
  t.moved = 0;
  t.steal_root = gomp_task_steal_root_of (parent);
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
  t->site_depth = gomp_task_site_depth_of (parent, fn);
  t->priority = priority;
  t->kind = GOMP_TASK_READY;
  t->final_task = (flags & GOMP_TASK_FLAG_FINAL) != 0;
  gomp_task_clear_links (t);
  t->icv = *gomp_icv ();
  t->ndeps = ndeps;
  t->dep_recs = (struct gomp_dep_rec *) (t + 1);
  char *arg = (char *) (((uintptr_t) (t + 1) + dep_size + arg_align - 1)
			& ~(uintptr_t) (arg_align - 1));
  t->fn_data = arg;
  t->movable = t->site_retry = false;
  t->moved = 0;
  t->steal_root = gomp_task_steal_root_of (parent);
  t->arg_size = (uint32_t) arg_size;
  t->arg_align = (uint32_t) arg_align;
  if (flags & GOMP_TASK_FLAG_DETACH)
    {
      t->detach = true;
      *(void **) detach = gomp_task_event (t);
      if (data)
	*(void **) data = gomp_task_event (t);
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
    t->movable = gomp_task_movable (thr, t, flags, arg_size, arg_align);
  return t;
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

  /* A task is run at once when the program says so (if, final), or when
     the queue is long -- but not a detached task or one with
     dependences: the event or the dependence may wait for what its
     creator does after it, which it would never do while waiting (a
     detached task's event fulfilled later by the creator or a task made
     after it).  */
  bool undeferred = gomp_task_undeferred_p (team, parent, if_clause, 1)
		    && (!if_clause || team == NULL || parent->final_task
			|| !(flags & (GOMP_TASK_FLAG_DETACH
				      | GOMP_TASK_FLAG_DEPEND)));
  if (undeferred)
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

/* ---- taskwait and taskyield. ---- */

GOMP_EXPORT void
GOMP_taskwait (void)
{
  struct gomp_thread *thr = gomp_thread ();
  struct gomp_task *task = thr->task;
  if (task != NULL)
    gomp_task_wait_children (thr, task, NULL, &task->num_children);
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
  struct gomp_task_wait_mark m;
  gomp_task_wait_start (thr, &m);
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
  gomp_task_wait_end (thr, &m);
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

/* The task of EVENT, a handle of this node's.  */
static struct gomp_task *
gomp_task_of_event (uintptr_t event)
{
  struct gomp_task *t
    = (struct gomp_task *) (event & ((1ul << GOMP_TASK_EVENT_SHIFT) - 1));
  if (t == NULL)
    gomp_fatal ("omp_fulfill_event: the event handle is not one a detach "
		"clause created");
  return t;
}

GOMP_EXPORT void
omp_fulfill_event (omp_event_handle_t event)
{
  uintptr_t e = (uintptr_t) event;
  int node = (int) (e >> GOMP_TASK_EVENT_SHIFT) - 1;
  if (GOMP_UNLIKELY (gomp_cluster != NULL) && node != gomp_cluster->rank)
    {
      /* Another node's event: that node completes its task.  */
      if (node < 0 || node >= gomp_cluster->nodes)
	gomp_fatal ("omp_fulfill_event: the event handle is not one a "
		    "detach clause created");
      if (!gomp_task_steal_on ())
	gomp_fatal ("not supported: omp_fulfill_event on rank %d of an "
		    "event that a detach clause made on rank %d, with "
		    "OMPC_TASK_STEAL=0; set OMPC_TASK_STEAL=1",
		    gomp_cluster->rank, node);
      gomp_cluster->task_fulfill (node, (uint64_t) e);
      return;
    }
  gomp_task_fulfill (gomp_task_of_event (e));
}

/* host->task_fulfilled: another node fulfilled EVENT, this node's.  */
void
gomp_task_fulfilled_remote (uint64_t event)
{
  gomp_task_fulfill (gomp_task_of_event ((uintptr_t) event));
}

/* Fulfills the event of T, a task of this node's.  */
void
gomp_task_fulfill (struct gomp_task *t)
{
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
