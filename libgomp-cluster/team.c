/* team.c -- the thread pool and the start and end of teams (OpenMP 5.1
   section 2.6).  Each thread that becomes a master keeps a pool of worker
   threads and its last team, so that regions after the first create no
   thread and allocate nothing; workers wait for their next region on a
   futex word of their own.  Nested regions use the pool of their own
   master, so they reuse threads too.  */

#include "libgomp.h"
#include <errno.h>
#include <pthread.h>
#include <sched.h>
#include <stdlib.h>
#include <string.h>

__thread struct gomp_thread gomp_tls_data
  __attribute__ ((tls_model ("initial-exec")));

unsigned gomp_managed_threads = 1;

/* Threads in teams beyond the initial one, kept only when OMP_THREAD_LIMIT
   is set.  */
static unsigned gomp_threads_busy;

struct gomp_thread_pool
{
  /* Worker J plays local thread J + 1 of this master's teams.  */
  struct gomp_thread **threads;
  unsigned nthreads, capacity;
  /* Local size of the last team (its workers may still be leaving it).  */
  unsigned last_local;
  struct gomp_team *team;
  struct gomp_team *retired;
};

/* What a new worker starts with.  */
struct gomp_worker_start
{
  struct gomp_thread_pool *pool;
  unsigned index;
  struct gomp_team_state ts;
  struct gomp_task_icv icv;
  void (*fn) (void *);
  void *data;
  unsigned place;
};

/* OpenMP 5.1 section 2.6.1: how many threads a new region gets.  */
unsigned
gomp_resolve_num_threads (unsigned specified, unsigned count)
{
  struct gomp_thread *thr = gomp_thread ();
  struct gomp_task_icv *icv = gomp_icv ();
  unsigned n;

  if (specified == 1)
    return 1;
  if (thr->ts.active_level >= icv->max_active_levels_var)
    return 1;
  n = specified ? specified : icv->nthreads_var;
  if (icv->dyn_var)
    {
      /* Dynamic adjustment: no more threads than free processors (the
	 enclosing team's threads are busy; a top-level team across nodes
	 has every node's processors).  */
      unsigned dyn = gomp_available_cpus;
      struct gomp_team *outer = thr->ts.team;
      if (outer)
	dyn = dyn > outer->local_nthreads ? dyn - outer->local_nthreads + 1
					  : 1;
      else if (GOMP_UNLIKELY (gomp_cluster != NULL))
	dyn *= gomp_cluster->nodes;
      if (dyn < n)
	n = dyn;
      if (count && count < n)
	n = count;
    }
  if (GOMP_LIKELY (icv->thread_limit_var == UINT_MAX) || n <= 1)
    return n ? n : 1;
  /* The contention group's threads: the busy ones plus this one.  */
  unsigned busy = __atomic_load_n (&gomp_threads_busy, __ATOMIC_RELAXED);
  unsigned avail = icv->thread_limit_var > busy
		   ? icv->thread_limit_var - busy : 1;
  if (n > avail)
    n = avail;
  return n ? n : 1;
}

static pthread_key_t gomp_pool_key;

/* Spare pools: those of a finished target region met inside a team
   (gomp_pools_restore) and, with several nodes, those of a program
   thread that exits, kept with their idle workers for the next thread
   that needs pools instead of ending the workers.  With several nodes a
   worker's stack is in the shared segment and never given back: target
   regions inside tasks, or program threads that each ran a region,
   filled the stack area.  */
struct gomp_pools_spare
{
  struct gomp_pools_saved pools;
  struct gomp_pools_spare *next;
};
static struct gomp_pools_spare *gomp_pools_spares;
static gomp_mutex_t gomp_pools_spares_lock;

