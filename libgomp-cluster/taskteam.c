/* taskteam.c -- the tasking state of teams and threads: a team's task
   queue and lock (struct gomp_team_tasks), kept for the same team object
   across its regions; the implicit tasks (OpenMP 5.1, section 2.4) whose
   records each thread reuses by nesting depth; the current task of a
   thread; and the hooks team.c calls when a team starts and ends and when
   a thread enters and leaves it, and target.c's when a thread becomes a
   new initial thread.  What the team's threads inherit from the master
   beyond the ICVs (def-allocator-var, the teams league) passes here.  */

#include "task.h"
#include <stdlib.h>

/* Implicit-task records, reused by depth of nesting on each thread.  */
#define GOMP_IMPLICIT_CACHE 8
static __thread struct gomp_task *gomp_implicit_cache[GOMP_IMPLICIT_CACHE]
  __attribute__ ((tls_model ("initial-exec")));
static __thread unsigned gomp_implicit_depth
  __attribute__ ((tls_model ("initial-exec")));

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
  t->final_task = false;
  gomp_task_clear_links (t);
  t->ndeps = 0;
  t->outer = outer;
  t->movable = false;
  t->moved = 0;
  t->steal_root = NULL;
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
