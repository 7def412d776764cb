/* loop.c -- the loop construct with long iteration variables (OpenMP 5.1
   section 2.11.4): the GOMP_loop_* entry points GCC calls for schedules it
   does not expand inline, the combined parallel loops, and the end of a
   loop.  The arithmetic is in iter.c.  */

#include "libgomp.h"
#include <stdlib.h>
#include <string.h>

/* The schedule and chunk a schedule(runtime) loop uses (run-sched-var).  */
static enum gomp_schedule_type
gomp_runtime_sched (long *chunk)
{
  struct gomp_task_icv *icv = gomp_icv ();
  enum gomp_schedule_type s = icv->run_sched_var & ~GFS_MONOTONIC;
  *chunk = icv->run_sched_chunk_size;
  if (s == GFS_AUTO || s == GFS_RUNTIME)
    {
      *chunk = 0;
      return GFS_STATIC;
    }
  return s;
}

static bool
gomp_loop_next (long *istart, long *iend)
{
  struct gomp_work_share *ws = gomp_thread ()->ts.work_share;
  switch (ws->sched)
    {
    case GFS_STATIC:
      return gomp_iter_static_next (istart, iend);
    case GFS_DYNAMIC:
      return gomp_iter_dynamic_next (istart, iend);
    default:
      return gomp_iter_guided_next (istart, iend);
    }
}

static bool
gomp_loop_begin (long start, long end, long incr,
		 enum gomp_schedule_type sched, long chunk, bool ordered,
		 long *istart, long *iend)
{
  struct gomp_thread *thr = gomp_thread ();
  thr->ts.static_trip = 0;
  thr->ts.ordered_ticket = GOMP_NO_TICKET;
  bool first = gomp_work_share_start ();
  if (first)
    {
      gomp_loop_init (thr->ts.work_share, start, end, incr, sched, chunk,
		      ordered);
      gomp_work_share_init_done ();
    }
  if (GOMP_UNLIKELY (ordered && thr->ts.team && thr->ts.team->spans))
    gomp_ordered_cluster_begin (thr->ts.work_share, first);
  return gomp_loop_next (istart, iend);
}

GOMP_EXPORT bool
GOMP_loop_static_start (long start, long end, long incr, long chunk,
			long *istart, long *iend)
{
  return gomp_loop_begin (start, end, incr, GFS_STATIC, chunk, false, istart,
			  iend);
}

GOMP_EXPORT bool
GOMP_loop_dynamic_start (long start, long end, long incr, long chunk,
			 long *istart, long *iend)
{
  return gomp_loop_begin (start, end, incr, GFS_DYNAMIC, chunk, false,
			  istart, iend);
}

GOMP_EXPORT bool
GOMP_loop_guided_start (long start, long end, long incr, long chunk,
			long *istart, long *iend)
{
  return gomp_loop_begin (start, end, incr, GFS_GUIDED, chunk, false, istart,
			  iend);
}

GOMP_EXPORT bool
GOMP_loop_runtime_start (long start, long end, long incr, long *istart,
			 long *iend)
{
  long chunk;
  enum gomp_schedule_type s = gomp_runtime_sched (&chunk);
  return gomp_loop_begin (start, end, incr, s, chunk, false, istart, iend);
}

GOMP_EXPORT bool
GOMP_loop_nonmonotonic_dynamic_start (long start, long end, long incr,
				      long chunk, long *istart, long *iend)
{
  return gomp_loop_begin (start, end, incr, GFS_DYNAMIC | GFS_NONMONOTONIC,
			  chunk, false, istart, iend);
}

GOMP_EXPORT bool
GOMP_loop_nonmonotonic_guided_start (long start, long end, long incr,
				     long chunk, long *istart, long *iend)
{
  return GOMP_loop_guided_start (start, end, incr, chunk, istart, iend);
}

GOMP_EXPORT bool
GOMP_loop_nonmonotonic_runtime_start (long start, long end, long incr,
				      long *istart, long *iend)
{
  return GOMP_loop_runtime_start (start, end, incr, istart, iend);
}

GOMP_EXPORT bool
GOMP_loop_maybe_nonmonotonic_runtime_start (long start, long end, long incr,
					    long *istart, long *iend)
{
  return GOMP_loop_runtime_start (start, end, incr, istart, iend);
}

