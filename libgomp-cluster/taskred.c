/* taskred.c -- task reductions (OpenMP 5.1, section 2.21.5): the
   task_reduction clause of taskgroup, the reduction clause of taskloop and
   the task modifier of reduction on parallel and work-sharing constructs,
   and in_reduction's lookup of a thread's private copy.

   GCC describes the reduction items in an array of uintptr_t:
     data[0]  number of items      data[1]  bytes of one thread's copies
     data[2]  alignment (the runtime stores the copies' base there)
     data[3]  allocator (-1: malloc)   data[4]  next array (chained)
     data[5]  runtime's (here: 1 in the first array of a registration)
     data[6]  runtime's (the end of the copies)
   then per item, sorted by offset: its address, its offset within a
   thread's copies, and a runtime word (here: the item's array).  Thread
   T's copy of an item lives at data[2] + T * data[1] + offset.  A
   registration is chained (data[4] of its last array) to the one of the
   enclosing taskgroup, so that in_reduction finds outer items too.  */

#include "task.h"
#include <stdlib.h>
#include <string.h>

static void *
gomp_reduction_alloc (size_t align, size_t size)
{
  void *p;
  if (align < sizeof (void *))
    align = sizeof (void *);
  if (gomp_cluster)
    p = gomp_cluster->memalign (align, size);
  else if (posix_memalign (&p, align, size))
    p = NULL;
  if (p == NULL)
    gomp_fatal ("out of memory for %zu bytes of task reduction copies", size);
  return memset (p, 0, size);
}

static void
gomp_reduction_free (void *p)
{
  if (gomp_cluster)
    gomp_cluster->free (p);
  else
    free (p);
}

/* Registers DATA for NTHREADS threads, chained to OLD (the enclosing
   registration).  For a work-sharing construct's second and later
   threads, ORIG is the first thread's registration, whose copies they
   share.  */
void
gomp_reduction_register (uintptr_t *data, uintptr_t *old, uintptr_t *orig,
			 unsigned nthreads)
{
  uintptr_t *d = data;
  for (;;)
    {
      if (orig)
	{
	  d[2] = orig[2];
	  d[6] = orig[6];
	  orig = (uintptr_t *) orig[4];
	}
      else
	{
	  size_t size;
	  if (__builtin_mul_overflow (d[1], (size_t) nthreads, &size))
	    gomp_fatal ("task reduction copies for %u threads overflow",
			nthreads);
	  d[2] = (uintptr_t) gomp_reduction_alloc (d[2], size);
	  d[6] = d[2] + size;
	}
      d[5] = 0;
      for (size_t j = 0; j < d[0]; j++)
	d[7 + 3 * j + 2] = (uintptr_t) d;
      if (d[4] == 0)
	{
	  d[4] = (uintptr_t) old;
	  break;
	}
      d = (uintptr_t *) d[4];
    }
  data[5] = 1;
}

GOMP_EXPORT void
GOMP_taskgroup_reduction_register (uintptr_t *data)
{
  struct gomp_thread *thr = gomp_thread ();
  struct gomp_task *task = gomp_current_task (thr);
  struct gomp_team *team = thr->ts.team;
  struct gomp_taskgroup *tg = task->taskgroup;
  if (tg == NULL)
    gomp_fatal ("GOMP_taskgroup_reduction_register outside a taskgroup");
  gomp_reduction_register (data, tg->reductions, NULL,
			   team ? team->nthreads : 1);
  tg->reductions = data;
}

GOMP_EXPORT void
GOMP_taskgroup_reduction_unregister (uintptr_t *data)
{
  uintptr_t *d = data;
  do
    {
      gomp_reduction_free ((void *) d[2]);
      d = (uintptr_t *) d[4];
    }
  while (d && !d[5]);
}

/* The array and item of the registration chain DATA whose item's address
   is ADDR; NULL if none.  */
static uintptr_t *
gomp_reduction_find_item (uintptr_t *data, void *addr)
{
  for (uintptr_t *d = data; d; d = (uintptr_t *) d[4])
    for (size_t j = 0; j < d[0]; j++)
      if (d[7 + 3 * j] == (uintptr_t) addr)
	return d + 7 + 3 * j;
  return NULL;
}

/* For i < CNT, PTRS[i] is the address of a reduction item or of some
   thread's copy of it: replace it by the calling thread's copy.  For
   i < CNTORIG also store the item's address in PTRS[CNT + i].  */
