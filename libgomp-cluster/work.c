/* work.c -- the queue of work-sharing constructs of a team (loops,
   sections, single with copyprivate).  Every thread meets the team's
   constructs in the same order, so construct number S of the team lives in
   slot S % GOMP_WS_RING; the first thread to reach it initialises it and
   the others wait for that.  A thread that runs ahead through nowait
   constructs reuses a slot only after every thread has finished with the
   construct that held it before.  */

#include "libgomp.h"
#include <sched.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

/* The construct of a thread outside any parallel region.  */
static __thread struct gomp_work_share gomp_solo_ws;

/* One step of a rare wait (another thread initialising a construct, or
   one running a long way behind): spin, then yield, then sleep a little,
   so that a long wait costs no processor.  */
static void
gomp_ws_backoff (unsigned *spins)
{
  unsigned n = ++*spins;
  if (n < 1000)
    gomp_cpu_relax ();
  else if (n < 2000)
    sched_yield ();
  else
    {
      struct timespec ts = { 0, 50000 };
      nanosleep (&ts, NULL);
    }
}

/* Waits until *P equals V.  */
static void
gomp_ws_wait_equal (unsigned long *p, unsigned long v)
{
  unsigned spins = 0;
  while (__atomic_load_n (p, __ATOMIC_ACQUIRE) != v)
    gomp_ws_backoff (&spins);
}

bool
gomp_work_share_start (void)
{
  struct gomp_thread *thr = gomp_thread ();
  struct gomp_team *team = thr->ts.team;

  if (GOMP_UNLIKELY (team == NULL))
    {
      thr->ts.work_share = &gomp_solo_ws;
      gomp_solo_ws.claimed = 1;
      return true;
    }

  unsigned long seq = thr->ts.ws_seq++;
  struct gomp_work_share *ws = &team->ws[seq % GOMP_WS_RING];
  unsigned spins = 0;
  thr->ts.work_share = ws;
  for (;;)
    {
      unsigned long c = __atomic_load_n (&ws->claimed, __ATOMIC_ACQUIRE);
      if (c == seq + 1)
	{
	  gomp_ws_wait_equal (&ws->ready, seq + 1);
	  return false;
	}
      /* C is the construct SEQ - GOMP_WS_RING (or none): it was fully set
	 up before this thread could finish it, so LEFT is meaningful.  */
      if (__atomic_load_n (&ws->left, __ATOMIC_ACQUIRE) == 0
	  && __atomic_compare_exchange_n (&ws->claimed, &c, seq + 1, false,
					  __ATOMIC_ACQ_REL, __ATOMIC_ACQUIRE))
	{
	  ws->left = team->local_nthreads;
	  /* Written only when set: the line also holds what every thread
	     polls in barriers and reads to create tasks.  */
	  if (GOMP_UNLIKELY (team->ws_cancelled))
	    team->ws_cancelled = 0;
	  return true;
	}
      gomp_ws_backoff (&spins);
    }
}

void
gomp_work_share_init_done (void)
{
  struct gomp_work_share *ws = gomp_thread ()->ts.work_share;
  __atomic_store_n (&ws->ready, ws->claimed, __ATOMIC_RELEASE);
}

void
gomp_work_share_end_nowait (void)
{
  struct gomp_thread *thr = gomp_thread ();
  struct gomp_work_share *ws = thr->ts.work_share;
  if (GOMP_UNLIKELY (thr->ts.team == NULL))
    return;
  if (ws->ordered)
    gomp_ordered_chunk_done ();
  __atomic_sub_fetch (&ws->left, 1, __ATOMIC_RELEASE);
}

void
gomp_work_share_end (void)
{
  struct gomp_thread *thr = gomp_thread ();
  gomp_work_share_end_nowait ();
  if (thr->ts.team)
    gomp_team_barrier_wait (thr->ts.team);
}

bool
gomp_work_share_end_cancel (void)
{
  struct gomp_thread *thr = gomp_thread ();
  gomp_work_share_end_nowait ();
  if (thr->ts.team)
    return gomp_team_barrier_wait_cancel (thr->ts.team);
  return false;
}

/* A team spanning nodes: the construct's memory is a block of the shared
   heap that rank 0 zeroes and whose address every node gets in one
   barrier (the threads of every node must see the same memory: GCC
   indexes it by global thread number).  */
static void
gomp_work_share_mem_cluster (struct gomp_team *team,
			     struct gomp_work_share *ws, bool first,
			     void **mem)
{
  bool rank0 = gomp_cluster->rank == 0;
  if (first && rank0)
    {
      size_t size = (uintptr_t) *mem;
      if (ws->mem_shared_size < size)
	{
	  gomp_cluster->free (ws->mem_shared);
	  ws->mem_shared = gomp_cluster->memalign (64, size);
	  if (!ws->mem_shared)
	    gomp_fatal ("out of shared memory (%lu bytes for a work-sharing "
			"construct)", (unsigned long) size);
	  ws->mem_shared_size = size;
	}
      memset (ws->mem_shared, 0, size);
    }
  /* The node's other threads wait for the construct to be set up before
     they come here (the caller publishes it again, which is harmless).  */
  if (first)
    gomp_work_share_init_done ();
  gomp_team_barrier_wait_bcast (team, &ws->mem_shared, sizeof ws->mem_shared,
				rank0);
  *mem = ws->mem_shared;
}

/* GOMP_loop_start's MEM: *MEM bytes of zeroed memory shared by the
   construct's threads (lastprivate conditional, scan).  */
void
gomp_work_share_mem (struct gomp_work_share *ws, bool first, void **mem)
{
  struct gomp_team *team = gomp_thread ()->ts.team;
  if (GOMP_UNLIKELY (team && team->spans))
    {
      gomp_work_share_mem_cluster (team, ws, first, mem);
      return;
    }
  if (first)
    {
      size_t size = (uintptr_t) *mem;
      if (ws->mem && ws->mem != (void *) ws->inline_mem)
	free (ws->mem);
      if (size <= sizeof ws->inline_mem)
	ws->mem = memset (ws->inline_mem, 0, size);
      else if (!(ws->mem = calloc (1, size)))
	gomp_fatal ("out of memory (%lu bytes for a work-sharing construct)",
		    (unsigned long) size);
    }
  *mem = ws->mem;
}

/* The scope construct with task reductions (OpenMP 5.1 section 2.9): not a
   work-sharing construct, but GCC lets the work-share queue choose the
   thread that registers the reductions first.  The construct ends here
   (as if nowait): the barrier and the unregistering come later from the
   compiled code.  */
GOMP_EXPORT void
GOMP_scope_start (uintptr_t *reductions)
{
  struct gomp_thread *thr = gomp_thread ();
  bool first = gomp_work_share_start ();
  struct gomp_work_share *ws = thr->ts.work_share;
  if (first)
    {
      ws->ordered = false;
      ws->task_reductions = NULL;
      ws->copyprivate = NULL;
      ws->doacross = NULL;
      if (reductions)
	gomp_workshare_reduction_register (reductions, ws, true);
      gomp_work_share_init_done ();
    }
  else if (reductions)
    gomp_workshare_reduction_register (reductions, ws, false);
  gomp_work_share_end_nowait ();
}