/* Moves THR's pools to the spares; false if it has none.  */
static bool
gomp_pools_put_spare (struct gomp_thread *thr)
{
  if (thr->pools == NULL)
    return false;
  struct gomp_pools_spare *s = malloc (sizeof *s);
  if (s == NULL)
    return false;
  s->pools.pools = thr->pools;
  s->pools.npools = thr->npools;
  thr->pools = NULL;
  thr->npools = 0;
  gomp_mutex_lock (&gomp_pools_spares_lock);
  s->next = gomp_pools_spares;
  gomp_pools_spares = s;
  gomp_mutex_unlock (&gomp_pools_spares_lock);
  return true;
}

/* Gives THR, which has no pools, spare ones if there are.  */
static void
gomp_pools_take_spare (struct gomp_thread *thr)
{
  if (__atomic_load_n (&gomp_pools_spares, __ATOMIC_RELAXED) == NULL)
    return;
  gomp_mutex_lock (&gomp_pools_spares_lock);
  struct gomp_pools_spare *s = gomp_pools_spares;
  if (s)
    gomp_pools_spares = s->next;
  gomp_mutex_unlock (&gomp_pools_spares_lock);
  if (s == NULL)
    return;
  thr->pools = s->pools.pools;
  thr->npools = s->pools.npools;
  pthread_setspecific (gomp_pool_key, thr);
  free (s);
}

/* The pool the calling thread uses as the master of a team at LEVEL + 1.
   The thread's exit (a user thread's, or a worker's whose own master
   ends it) ends its pools' workers through gomp_pools_destroy, or with
   several nodes makes them spares.  */
static struct gomp_thread_pool *
gomp_get_pool (struct gomp_thread *thr, unsigned level)
{
  if (GOMP_LIKELY (level < thr->npools && thr->pools[level]))
    return thr->pools[level];
  if (GOMP_UNLIKELY (gomp_cluster != NULL) && thr->pools == NULL)
    {
      gomp_pools_take_spare (thr);
      if (level < thr->npools && thr->pools[level])
	return thr->pools[level];
    }
  if (level >= thr->npools)
    {
      unsigned n = level + 4;
      struct gomp_thread_pool **p = realloc (thr->pools, n * sizeof *p);
      if (!p)
	gomp_fatal ("out of memory allocating a thread pool");
      memset (p + thr->npools, 0, (n - thr->npools) * sizeof *p);
      if (!thr->pools)
	pthread_setspecific (gomp_pool_key, thr);
      thr->pools = p;
      thr->npools = n;
    }
  struct gomp_thread_pool *pool = calloc (1, sizeof *pool);
  if (!pool)
    gomp_fatal ("out of memory allocating a thread pool");
  thr->pools[level] = pool;
  return pool;
}

/* A team object for up to CAPACITY local threads; after their pointers,
   every work-share slot's blocks of a work-stealing loop (iter.c).  */
static struct gomp_team *
gomp_new_team (unsigned capacity)
{
  size_t blocks = (sizeof (struct gomp_team)
		   + capacity * sizeof (struct gomp_thread *) + 63) & ~63ul;
  size_t size = blocks + (size_t) GOMP_WS_RING * capacity
			 * sizeof (struct gomp_steal_block);
  struct gomp_team *team;
  if (posix_memalign ((void **) &team, 64, size))
    gomp_fatal ("out of memory allocating a team of %u threads", capacity);
  memset (team, 0, size);
  team->capacity = capacity;
  for (unsigned i = 0; i < GOMP_WS_RING; i++)
    team->ws[i].blocks = (struct gomp_steal_block *) ((char *) team + blocks)
			 + (size_t) i * capacity;
  return team;
}