GOMP_EXPORT void
GOMP_task_reduction_remap (size_t cnt, size_t cntorig, void **ptrs)
{
  struct gomp_thread *thr = gomp_thread ();
  struct gomp_task *task = gomp_current_task (thr);
  uintptr_t id = thr->ts.team_id;
  uintptr_t *data = task->taskgroup ? task->taskgroup->reductions : NULL;

  for (size_t i = 0; i < cnt; i++)
    {
      uintptr_t *p = gomp_reduction_find_item (data, ptrs[i]);
      if (p)
	{
	  uintptr_t *d = (uintptr_t *) p[2];
	  ptrs[i] = (void *) (d[2] + id * d[1] + p[1]);
	  if (i < cntorig)
	    ptrs[cnt + i] = (void *) p[0];
	  continue;
	}
      /* A copy: find whose, then the same offset in ours.  */
      uintptr_t *d;
      for (d = data; d; d = (uintptr_t *) d[4])
	if ((uintptr_t) ptrs[i] >= d[2] && (uintptr_t) ptrs[i] < d[6])
	  break;
      if (d == NULL)
	gomp_fatal ("in_reduction: %p is no item of an enclosing "
		    "task_reduction or task-modified reduction", ptrs[i]);
      uintptr_t off = ((uintptr_t) ptrs[i] - d[2]) % d[1];
      ptrs[i] = (void *) (d[2] + id * d[1] + off);
      if (i < cntorig)
	{
	  size_t j;
	  for (j = 0; j < d[0]; j++)
	    if (d[7 + 3 * j + 1] == off)
	      break;
	  if (j == d[0])
	    gomp_fatal ("in_reduction: %p is no item of an enclosing "
			"task_reduction or task-modified reduction",
			ptrs[i]);
	  ptrs[cnt + i] = (void *) d[7 + 3 * j];
	}
    }
}

/* GOMP_parallel_reductions: the implicit tasks share a taskgroup that
   holds the registration (team.c puts it in team->reduction_data).  */
void *
gomp_parallel_reduction_register (uintptr_t *rdata, unsigned nthreads)
{
  struct gomp_taskgroup *tg = gomp_taskgroup_new (NULL);
  gomp_reduction_register (rdata, NULL, NULL, nthreads);
  tg->reductions = rdata;
  return tg;
}

void *
gomp_parallel_reduction_attach (uintptr_t *rdata)
{
  struct gomp_taskgroup *tg = gomp_taskgroup_new (NULL);
  tg->reductions = rdata;
  return tg;
}

void
gomp_parallel_reduction_unregister (void *data)
{
  free (data);
}

/* A work-sharing construct with task reductions: every thread of the
   team opens a taskgroup for the construct's tasks; the first registers
   the items (allocating the copies), the others share its copies.  In a
   team spanning nodes the copies must be one block for the whole team
   (GCC's code in global thread 0 merges them all): rank 0's first thread
   registers, and one barrier gives every node its registration's address
   (in rank 0's stack, shared memory), from which the others join.  */
void
gomp_workshare_reduction_register (uintptr_t *reductions,
				   struct gomp_work_share *ws, bool first)
{
  struct gomp_thread *thr = gomp_thread ();
  struct gomp_team *team = thr->ts.team;
  struct gomp_task *task = gomp_current_task (thr);
  struct gomp_taskgroup *tg = gomp_taskgroup_new (task->taskgroup);
  tg->workshare = true;
  task->taskgroup = tg;
  unsigned nthreads = team ? team->nthreads : 1;
  if (GOMP_UNLIKELY (team && team->spans))
    {
      bool rank0 = gomp_cluster->rank == 0;
      if (first && rank0)
	{
	  gomp_reduction_register (reductions, tg->reductions, NULL,
				   nthreads);
	  ws->task_reductions = reductions;
	}
      /* The node's other threads wait for the construct to be set up
	 before they come here (the caller publishes it again).  */
      if (first)
	gomp_work_share_init_done ();
      gomp_team_barrier_wait_bcast (team, &ws->task_reductions,
				    sizeof ws->task_reductions, rank0);
      if (!(first && rank0))
	gomp_reduction_register (reductions, tg->reductions,
				 ws->task_reductions, nthreads);
      tg->reductions = reductions;
      return;
    }
  if (first)
    {
      gomp_reduction_register (reductions, tg->reductions, NULL, nthreads);
      ws->task_reductions = reductions;
    }
  else
    gomp_reduction_register (reductions, tg->reductions,
			     ws->task_reductions, nthreads);
  tg->reductions = reductions;
}

/* The end of such a construct: its taskgroup ends, the node's first
   thread frees the copies (the team's thread 0 when they are shared by
   the nodes), and (unless the construct was cancelled) the team meets at
   a barrier.  */
GOMP_EXPORT void
GOMP_workshare_task_reduction_unregister (bool cancelled)
{
  struct gomp_thread *thr = gomp_thread ();
  struct gomp_task *task = gomp_current_task (thr);
  struct gomp_team *team = thr->ts.team;
  uintptr_t *data = task->taskgroup->reductions;
  GOMP_taskgroup_end ();
  if (team == NULL || thr->ts.team_id == (team->spans ? 0 : team->base))
    GOMP_taskgroup_reduction_unregister (data);
  if (!cancelled && team)
    gomp_team_barrier_wait (team);
}
