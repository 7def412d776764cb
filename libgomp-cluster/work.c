/* work.c -- the queue of work-sharing constructs of a team (loops,
   sections, single with copyprivate).  Every thread meets the team's
   constructs in the same order, and each construct names the next one:
   the first thread to reach construct S finds no successor on construct
   S - 1, picks storage for S, links it there and initialises it; the
   others follow the link and wait until it is ready.  A thread may thus
   run any number of nowait constructs ahead of the others without ever
   waiting for them, as OpenMP requires (a thread that is behind may be
   waiting for one that is ahead).  Storage is slot S % GOMP_WS_RING of the
   team when every thread has moved on from what that slot held, which is
   the case unless threads are far apart; otherwise a block from a free
   list that the team grows as needed and keeps.  A construct's storage is
   free again once every local thread has moved on from it to the next
   one (so that nobody follows its link any more).  */

#include "libgomp.h"
#include <sched.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

/* The construct of a thread outside any parallel region.  */
static __thread struct gomp_work_share gomp_solo_ws;

/* One step of a rare wait (another thread initialising a construct):
   spin, then yield, then sleep a little, so that a long wait costs no
   processor.  */
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

static inline bool
gomp_ws_in_ring (struct gomp_team *team, struct gomp_work_share *ws)
{
  return ws >= team->ws && ws < team->ws + GOMP_WS_RING;
}

/* Storage beyond the ring: a free block, or a new one with room for the
   steal blocks of the team's capacity.  */
static struct gomp_work_share *
gomp_ws_extra_get (struct gomp_team *team)
{
  gomp_mutex_lock (&team->ws_extra_lock);
  struct gomp_work_share *ws = team->ws_extra_free;
  if (ws)
    team->ws_extra_free = ws->free_next;
  gomp_mutex_unlock (&team->ws_extra_lock);
  if (ws)
    return ws;

  size_t size = sizeof *ws
		+ (size_t) team->capacity * sizeof (struct gomp_steal_block);
  if (posix_memalign ((void **) &ws, 64, size))
    gomp_fatal ("out of memory for a work-sharing construct of a team of "
		"%u threads", team->capacity);
  memset (ws, 0, size);
  ws->blocks = (struct gomp_steal_block *) (ws + 1);
  gomp_mutex_lock (&team->ws_extra_lock);
  ws->all_next = team->ws_extra_all;
  team->ws_extra_all = ws;
  gomp_mutex_unlock (&team->ws_extra_lock);
  return ws;
}

static void
gomp_ws_extra_put (struct gomp_team *team, struct gomp_work_share *ws)
{
  gomp_mutex_lock (&team->ws_extra_lock);
  ws->free_next = team->ws_extra_free;
  team->ws_extra_free = ws;
  gomp_mutex_unlock (&team->ws_extra_lock);
}