static void *
gomp_worker_main (void *arg)
{
  struct gomp_worker_start *st = arg;
  struct gomp_thread *thr = gomp_thread ();
  struct gomp_thread_pool *pool = st->pool;

  if (GOMP_UNLIKELY (gomp_cluster != NULL))
    {
      /* Our stack is in the shared segment: a private signal stack for
	 the DSM's faults, and frames other nodes may address start below
	 the stack's private top (cluster.h).  */
      gomp_cluster->thread_init ();
      volatile char *below
	= __builtin_alloca (gomp_cluster->thread_stack_private);
      below[0] = 0;
    }

  thr->ts = st->ts;
  thr->implicit_icv = st->icv;
  thr->icv = &thr->implicit_icv;
  thr->fn = st->fn;
  thr->data = st->data;
  thr->place = st->place;
  thr->in_team = 1;
  pool->threads[st->index] = thr;
  thr->ts.team->threads[st->index + 1] = thr;
  free (st);

  unsigned bound = 0;
  for (;;)
    {
      int seen = __atomic_load_n (&thr->release, __ATOMIC_RELAXED);
      struct gomp_team *team = thr->ts.team;
      if (thr->place != bound && thr->place)
	{
	  gomp_bind_thread (thr->place);
	  bound = thr->place;
	}
      gomp_thread_task_init (thr);
      if (GOMP_UNLIKELY (gomp_display_affinity_var))
	gomp_display_affinity_thread ();
      thr->fn (thr->data);
      gomp_team_barrier_wait_final (team);
      gomp_thread_task_fini (thr);
      __atomic_store_n (&thr->in_team, 0, __ATOMIC_RELEASE);
      gomp_wait_for_change (&thr->release, &thr->sleepers, seen);
      if (!thr->fn)
	break;
    }
  return NULL;
}

/* Starts worker J of POOL in its first team.  */
static void
gomp_create_worker (struct gomp_thread_pool *pool, unsigned j,
		    struct gomp_worker_start *proto)
{
  struct gomp_worker_start *st = malloc (sizeof *st);
  pthread_attr_t attr;
  pthread_t pt;
  int err;

  if (!st)
    gomp_fatal ("out of memory starting a thread");
  *st = *proto;
  st->index = j;
  st->ts.team_id += j + 1;
  pthread_attr_init (&attr);
  pthread_attr_setdetachstate (&attr, PTHREAD_CREATE_DETACHED);
  size_t stacksize = gomp_stacksize;
  if (GOMP_UNLIKELY (gomp_cluster != NULL))
    {
      /* Worker stacks live in the shared segment so that the addresses of
	 their locals (copyprivate, shared locals of nested constructs) are
	 valid on every node.  */
      if (!stacksize)
	stacksize = 8ul << 20;
      stacksize += gomp_cluster->thread_stack_private
		   + gomp_cluster_static_tls ();
      void *stack = gomp_cluster->thread_stack_alloc (stacksize);
      if (!stack)
	gomp_fatal ("out of shared memory for a %lu-byte thread stack; "
		    "lower OMP_STACKSIZE or enlarge the shared segment",
		    (unsigned long) stacksize);
      pthread_attr_setstack (&attr, stack, stacksize);
    }
  else if (stacksize)
    {
      err = pthread_attr_setstacksize (&attr, stacksize);
      if (err)
	gomp_fatal ("cannot use OMP_STACKSIZE=%lu bytes for a thread: %s",
		    (unsigned long) stacksize, strerror (err));
    }
  __atomic_add_fetch (&gomp_managed_threads, 1, __ATOMIC_RELAXED);
  err = pthread_create (&pt, &attr, gomp_worker_main, st);
  if (err)
    gomp_fatal ("cannot create a thread (%s); lower OMP_NUM_THREADS or "
		"OMP_STACKSIZE", strerror (err));
  pthread_attr_destroy (&attr);
}

/* Waits until worker W has left its last team's closing barrier.  It
   normally has; when it has not, it is runnable (just woken, or
   preempted), so give it the processor.  */
static void
gomp_wait_left_team (struct gomp_thread *w)
{
  unsigned spins = 0;
  while (__atomic_load_n (&w->in_team, __ATOMIC_ACQUIRE))
    {
      if (++spins < 100)
	gomp_cpu_relax ();
      else
	sched_yield ();
    }
}

/* The ICVs of the implicit tasks of a new team whose master has ICV.  */
void
gomp_child_icv (struct gomp_task_icv *child, const struct gomp_task_icv *icv,
		unsigned level)
{
  *child = *icv;
  if (level < gomp_nthreads_var_list_len)
    child->nthreads_var = gomp_nthreads_var_list[level];
  if (level < gomp_bind_var_list_len)
    child->bind_var = gomp_bind_var_list[level];
}

