/* taskloop.c -- the taskloop construct (OpenMP 5.1, section 2.12.2):
   GOMP_taskloop and GOMP_taskloop_ull split the iterations into tasks
   (grainsize, num_tasks with or without strict, or one task per thread by
   default), inside an implicit taskgroup unless nogroup, with the
   reduction clause's task reductions registered on that taskgroup.

   The data block GCC passes starts with the task's first and last
   iteration (two longs or unsigned long longs: the same 8 bytes on the
   targets GCC 12 supports here), which this file fills in for each task;
   the arithmetic below works on their unsigned bits for both types.  */

#include "task.h"
#include "omp.h"
#include <stdlib.h>
#include <string.h>

/* The split of N iterations: NUM_TASKS tasks, the first NFIRST + 1 of
   which (all when NFIRST is N) advance by TASK_STEP and the rest by
   NFIRST_STEP.  */
struct gomp_taskloop_split
{
  unsigned long num_tasks, nfirst;
  gomp_ull task_step, nfirst_step;
};

static void
gomp_taskloop_split (struct gomp_taskloop_split *sp, unsigned flags,
		     unsigned long num_tasks, gomp_ull n, gomp_ull start,
		     gomp_ull end, gomp_ull step, struct gomp_team *team)
{
  sp->task_step = sp->nfirst_step = step;
  sp->nfirst = n;
  if (flags & GOMP_TASK_FLAG_GRAINSIZE)
    {
      unsigned long grainsize = num_tasks;
      num_tasks = n / grainsize;
      if (flags & GOMP_TASK_FLAG_STRICT)
	{
	  /* Every task but the last has exactly GRAINSIZE iterations.  */
	  gomp_ull mod = n % grainsize;
	  sp->task_step = (gomp_ull) grainsize * step;
	  if (mod)
	    {
	      num_tasks++;
	      sp->nfirst_step = mod * step;
	      if (num_tasks == 1)
		sp->task_step = sp->nfirst_step;
	      else
		sp->nfirst = num_tasks - 2;
	    }
	}
      else if (num_tasks <= 1)
	{
	  num_tasks = 1;
	  sp->task_step = end - start;
	}
      else if (num_tasks >= grainsize)
	{
	  /* Between GRAINSIZE and 2 * GRAINSIZE - 1 iterations each.  */
	  gomp_ull mul = (gomp_ull) num_tasks * grainsize;
	  sp->task_step = (gomp_ull) grainsize * step;
	  if (mul != n)
	    {
	      sp->nfirst_step = sp->task_step;
	      sp->task_step += step;
	      sp->nfirst = n - mul - 1;
	    }
	}
      else
	{
	  gomp_ull div = n / num_tasks, mod = n % num_tasks;
	  sp->task_step = div * step;
	  if (mod)
	    {
	      sp->nfirst_step = sp->task_step;
	      sp->task_step += step;
	      sp->nfirst = mod - 1;
	    }
	}
    }
  else
    {
      if (num_tasks == 0)
	num_tasks = team ? team->local_nthreads : 1;
      if (num_tasks >= n)
	num_tasks = n;
      else
	{
	  gomp_ull div = n / num_tasks, mod = n % num_tasks;
	  sp->task_step = div * step;
	  if (mod)
	    {
	      sp->nfirst_step = sp->task_step;
	      sp->task_step += step;
	      sp->nfirst = mod - 1;
	    }
	}
    }
  sp->num_tasks = num_tasks;
}

/* The layout of the start of a taskloop's data block.  */
struct gomp_taskloop_head
{
  gomp_ull start, end;
  uintptr_t *reductions;
};