GOMP_EXPORT bool
GOMP_loop_ordered_static_start (long start, long end, long incr, long chunk,
				long *istart, long *iend)
{
  return gomp_loop_begin (start, end, incr, GFS_STATIC, chunk, true, istart,
			  iend);
}

GOMP_EXPORT bool
GOMP_loop_ordered_dynamic_start (long start, long end, long incr, long chunk,
				 long *istart, long *iend)
{
  return gomp_loop_begin (start, end, incr, GFS_DYNAMIC, chunk, true, istart,
			  iend);
}

GOMP_EXPORT bool
GOMP_loop_ordered_guided_start (long start, long end, long incr, long chunk,
				long *istart, long *iend)
{
  return gomp_loop_begin (start, end, incr, GFS_GUIDED, chunk, true, istart,
			  iend);
}

GOMP_EXPORT bool
GOMP_loop_ordered_runtime_start (long start, long end, long incr,
				 long *istart, long *iend)
{
  long chunk;
  enum gomp_schedule_type s = gomp_runtime_sched (&chunk);
  return gomp_loop_begin (start, end, incr, s, chunk, true, istart, iend);
}

/* The entry point of GCC 9 and later for loops with any schedule: SCHED is
   a GFS_* value (GFS_RUNTIME: run-sched-var; GFS_AUTO: the runtime
   schedule with nonmonotonic modifier), maybe with GFS_MONOTONIC.  With
   ISTART NULL the caller only wants the construct set up.  */
static bool
gomp_loop_start_common (long start, long end, long incr, long sched,
			long chunk, bool ordered, long *istart, long *iend,
			uintptr_t *reductions, void **mem)
{
  struct gomp_thread *thr = gomp_thread ();
  enum gomp_schedule_type s = sched & ~GFS_MONOTONIC;
  if (s == GFS_RUNTIME || s == GFS_AUTO)
    s = gomp_runtime_sched (&chunk);
  else if (s == GFS_DYNAMIC && !(sched & GFS_MONOTONIC))
    s |= GFS_NONMONOTONIC;
  thr->ts.static_trip = 0;
  thr->ts.ordered_ticket = GOMP_NO_TICKET;
  bool first = gomp_work_share_start ();
  struct gomp_work_share *ws = thr->ts.work_share;
  if (first)
    {
      gomp_loop_init (ws, start, end, incr, s, chunk, ordered);
      if (reductions)
	gomp_workshare_reduction_register (reductions, ws, true);
      if (mem)
	gomp_work_share_mem (ws, true, mem);
      gomp_work_share_init_done ();
    }
  else
    {
      if (reductions)
	gomp_workshare_reduction_register (reductions, ws, false);
      if (mem)
	gomp_work_share_mem (ws, false, mem);
    }
  if (GOMP_UNLIKELY (ordered && thr->ts.team && thr->ts.team->spans))
    gomp_ordered_cluster_begin (ws, first);
  if (!istart)
    return true;
  return gomp_loop_next (istart, iend);
}

GOMP_EXPORT bool
GOMP_loop_start (long start, long end, long incr, long sched, long chunk,
		 long *istart, long *iend, uintptr_t *reductions, void **mem)
{
  return gomp_loop_start_common (start, end, incr, sched, chunk, false,
				 istart, iend, reductions, mem);
}

GOMP_EXPORT bool
GOMP_loop_ordered_start (long start, long end, long incr, long sched,
			 long chunk, long *istart, long *iend,
			 uintptr_t *reductions, void **mem)
{
  return gomp_loop_start_common (start, end, incr, sched, chunk, true,
				 istart, iend, reductions, mem);
}

GOMP_EXPORT bool
GOMP_loop_static_next (long *istart, long *iend)
{
  return gomp_iter_static_next (istart, iend);
}

GOMP_EXPORT bool
GOMP_loop_dynamic_next (long *istart, long *iend)
{
  return gomp_iter_dynamic_next (istart, iend);
}

GOMP_EXPORT bool
GOMP_loop_guided_next (long *istart, long *iend)
{
  return gomp_iter_guided_next (istart, iend);
}