void
gomp_team_start (const struct gomp_team_spec *spec)
{
  void (*fn) (void *) = spec->fn;
  void *data = spec->data;
  unsigned nthreads = spec->nthreads, flags = spec->flags;
  bool spans = spec->spans;
  void *reduction_data = spec->reduction_data;
  const struct gomp_loop_spec *ws0 = spec->loop;
  struct gomp_thread *thr = gomp_thread ();
  struct gomp_thread_pool *pool = gomp_get_pool (thr, thr->ts.level);
  unsigned local = nthreads, base = 0;
  struct gomp_team *team;

  if (spans)
    {
      local = gomp_cluster_node_threads (nthreads, gomp_cluster->nodes,
					 gomp_cluster->rank);
      base = gomp_cluster_node_base (nthreads, gomp_cluster->nodes,
				     gomp_cluster->rank);
    }
  if (GOMP_UNLIKELY (local > GOMP_BAR_MAX_THREADS))
    gomp_fatal ("a team of %u threads on one node is more than this runtime "
		"supports (%u threads per node, the width of its barrier's "
		"counters); ask for fewer (num_threads clause, "
		"OMP_NUM_THREADS)%s", local, GOMP_BAR_MAX_THREADS,
		spans ? " or run on more nodes" : "");
  if (GOMP_UNLIKELY (gomp_global_icv.thread_limit_var != UINT_MAX))
    {
      /* Reserve the team's extra threads in one atomic step: two masters
	 starting nested teams at once must not both take the last free
	 threads of the contention group (thread-limit-var, OpenMP 5.1
	 section 2.6.1).  A team spanning nodes keeps its size, which every
	 node computed alike.  With several nodes the contention group
	 spans them: each node may run its share of the limit (as a team
	 spanning nodes is shared), so that the nodes' nested teams together
	 stay within it.  */
      unsigned limit = gomp_icv ()->thread_limit_var;
      if (GOMP_UNLIKELY (gomp_cluster != NULL) && limit != UINT_MAX)
	{
	  limit = gomp_cluster_node_threads (limit, gomp_cluster->nodes,
					     gomp_cluster->rank);
	  if (limit == 0)
	    limit = 1;
	}
      unsigned busy = __atomic_load_n (&gomp_threads_busy, __ATOMIC_RELAXED);
      unsigned want;
      do
	{
	  want = local;
	  if (!spans && limit != UINT_MAX)
	    {
	      unsigned avail = limit > busy ? limit - busy : 1;
	      if (want > avail)
		want = avail;
	    }
	}
      while (!__atomic_compare_exchange_n (&gomp_threads_busy, &busy,
					   busy + want - 1, false,
					   __ATOMIC_RELAXED, __ATOMIC_RELAXED));
      local = want;
      if (!spans)
	nthreads = want;
    }
  /* Workers of the previous team may still be on their way out of its
     closing barrier: the team and their state are reused only after.  */
  for (unsigned j = 0; j + 1 < pool->last_local; j++)
    gomp_wait_left_team (pool->threads[j]);

  team = pool->team;
  if (GOMP_UNLIKELY (!team || team->capacity < local))
    {
      if (team)
	{
	  team->next_retired = pool->retired;
	  pool->retired = team;
	}
      team = pool->team = gomp_new_team (local < 4 ? 4 : local);
    }
  team->nthreads = nthreads;
  team->local_nthreads = local;
  team->base = base;
  team->spans = spans;
  team->barrier.total = local;
  team->single_count = 0;
  team->cancelled = 0;
  team->ws_cancelled = 0;
  team->task_queued = 0;
  team->task_count = 0;
  team->task_data = NULL;
  team->reduction_data = reduction_data;
  team->threads[0] = thr;
  if (GOMP_UNLIKELY (spans) && gomp_cancel_var)
    gomp_cancel_span_start (team);

  /* The master's state before the region, restored by gomp_team_end.  */
  team->prev_ts = thr->ts;
  team->prev_icv = thr->icv;
  team->prev_implicit_icv = thr->implicit_icv;
  team->prev_task = thr->task;

  struct gomp_task_icv *icv = thr->icv ? thr->icv : &gomp_global_icv;
  struct gomp_worker_start proto;
  unsigned level = thr->ts.level + 1;
  gomp_child_icv (&proto.icv, icv, level);
  proto.ts.team = team;
  unsigned long ws_base = team->ws_base;
  gomp_work_share_team_init (team);
  proto.ts.work_share = team->ws_start;
  proto.ts.ws_seq = ws0 ? ws_base + 1 : ws_base;
  proto.ts.single_count = 0;
  proto.ts.static_trip = 0;
  proto.ts.ordered_ticket = GOMP_NO_TICKET;
  proto.ts.team_id = base;
  proto.ts.level = level;
  proto.ts.active_level = thr->ts.active_level + (nthreads > 1);
  proto.ts.place_partition_off = thr->ts.place_partition_off;
  proto.ts.place_partition_len = thr->ts.place_partition_len;
  proto.fn = fn;
  proto.data = data;
  proto.pool = pool;
  proto.place = 0;

  /* The master becomes thread BASE of the team.  */
  thr->ts = proto.ts;
  thr->implicit_icv = proto.icv;
  thr->icv = &thr->implicit_icv;
  if (ws0)
    {
      struct gomp_work_share *ws = proto.ts.work_share;
      gomp_loop_init (ws, ws0->start, ws0->end, ws0->incr, ws0->sched,
		      ws0->chunk, false);
      ws->claimed = ws->ready = ws_base + 1;
    }
  gomp_team_tasks_init (team);

  if (local - 1 > pool->capacity)
    {
      unsigned cap = local - 1 < 4 ? 4 : local - 1;
      pool->threads = realloc (pool->threads, cap * sizeof *pool->threads);
      if (!pool->threads)
	gomp_fatal ("out of memory for a pool of %u threads", cap);
      pool->capacity = cap;
    }
  /* Binding (OpenMP 5.1 section 2.6.2): the proc_bind clause, else the
     master's bind-var.  */
  int bind = (flags & 7) ? (int) (flags & 7) : icv->bind_var;
  unsigned part_off = 0, part_len = 0;
  if (GOMP_UNLIKELY (bind != GOMP_BIND_FALSE) && gomp_places_count ())
    {
      part_off = thr->ts.place_partition_off;
      part_len = thr->ts.place_partition_len;
      if (part_len == 0)
	part_len = gomp_places_count ();
      if (thr->place == 0)
	{
	  thr->place = part_off + 1;
	  gomp_bind_thread (thr->place);
	}
      unsigned off = part_off, len = part_len;
      gomp_affinity_place (bind, thr->place, &off, &len, local, 0);
      thr->ts.place_partition_off = off;
      thr->ts.place_partition_len = len;
    }
  else
    bind = GOMP_BIND_FALSE;

  for (unsigned j = 0; j + 1 < local; j++)
    {
      if (GOMP_UNLIKELY (bind != GOMP_BIND_FALSE))
	{
	  unsigned off = part_off, len = part_len;
	  proto.place = gomp_affinity_place (bind, thr->place, &off,
					     &len, local, j + 1);
	  proto.ts.place_partition_off = off;
	  proto.ts.place_partition_len = len;
	}
      if (j >= pool->nthreads)
	{
	  gomp_create_worker (pool, j, &proto);
	  continue;
	}
      struct gomp_thread *w = pool->threads[j];
      w->ts = proto.ts;
      w->place = proto.place;
      w->ts.team_id = base + j + 1;
      w->implicit_icv = proto.icv;
      w->icv = &w->implicit_icv;
      w->fn = fn;
      w->data = data;
      w->in_team = 1;
      team->threads[j + 1] = w;
      __atomic_add_fetch (&w->release, 1, __ATOMIC_SEQ_CST);
      gomp_signal_change (&w->release, &w->sleepers, 1);
    }
  if (local - 1 > pool->nthreads)
    pool->nthreads = local - 1;
  pool->last_local = local;

  gomp_thread_task_init (thr);
  if (GOMP_UNLIKELY (gomp_display_affinity_var))
    gomp_display_affinity_thread ();
}