static void
gomp_taskloop (void (*fn) (void *), void *data,
	       void (*cpyfn) (void *, void *), long arg_size, long arg_align,
	       unsigned flags, unsigned long num_tasks, int priority,
	       gomp_ull start, gomp_ull end, gomp_ull step, gomp_ull n)
{
  struct gomp_thread *thr = gomp_thread ();
  struct gomp_team *team = thr->ts.team;
  bool group = !(flags & GOMP_TASK_FLAG_NOGROUP);

  if (n == 0
      || (GOMP_UNLIKELY (gomp_cancel_var) && team
	  && __atomic_load_n (&team->cancelled, __ATOMIC_RELAXED)))
    {
      /* Tells the caller GOMP_taskgroup_reduction_register was not
	 called.  */
      if (group && (flags & GOMP_TASK_FLAG_REDUCTION))
	((struct gomp_taskloop_head *) data)->reductions[2] = 0;
      return;
    }

  struct gomp_taskloop_split sp;
  gomp_taskloop_split (&sp, flags, num_tasks, n, start, end, step, team);

  struct gomp_task *parent = gomp_current_task (thr);
  if (group)
    {
      GOMP_taskgroup_start ();
      if (flags & GOMP_TASK_FLAG_REDUCTION)
	GOMP_taskgroup_reduction_register
	  (((struct gomp_taskloop_head *) data)->reductions);
    }
  else if (GOMP_UNLIKELY (gomp_cancel_var) && team
	   && gomp_task_cancelled (team, parent->taskgroup))
    return;

  if (flags & GOMP_TASK_FLAG_PRIORITY)
    {
      if (priority > gomp_max_task_priority_var)
	priority = gomp_max_task_priority_var;
      if (priority < 0)
	priority = 0;
    }
  else
    priority = 0;
  /* The tasks' own flags: final, and nothing GOMP_taskloop-specific.  */
  unsigned tflags = flags & GOMP_TASK_FLAG_FINAL;
  gomp_ull bounds[2];
  gomp_ull task_step = sp.task_step;

  if (!(flags & GOMP_TASK_FLAG_IF) || team == NULL || parent->final_task
      || team->task_count + sp.num_tasks
	 > GOMP_TASK_THROTTLE * team->local_nthreads)
    {
      for (unsigned long i = 0; i < sp.num_tasks; i++)
	{
	  bounds[0] = start;
	  start += task_step;
	  bounds[1] = start;
	  if (i == sp.nfirst)
	    task_step = sp.nfirst_step;
	  gomp_task_undeferred (thr, parent, fn, data, cpyfn, arg_size,
				arg_align, tflags, priority, NULL, bounds,
				sizeof bounds);
	}
    }
  else
    {
      struct gomp_task *tasks[sp.num_tasks];
      for (unsigned long i = 0; i < sp.num_tasks; i++)
	{
	  bounds[0] = start;
	  start += task_step;
	  bounds[1] = start;
	  if (i == sp.nfirst)
	    task_step = sp.nfirst_step;
	  tasks[i] = gomp_task_alloc (thr, parent, fn, data, cpyfn, arg_size,
				      arg_align, tflags, priority, 0, NULL,
				      bounds, sizeof bounds);
	}
      struct gomp_team_tasks *tt = gomp_team_tasks (team);
      gomp_mutex_lock (&tt->lock);
      if (GOMP_UNLIKELY (gomp_cancel_var)
	  && gomp_task_cancelled (team, parent->taskgroup))
	{
	  gomp_mutex_unlock (&tt->lock);
	  for (unsigned long i = 0; i < sp.num_tasks; i++)
	    gomp_task_free (tasks[i]);
	}
      else
	{
	  for (unsigned long i = 0; i < sp.num_tasks; i++)
	    gomp_task_submit (tt, parent, tasks[i], NULL);
	  gomp_mutex_unlock (&tt->lock);
	  gomp_barrier_maybe_wake (team);
	}
    }

  if (group)
    GOMP_taskgroup_end ();
}

GOMP_EXPORT void
GOMP_taskloop (void (*fn) (void *), void *data,
	       void (*cpyfn) (void *, void *), long arg_size, long arg_align,
	       unsigned flags, unsigned long num_tasks, int priority,
	       long start, long end, long step)
{
  gomp_ull n;
  if (step > 0)
    n = start >= end ? 0 : ((gomp_ull) end - start + step - 1) / step;
  else
    n = start <= end ? 0 : ((gomp_ull) start - end - step - 1) / -(gomp_ull) step;
  gomp_taskloop (fn, data, cpyfn, arg_size, arg_align, flags, num_tasks,
		 priority, start, end, step, n);
}

GOMP_EXPORT void
GOMP_taskloop_ull (void (*fn) (void *), void *data,
		   void (*cpyfn) (void *, void *), long arg_size,
		   long arg_align, unsigned flags, unsigned long num_tasks,
		   int priority, unsigned long long start,
		   unsigned long long end, unsigned long long step)
{
  gomp_ull n;
  if (flags & GOMP_TASK_FLAG_UP)
    n = start >= end ? 0 : (end - start + step - 1) / step;
  else
    n = start <= end ? 0 : (start - end - step - 1) / -step;
  gomp_taskloop (fn, data, cpyfn, arg_size, arg_align, flags, num_tasks,
		 priority, start, end, step, n);
}