GOMP_EXPORT bool
GOMP_loop_runtime_next (long *istart, long *iend)
{
  return gomp_loop_next (istart, iend);
}

GOMP_EXPORT bool
GOMP_loop_nonmonotonic_dynamic_next (long *istart, long *iend)
{
  return gomp_iter_dynamic_next (istart, iend);
}

GOMP_EXPORT bool
GOMP_loop_nonmonotonic_guided_next (long *istart, long *iend)
{
  return gomp_iter_guided_next (istart, iend);
}

GOMP_EXPORT bool
GOMP_loop_nonmonotonic_runtime_next (long *istart, long *iend)
{
  return gomp_loop_next (istart, iend);
}

GOMP_EXPORT bool
GOMP_loop_maybe_nonmonotonic_runtime_next (long *istart, long *iend)
{
  return gomp_loop_next (istart, iend);
}

/* Ordered loops: the previous chunk's turn in the ordered sequence ends
   before the next chunk is taken.  */
GOMP_EXPORT bool
GOMP_loop_ordered_static_next (long *istart, long *iend)
{
  gomp_ordered_chunk_done ();
  return gomp_iter_static_next (istart, iend);
}

GOMP_EXPORT bool
GOMP_loop_ordered_dynamic_next (long *istart, long *iend)
{
  gomp_ordered_chunk_done ();
  return gomp_iter_dynamic_next (istart, iend);
}

GOMP_EXPORT bool
GOMP_loop_ordered_guided_next (long *istart, long *iend)
{
  gomp_ordered_chunk_done ();
  return gomp_iter_guided_next (istart, iend);
}

GOMP_EXPORT bool
GOMP_loop_ordered_runtime_next (long *istart, long *iend)
{
  gomp_ordered_chunk_done ();
  return gomp_loop_next (istart, iend);
}

/* Combined parallel loops (and sections): every thread of the team starts
   inside the loop.  */
void
gomp_parallel_loop (void (*fn) (void *), void *data, unsigned num_threads,
		    unsigned flags, const struct gomp_loop_spec *spec,
		    unsigned count)
{
  struct gomp_thread *thr = gomp_thread ();
  if (GOMP_UNLIKELY (gomp_cluster != NULL) && thr->ts.level == 0)
    {
      gomp_parallel_cluster (fn, data, num_threads, count, flags, spec);
      return;
    }
  unsigned n = gomp_resolve_num_threads (num_threads, count);
  gomp_team_start (&(struct gomp_team_spec) {
      .fn = fn, .data = data, .nthreads = n, .flags = flags, .loop = spec });
  fn (data);
  gomp_team_end ();
}

static void
gomp_parallel_loop_sched (void (*fn) (void *), void *data,
			  unsigned num_threads, long start, long end,
			  long incr, enum gomp_schedule_type sched,
			  long chunk, unsigned flags)
{
  struct gomp_loop_spec spec = { sched, start, end, incr, chunk };
  gomp_parallel_loop (fn, data, num_threads, flags, &spec, 0);
}

GOMP_EXPORT void
GOMP_parallel_loop_static (void (*fn) (void *), void *data,
			   unsigned num_threads, long start, long end,
			   long incr, long chunk, unsigned flags)
{
  gomp_parallel_loop_sched (fn, data, num_threads, start, end, incr,
			    GFS_STATIC, chunk, flags);
}

GOMP_EXPORT void
GOMP_parallel_loop_dynamic (void (*fn) (void *), void *data,
			    unsigned num_threads, long start, long end,
			    long incr, long chunk, unsigned flags)
{
  gomp_parallel_loop_sched (fn, data, num_threads, start, end, incr,
			    GFS_DYNAMIC, chunk, flags);
}

GOMP_EXPORT void
GOMP_parallel_loop_guided (void (*fn) (void *), void *data,
			   unsigned num_threads, long start, long end,
			   long incr, long chunk, unsigned flags)
{
  gomp_parallel_loop_sched (fn, data, num_threads, start, end, incr,
			    GFS_GUIDED, chunk, flags);
}

