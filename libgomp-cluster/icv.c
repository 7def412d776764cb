/* icv.c -- the omp_* routines that read and set internal control
   variables and describe the team (OpenMP 5.1 sections 3.2 and 3.10):
   thread counts and numbers, nesting, schedule, limits, and the wall
   clock.  A team spanning nodes answers with global numbers.  */

#include "libgomp.h"
#include <time.h>

/* The highest max-active-levels-var this runtime supports.  */
#define GOMP_SUPPORTED_ACTIVE_LEVELS 255

struct gomp_task_icv *
gomp_icv_write (void)
{
  struct gomp_thread *thr = gomp_thread ();
  if (thr->task)
    gomp_task_icv_own (thr);
  if (!thr->icv)
    {
      thr->implicit_icv = gomp_global_icv;
      thr->icv = &thr->implicit_icv;
    }
  return thr->icv;
}

GOMP_EXPORT void
omp_set_num_threads (int n)
{
  gomp_icv_write ()->nthreads_var = n > 0 ? n : 1;
}

GOMP_EXPORT int
omp_get_num_threads (void)
{
  struct gomp_team *team = gomp_thread ()->ts.team;
  return team ? (int) team->nthreads : 1;
}

GOMP_EXPORT int
omp_get_max_threads (void)
{
  return (int) gomp_icv ()->nthreads_var;
}

GOMP_EXPORT int
omp_get_thread_num (void)
{
  return (int) gomp_thread ()->ts.team_id;
}

GOMP_EXPORT int
omp_get_num_procs (void)
{
  return (int) gomp_available_cpus;
}

GOMP_EXPORT int
omp_in_parallel (void)
{
  return gomp_thread ()->ts.active_level > 0;
}

GOMP_EXPORT void
omp_set_dynamic (int val)
{
  gomp_icv_write ()->dyn_var = val != 0;
}

GOMP_EXPORT int
omp_get_dynamic (void)
{
  return gomp_icv ()->dyn_var;
}

/* Deprecated in OpenMP 5.0: nesting is max-active-levels-var > 1.  */
GOMP_EXPORT void
omp_set_nested (int val)
{
  struct gomp_task_icv *icv = gomp_icv_write ();
  if (val)
    {
      if (icv->max_active_levels_var <= 1)
	icv->max_active_levels_var = GOMP_SUPPORTED_ACTIVE_LEVELS;
    }
  else
    icv->max_active_levels_var = 1;
}

GOMP_EXPORT int
omp_get_nested (void)
{
  return gomp_icv ()->max_active_levels_var > 1;
}

GOMP_EXPORT void
omp_set_schedule (int kind, int chunk)
{
  struct gomp_task_icv *icv = gomp_icv_write ();
  switch (kind & ~GFS_MONOTONIC)
    {
    case GFS_STATIC:
      icv->run_sched_chunk_size = chunk < 1 ? 0 : chunk;
      break;
    case GFS_DYNAMIC:
    case GFS_GUIDED:
      icv->run_sched_chunk_size = chunk < 1 ? 1 : chunk;
      break;
    case GFS_AUTO:
      icv->run_sched_chunk_size = 0;
      break;
    default:
      /* OpenMP 5.1: an unknown kind is implementation defined; keep the
	 current schedule.  */
      return;
    }
  icv->run_sched_var = (enum gomp_schedule_type) kind;
}

GOMP_EXPORT void
omp_get_schedule (int *kind, int *chunk)
{
  struct gomp_task_icv *icv = gomp_icv ();
  *kind = icv->run_sched_var;
  *chunk = (int) icv->run_sched_chunk_size;
}

GOMP_EXPORT int
omp_get_thread_limit (void)
{
  unsigned l = gomp_icv ()->thread_limit_var;
  return l > INT_MAX ? INT_MAX : (int) l;
}

GOMP_EXPORT void
omp_set_max_active_levels (int levels)
{
  if (levels < 0)
    return;
  gomp_icv_write ()->max_active_levels_var
    = levels > GOMP_SUPPORTED_ACTIVE_LEVELS ? GOMP_SUPPORTED_ACTIVE_LEVELS
					    : (unsigned) levels;
}

GOMP_EXPORT int
omp_get_max_active_levels (void)
{
  return (int) gomp_icv ()->max_active_levels_var;
}

GOMP_EXPORT int
omp_get_supported_active_levels (void)
{
  return GOMP_SUPPORTED_ACTIVE_LEVELS;
}

GOMP_EXPORT int
omp_get_level (void)
{
  return (int) gomp_thread ()->ts.level;
}

GOMP_EXPORT int
omp_get_active_level (void)
{
  return (int) gomp_thread ()->ts.active_level;
}

/* The team state of the calling thread's ancestor at LEVEL, or NULL.  */
static const struct gomp_team_state *
gomp_ancestor_ts (int level)
{
  const struct gomp_team_state *ts = &gomp_thread ()->ts;
  if (level < 0 || (unsigned) level > ts->level)
    return NULL;
  while (ts->level > (unsigned) level)
    ts = &ts->team->prev_ts;
  return ts;
}

GOMP_EXPORT int
omp_get_ancestor_thread_num (int level)
{
  const struct gomp_team_state *ts = gomp_ancestor_ts (level);
  return ts ? (int) ts->team_id : -1;
}

GOMP_EXPORT int
omp_get_team_size (int level)
{
  const struct gomp_team_state *ts = gomp_ancestor_ts (level);
  if (!ts)
    return -1;
  return ts->team ? (int) ts->team->nthreads : 1;
}

GOMP_EXPORT int
omp_get_cancellation (void)
{
  return gomp_cancel_var;
}

GOMP_EXPORT int
omp_get_proc_bind (void)
{
  return gomp_icv ()->bind_var;
}

GOMP_EXPORT int
omp_get_max_task_priority (void)
{
  return gomp_max_task_priority_var;
}

GOMP_EXPORT void
omp_set_default_device (int device)
{
  gomp_icv_write ()->default_device_var = device < 0 ? 0 : device;
}

GOMP_EXPORT int
omp_get_default_device (void)
{
  return gomp_icv ()->default_device_var;
}

/* The wall clock (OpenMP 5.1 section 3.10): seconds since an arbitrary
   moment, monotonic.  */
GOMP_EXPORT double
omp_get_wtime (void)
{
  struct timespec ts;
  clock_gettime (CLOCK_MONOTONIC, &ts);
  return ts.tv_sec + ts.tv_nsec / 1e9;
}

GOMP_EXPORT double
omp_get_wtick (void)
{
  struct timespec ts;
  clock_getres (CLOCK_MONOTONIC, &ts);
  return ts.tv_sec + ts.tv_nsec / 1e9;
}