void
gomp_team_end (void)
{
  struct gomp_thread *thr = gomp_thread ();
  struct gomp_team *team = thr->ts.team;

  gomp_team_barrier_wait_final (team);
  /* Every thread met the same work shares: the master's count is the
     next region's base.  After a cancellation threads may have met
     different ones: start the ring afresh.  */
  if (GOMP_LIKELY (!team->cancelled))
    {
      team->ws_base = thr->ts.ws_seq;
      team->ws_start = thr->ts.work_share;
    }
  else
    {
      gomp_work_share_team_reset (team);
      team->ws_base = 0;
    }
  if (GOMP_UNLIKELY (team->spans) && gomp_cancel_var)
    gomp_cancel_span_end ();
  gomp_thread_task_fini (thr);
  gomp_team_tasks_fini (team);
  if (GOMP_UNLIKELY (gomp_global_icv.thread_limit_var != UINT_MAX))
    __atomic_sub_fetch (&gomp_threads_busy, team->local_nthreads - 1,
			__ATOMIC_RELAXED);
  thr->ts = team->prev_ts;
  thr->implicit_icv = team->prev_implicit_icv;
  thr->icv = team->prev_icv;
  thr->task = team->prev_task;
}

/* Ends the workers of a pool whose master thread exits.  */
static void
gomp_pool_destroy (struct gomp_thread_pool *pool)
{
  for (unsigned j = 0; j + 1 < pool->last_local; j++)
    gomp_wait_left_team (pool->threads[j]);
  for (unsigned j = 0; j < pool->nthreads; j++)
    {
      struct gomp_thread *w = pool->threads[j];
      w->fn = NULL;
      __atomic_add_fetch (&w->release, 1, __ATOMIC_SEQ_CST);
      gomp_signal_change (&w->release, &w->sleepers, 1);
    }
  __atomic_sub_fetch (&gomp_managed_threads, pool->nthreads,
		      __ATOMIC_RELAXED);
  /* Every worker has left its last team: nothing refers to them now.  */
  while (pool->retired)
    {
      struct gomp_team *t = pool->retired;
      pool->retired = t->next_retired;
      gomp_work_share_team_free (t);
      free (t);
    }
  if (pool->team)
    gomp_work_share_team_free (pool->team);
  free (pool->team);
  free (pool->threads);
  free (pool);
}