GOMP_EXPORT void
GOMP_parallel_loop_runtime (void (*fn) (void *), void *data,
			    unsigned num_threads, long start, long end,
			    long incr, unsigned flags)
{
  long chunk;
  enum gomp_schedule_type s = gomp_runtime_sched (&chunk);
  gomp_parallel_loop_sched (fn, data, num_threads, start, end, incr, s,
			    chunk, flags);
}

GOMP_EXPORT void
GOMP_parallel_loop_nonmonotonic_dynamic (void (*fn) (void *), void *data,
					 unsigned num_threads, long start,
					 long end, long incr, long chunk,
					 unsigned flags)
{
  gomp_parallel_loop_sched (fn, data, num_threads, start, end, incr,
			    GFS_DYNAMIC | GFS_NONMONOTONIC, chunk, flags);
}

GOMP_EXPORT void
GOMP_parallel_loop_nonmonotonic_guided (void (*fn) (void *), void *data,
					unsigned num_threads, long start,
					long end, long incr, long chunk,
					unsigned flags)
{
  GOMP_parallel_loop_guided (fn, data, num_threads, start, end, incr, chunk,
			     flags);
}

GOMP_EXPORT void
GOMP_parallel_loop_nonmonotonic_runtime (void (*fn) (void *), void *data,
					 unsigned num_threads, long start,
					 long end, long incr, unsigned flags)
{
  GOMP_parallel_loop_runtime (fn, data, num_threads, start, end, incr, flags);
}

GOMP_EXPORT void
GOMP_parallel_loop_maybe_nonmonotonic_runtime (void (*fn) (void *),
					       void *data,
					       unsigned num_threads,
					       long start, long end,
					       long incr, unsigned flags)
{
  GOMP_parallel_loop_runtime (fn, data, num_threads, start, end, incr, flags);
}

/* The GOMP 1.0 pairs: the caller runs FN and GOMP_parallel_end.  */
static void
gomp_parallel_loop_start_old (void (*fn) (void *), void *data,
			      unsigned num_threads, long start, long end,
			      long incr, enum gomp_schedule_type sched,
			      long chunk)
{
  struct gomp_loop_spec spec = { sched, start, end, incr, chunk };
  struct gomp_thread *thr = gomp_thread ();
  if (GOMP_UNLIKELY (gomp_cluster != NULL) && thr->ts.level == 0)
    {
      gomp_parallel_start_cluster (fn, data, num_threads, &spec, 0);
      return;
    }
  unsigned n = gomp_resolve_num_threads (num_threads, 0);
  gomp_team_start (&(struct gomp_team_spec) {
      .fn = fn, .data = data, .nthreads = n, .loop = &spec });
}

GOMP_EXPORT void
GOMP_parallel_loop_static_start (void (*fn) (void *), void *data,
				 unsigned num_threads, long start, long end,
				 long incr, long chunk)
{
  gomp_parallel_loop_start_old (fn, data, num_threads, start, end, incr,
				GFS_STATIC, chunk);
}

GOMP_EXPORT void
GOMP_parallel_loop_dynamic_start (void (*fn) (void *), void *data,
				  unsigned num_threads, long start, long end,
				  long incr, long chunk)
{
  gomp_parallel_loop_start_old (fn, data, num_threads, start, end, incr,
				GFS_DYNAMIC, chunk);
}

GOMP_EXPORT void
GOMP_parallel_loop_guided_start (void (*fn) (void *), void *data,
				 unsigned num_threads, long start, long end,
				 long incr, long chunk)
{
  gomp_parallel_loop_start_old (fn, data, num_threads, start, end, incr,
				GFS_GUIDED, chunk);
}

GOMP_EXPORT void
GOMP_parallel_loop_runtime_start (void (*fn) (void *), void *data,
				  unsigned num_threads, long start, long end,
				  long incr)
{
  long chunk;
  enum gomp_schedule_type s = gomp_runtime_sched (&chunk);
  gomp_parallel_loop_start_old (fn, data, num_threads, start, end, incr, s,
				chunk);
}

GOMP_EXPORT void
GOMP_loop_end (void)
{
  gomp_work_share_end ();
}

GOMP_EXPORT void
GOMP_loop_end_nowait (void)
{
  gomp_work_share_end_nowait ();
}

GOMP_EXPORT bool
GOMP_loop_end_cancel (void)
{
  return gomp_work_share_end_cancel ();
}