/* The calling thread has moved on from WS to the next construct.  */
static inline void
gomp_ws_leave (struct gomp_team *team, struct gomp_work_share *ws)
{
  if (__atomic_sub_fetch (&ws->left, 1, __ATOMIC_ACQ_REL) == 0
      && GOMP_UNLIKELY (!gomp_ws_in_ring (team, ws)))
    gomp_ws_extra_put (team, ws);
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

  struct gomp_work_share *prev = thr->ts.work_share;
  unsigned long seq = thr->ts.ws_seq++;
  struct gomp_work_share *ws = __atomic_load_n (&prev->next_ws,
						__ATOMIC_ACQUIRE);
  if (ws == NULL)
    {
      /* The ring slot is free when every thread has moved on from what
	 it held: nobody may still follow a link to it.  Only the thread
	 that links the construct initialises the storage, and no other
	 construct can take that storage before this one is linked.  */
      struct gomp_work_share *cand = &team->ws[seq % GOMP_WS_RING];
      if (GOMP_UNLIKELY (__atomic_load_n (&cand->left, __ATOMIC_ACQUIRE)))
	cand = gomp_ws_extra_get (team);
      if (__atomic_compare_exchange_n (&prev->next_ws, &ws, cand, false,
				       __ATOMIC_ACQ_REL, __ATOMIC_ACQUIRE))
	{
	  thr->ts.work_share = cand;
	  cand->next_ws = NULL;
	  cand->left = team->local_nthreads;
	  cand->claimed = seq + 1;
	  gomp_ws_leave (team, prev);
	  /* Written only when set: the line also holds what every thread
	     polls in barriers and reads to create tasks.  */
	  if (GOMP_UNLIKELY (team->ws_cancelled))
	    team->ws_cancelled = 0;
	  return true;
	}
      if (!gomp_ws_in_ring (team, cand))
	gomp_ws_extra_put (team, cand);
    }
  thr->ts.work_share = ws;
  gomp_ws_leave (team, prev);
  gomp_ws_wait_equal (&ws->ready, seq + 1);
  return false;
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
  /* The storage stays the thread's until it moves on to the next
     construct (gomp_work_share_start).  */
  if (ws->ordered)
    gomp_ordered_chunk_done ();
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

/* A new region of TEAM: its threads start from the construct the last
   region ended on (every thread reached it, and left every earlier one),
   now counting the new region's threads.  */
void
gomp_work_share_team_init (struct gomp_team *team)
{
  struct gomp_work_share *ws = team->ws_start;
  if (ws == NULL)
    ws = team->ws_start = &team->ws[GOMP_WS_RING - 1];
  ws->next_ws = NULL;
  ws->left = team->local_nthreads;
}

/* After a cancelled region threads may have stopped at different
   constructs: every thread has left the region, so all storage is free.  */
void
gomp_work_share_team_reset (struct gomp_team *team)
{
  for (unsigned i = 0; i < GOMP_WS_RING; i++)
    {
      team->ws[i].claimed = team->ws[i].ready = 0;
      team->ws[i].left = 0;
      team->ws[i].next_ws = NULL;
    }
  team->ws_extra_free = NULL;
  for (struct gomp_work_share *ws = team->ws_extra_all; ws; ws = ws->all_next)
    {
      ws->claimed = ws->ready = 0;
      ws->left = 0;
      ws->next_ws = NULL;
      ws->free_next = team->ws_extra_free;
      team->ws_extra_free = ws;
    }
  team->ws_start = NULL;
}

static void
gomp_work_share_free_mem (struct gomp_work_share *ws)
{
  if (ws->mem && ws->mem != (void *) ws->inline_mem)
    free (ws->mem);
  free (ws->doacross_buf);
}

/* TEAM is being freed: what its constructs allocated in the node's own
   memory goes too (blocks in the shared heap stay with the heap).  */
void
gomp_work_share_team_free (struct gomp_team *team)
{
  for (unsigned i = 0; i < GOMP_WS_RING; i++)
    gomp_work_share_free_mem (&team->ws[i]);
  struct gomp_work_share *ws = team->ws_extra_all, *next;
  for (; ws; ws = next)
    {
      next = ws->all_next;
      gomp_work_share_free_mem (ws);
      free (ws);
    }
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

/* Initialises WS for a loop (or sections, GFS_SECTIONS).  With the work
   shares, so that team.c, which starts a combined parallel loop's team
   inside its loop, depends on this file and not on loop.c.  */
void
gomp_loop_init (struct gomp_work_share *ws, long start, long end, long incr,
		enum gomp_schedule_type sched, long chunk, bool ordered)
{
  struct gomp_team *team = gomp_thread ()->ts.team;
  bool nonmonotonic = (sched & GFS_NONMONOTONIC) != 0;
  bool sections = (sched & GFS_SECTIONS) != 0;

  sched &= ~(GFS_NONMONOTONIC | GFS_SECTIONS);
  ws->sched = sched;
  ws->ull = false;
  ws->steal = false;
  ws->ordered = ordered;
  ws->next = start;
  /* A loop with no iterations has NEXT == END.  */
  ws->end = (incr > 0 && start > end) || (incr < 0 && start < end)
	    ? start : end;
  ws->incr = incr;
  ws->chunk = chunk < 0 ? 0 : chunk;
  ws->spans = team && team->spans && sched != GFS_STATIC;
  ws->one_by_one = sections;
  ws->atomic_next = false;
  ws->node_next = ws->node_end = 0;
  ws->ordered_serving = 0;
  ws->ordered_shared = NULL;
  ws->ordered_tickets = 0;
  ws->ordered_turns = false;
  if (ordered && sched == GFS_STATIC && team && !team->spans
      && team->local_nthreads > 1)
    gomp_ordered_turns_init (ws, team->local_nthreads);
  ws->copyprivate = NULL;
  ws->task_reductions = NULL;
  ws->doacross = NULL;
  if (sched == GFS_DYNAMIC || sched == GFS_GUIDED)
    {
      if (ws->chunk == 0)
	ws->chunk = 1;
    }
  if (sched == GFS_DYNAMIC && !ordered && !ws->spans)
    {
      /* NEXT can be advanced by fetch-add when every thread's last
	 overshoot past END still fits in a long.  */
      long nthreads = team ? team->local_nthreads : 1;
      long step, room;
      if (!__builtin_mul_overflow (ws->chunk, incr, &step)
	  && !__builtin_mul_overflow (nthreads + 1, step, &room)
	  && !__builtin_add_overflow (ws->end, room, &room))
	{
	  unsigned long chunk_iters = ws->chunk;
	  ws->chunk = step;
	  ws->atomic_next = true;
	  /* Chunks in any order: per-thread blocks instead of one counter
	     every thread writes.  */
	  if (nonmonotonic && nthreads > 1)
	    gomp_iter_steal_init (ws, chunk_iters, nthreads);
	}
    }
}