static void
gomp_pools_destroy (struct gomp_thread *thr)
{
  for (unsigned i = 0; i < thr->npools; i++)
    if (thr->pools[i])
      gomp_pool_destroy (thr->pools[i]);
  free (thr->pools);
  thr->pools = NULL;
  thr->npools = 0;
}

/* The pthread key's destructor: a thread with pools exits.  */
static void
gomp_pools_exit (void *arg)
{
  struct gomp_thread *thr = arg;
  if (gomp_cluster == NULL || !gomp_pools_put_spare (thr))
    gomp_pools_destroy (thr);
}

void
gomp_pools_save (struct gomp_thread *thr, struct gomp_pools_saved *saved)
{
  saved->pools = thr->pools;
  saved->npools = thr->npools;
  thr->pools = NULL;
  thr->npools = 0;
  gomp_pools_take_spare (thr);
}

void
gomp_pools_restore (struct gomp_thread *thr, struct gomp_pools_saved *saved)
{
  if (!gomp_pools_put_spare (thr))
    gomp_pools_destroy (thr);
  thr->pools = saved->pools;
  thr->npools = saved->npools;
  if (thr->pools)
    pthread_setspecific (gomp_pool_key, thr);
}

static void __attribute__ ((constructor (102)))
gomp_team_init (void)
{
  pthread_key_create (&gomp_pool_key, gomp_pools_exit);
}
