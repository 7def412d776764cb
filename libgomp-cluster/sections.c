/* sections.c -- the sections construct (OpenMP 5.1 section 2.10.1): a
   dynamic loop over the section numbers 1..COUNT with chunks of one, so
   that sections go to threads as they ask (across nodes too, through the
   cluster's loop counter).  A node takes one section per request, never
   a batch: sections may wait for each other (through atomics or flushes),
   and a section held back for a node whose threads are all busy would
   never start while a thread elsewhere is idle.  GOMP_sections_next
   returns 0 when none is left.  */

#include "libgomp.h"

static unsigned
gomp_sections_next_1 (void)
{
  long s, e;
  return gomp_iter_dynamic_next (&s, &e) ? (unsigned) s : 0;
}

GOMP_EXPORT unsigned
GOMP_sections_start (unsigned count)
{
  struct gomp_thread *thr = gomp_thread ();
  if (gomp_work_share_start ())
    {
      gomp_loop_init (thr->ts.work_share, 1, (long) count + 1, 1,
		      GFS_DYNAMIC | GFS_SECTIONS, 1, false);
      gomp_work_share_init_done ();
    }
  return gomp_sections_next_1 ();
}

/* GCC 9 and later, with task reductions and memory for lastprivate
   conditional (like GOMP_loop_start).  */
GOMP_EXPORT unsigned
GOMP_sections2_start (unsigned count, uintptr_t *reductions, void **mem)
{
  struct gomp_thread *thr = gomp_thread ();
  bool first = gomp_work_share_start ();
  struct gomp_work_share *ws = thr->ts.work_share;
  if (first)
    {
      gomp_loop_init (ws, 1, (long) count + 1, 1, GFS_DYNAMIC | GFS_SECTIONS,
		      1, false);
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
  return gomp_sections_next_1 ();
}

GOMP_EXPORT unsigned
GOMP_sections_next (void)
{
  return gomp_sections_next_1 ();
}

GOMP_EXPORT void
GOMP_parallel_sections (void (*fn) (void *), void *data, unsigned num_threads,
			unsigned count, unsigned flags)
{
  struct gomp_loop_spec spec = { GFS_DYNAMIC | GFS_SECTIONS, 1,
				  (long) count + 1, 1, 1 };
  gomp_parallel_loop (fn, data, num_threads, flags, &spec, count);
}

/* The GOMP 1.0 form: the caller runs FN and GOMP_parallel_end.  */
GOMP_EXPORT void
GOMP_parallel_sections_start (void (*fn) (void *), void *data,
			      unsigned num_threads, unsigned count)
{
  struct gomp_loop_spec spec = { GFS_DYNAMIC | GFS_SECTIONS, 1,
				  (long) count + 1, 1, 1 };
  struct gomp_thread *thr = gomp_thread ();
  if (GOMP_UNLIKELY (gomp_cluster != NULL) && thr->ts.level == 0)
    {
      gomp_parallel_start_cluster (fn, data, num_threads, &spec, count);
      return;
    }
  unsigned n = gomp_resolve_num_threads (num_threads, count);
  gomp_team_start (&(struct gomp_team_spec) {
      .fn = fn, .data = data, .nthreads = n, .loop = &spec });
}

GOMP_EXPORT void
GOMP_sections_end (void)
{
  gomp_work_share_end ();
}

GOMP_EXPORT void
GOMP_sections_end_nowait (void)
{
  gomp_work_share_end_nowait ();
}

GOMP_EXPORT bool
GOMP_sections_end_cancel (void)
{
  return gomp_work_share_end_cancel ();
}
