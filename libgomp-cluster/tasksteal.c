/* tasksteal.c -- deferred tasks that run on another node (work stealing
   between the nodes of a team spanning them; OMPC_TASK_STEAL).

   Which tasks may move.  A deferred task created by a thread of a team
   spanning the nodes, with no detach or reduction-related clause (no
   enclosing task reduction either), without cancellation, and whose
   data block (at most GOMP_TASK_MOVE_MAX bytes) names no private memory
   (taskmove.c: every aligned word of the block that could be an address
   must lie in the shared segment; gomp_task_movable), and whose site's
   tasks are worth moving (tasksite.c: long enough, not much slower on a
   thief).  Any other task stays on its node, as does every task of a
   program run on one node.

   Who moves them.  A thread waiting in a team barrier with no local task
   to run asks the other nodes in turn for tasks (ops->task_steal), one
   thread per node at a time, and no more once every other node answered
   that its own threads wait in the barrier with no task left (this
   generation of the barrier); a busy node with nothing to give answers
   only when it has tasks or becomes idle.  While it asks, the thief's
   arrival at the barrier is withdrawn, so that the barrier cannot
   complete under it.  This happens in programs that call GOMP_task* and
   in regions where a node announced movable tasks, in the barriers where
   tasks are likely (STEAL_EAGER_MAX).  A victim gives
   about half of its movable queued tasks, oldest first (the team
   queue's head), at most one per thread of the thief; its threads
   answer at task scheduling points (task creation, the end of a task,
   barrier and taskwait waits), as the module asks them to.  A thread
   waiting in taskwait or at the end of a taskgroup for a child that runs
   on another node takes back descendants of it (or the child itself if
   it has not started there: gomp_task_steal_for).

   Memory.  The victim releases before the tasks leave and the thief
   acquires that before running them; the thief runs a stolen task as if
   in a taskgroup (its descendants on this node complete first), then
   releases and sends the completion, which a thread of the creator's
   node acquires before it completes the task there (ops->task_take_done,
   gomp_task_steal_finish): the taskwait, taskgroup end or barrier that
   waits for it sees every write the task and its descendants made.

   The record of a task given away stays with its creator, counted as
   running until the completion comes back; the thief runs a copy of the
   data block (same size and alignment, other address: hence the rule on
   private addresses above) in a record of its own with no parent.  */

#include "task.h"
#include "cluster.h"
#include <stdlib.h>
#include <string.h>
#include <link.h>

bool gomp_task_steal_var = true;
uint64_t gomp_task_stats[GOMP_TASK_STATS];

/* The team spanning the nodes that this node runs now (NULL between
   regions), what its queue holds of movable tasks, and the tasks given
   away that have not completed.  */
static struct gomp_team *steal_team;
static unsigned steal_movable;
/* Other nodes' tasks queued here, not started: a creator waiting for
   one takes it back.  */
static unsigned steal_proxies;
static unsigned long steal_out;
/* Threads of this node that withdrew their arrival at STEAL_TEAM's
   barrier while they steal (at most one).  */
static unsigned steal_tokens;
/* Thieves' state: one at a time; the barrier generation it knows which
   nodes are idle in (IDLE_MASK); the back-off.  */
static int steal_active;
static unsigned long steal_gen;
static struct gomp_team *steal_gen_team;
static uint64_t steal_idle_mask;
static bool steal_all_idle, steal_gen_got;
static int steal_next_victim;
static long steal_backoff_ns;
/* The number of the current region spanning the nodes (counted alike on
   every node), the last interval between barriers (numbered as below)
   in which this node announced movable tasks, and the last region in
   which any node did.  */
static uint64_t steal_region, steal_announced, steal_noted;
/* The barriers of the current region that this node claimed: the
   interval between two barriers is numbered by the region's number (high
   32 bits) and that count (STEAL_BARS), alike on every node.  The
   intervals other nodes announced movable tasks in, recently: interval E
   at STEAL_NOTED_INTERVAL[E % 4].  A thief asks in a barrier whose
   interval is among them, and otherwise only while eager (below).  */
static uint64_t steal_noted_interval[4];
static unsigned steal_bars;
/* Eager asking.  In a program that makes tasks, a thread that reaches a
   barrier asks the other nodes for tasks before its node's part
   completes even when nobody announced any in its interval: a producer's
   first task may come after the other nodes reached the barrier (the
   single construct's thread making tasks while the others wait at its
   end), and a node that has entered the barrier's exchange can no
   longer take any.  That costs a round of messages and a wait for the
   slowest node in every barrier: a loop of worksharing constructs ran
   10% slower at 2 x 1 and 3-5 times as slow at 2 x 2 in a program with
   one task.  So a node stops asking eagerly after STEAL_EAGER_MAX
   barriers in a row in which it got nothing and nobody announced tasks,
   and starts again when an announcement comes.  It still asks in a
   region's first barrier (the end of a region whose master thread makes
   the tasks) and in a barrier that ends an interval in which it left a
   single construct to rank 0 (STEAL_SINGLE_INTERVAL), the usual producers
   of tasks.  */
#define STEAL_EAGER_MAX 8
static unsigned steal_useless;
static uint64_t steal_single_interval = ~(uint64_t) 0;
/* The generation of the team's barrier when the region started: barrier
   generations counted from it are the same on every node for the same
   barrier of the region (every barrier of a team spanning the nodes is
   one barrier of all of them).  */
static unsigned steal_gen0;
/* Whether the program itself calls GOMP_task* (its dynamic relocations
   name one): then every barrier of a region spanning the nodes asks the
   other nodes for tasks before it completes, even before anyone
   announced tasks (a producer's first task may come after the other
   nodes reached the barrier).  */
static bool steal_program;

/* A task on the wire.  */
struct gomp_task_wire
{
  uint64_t id;
  uint64_t fn;
  uint32_t arg_size, arg_align;
  int32_t priority;
  uint16_t final_task;
  /* A task the thief gives back to its creator before it started (ID is
     the creator's; no data follows).  */
  uint16_t returned;
  struct gomp_task_icv icv;
};

#define WIRE_ROUND(n) (((n) + 7) & ~(size_t) 7)

/* Called by team.c's task hooks.  */
void
gomp_task_steal_team_start (struct gomp_team *team)
{
  if (team->spans && gomp_cluster && gomp_task_steal_var)
    {
      steal_movable = 0;
      __atomic_store_n (&steal_bars, 0, __ATOMIC_RELAXED);
      __atomic_store_n (&steal_gen0,
			(unsigned) __atomic_load_n (&team->barrier.state,
						    __ATOMIC_ACQUIRE)
			>> GOMP_BAR_GEN_SHIFT, __ATOMIC_RELAXED);
      __atomic_store_n (&steal_region, steal_region + 1, __ATOMIC_RELEASE);
      __atomic_store_n (&steal_team, team, __ATOMIC_RELEASE);
    }
}

/* T, movable or another node's, enters (DELTA 1) or leaves (-1) the
   queue (with the lock).  */
void
gomp_task_steal_queued (struct gomp_task *t, int delta)
{
  __atomic_add_fetch (t->movable ? &steal_movable : &steal_proxies, delta,
		      __ATOMIC_RELEASE);
}

/* The number of the interval this node's threads are in (or, in a
   barrier not yet claimed, the barrier that ends it).  */
static inline uint64_t
gomp_task_steal_interval (void)
{
  return (__atomic_load_n (&steal_region, __ATOMIC_ACQUIRE) << 32)
	 | __atomic_load_n (&steal_bars, __ATOMIC_ACQUIRE);
}

/* Some node has movable tasks in REGION.  */
static void
gomp_task_steal_note_region (uint64_t region)
{
  uint64_t old = __atomic_load_n (&steal_noted, __ATOMIC_RELAXED);
  while (region > old
	 && !__atomic_compare_exchange_n (&steal_noted, &old, region, false,
					  __ATOMIC_RELEASE, __ATOMIC_RELAXED))
    ;
}

/* host->task_noted (from a handler): another node has movable tasks in
   INTERVAL (gomp_task_steal_interval).  */
static void
gomp_task_steal_noted (uint64_t interval)
{
  gomp_task_steal_note_region (interval >> 32);
  __atomic_store_n (&steal_noted_interval[interval % 4], interval,
		    __ATOMIC_RELEASE);
  __atomic_store_n (&steal_useless, 0, __ATOMIC_RELAXED);
  struct gomp_team *team = __atomic_load_n (&steal_team, __ATOMIC_ACQUIRE);
  if (team)
    gomp_team_barrier_wake (team);
}

void
gomp_task_steal_team_end (struct gomp_team *team)
{
  if (__atomic_load_n (&steal_team, __ATOMIC_RELAXED) == team)
    __atomic_store_n (&steal_team, NULL, __ATOMIC_RELEASE);
}

/* Whether allocated task T (its data block DATA of ARG_SIZE bytes) may
   run on another node; FLAGS as GOMP_task's.  */
bool
gomp_task_movable (struct gomp_thread *thr, struct gomp_task *t,
		   unsigned flags, long arg_size, long arg_align)
{
  struct gomp_team *team = t->team;
  if (team == NULL || !team->spans || team != steal_team
      || thr->ts.team != team || gomp_cancel_var || gomp_target_in_node
      || (flags & (GOMP_TASK_FLAG_DETACH | GOMP_TASK_FLAG_REDUCTION))
      || arg_size < 0 || arg_size > GOMP_TASK_MOVE_MAX || arg_align > 64
      || (t->taskgroup && t->taskgroup->reductions))
    return false;
  t->site_retry = false;
  if (!gomp_task_data_movable (t->fn_data, arg_size, arg_align)
      || !gomp_task_site_worth_moving (t->fn, t->site_depth != 0,
				       t->site_depth, &t->site_retry))
    return false;
  uint64_t interval = gomp_task_steal_interval ();
  uint64_t old = __atomic_load_n (&steal_announced, __ATOMIC_RELAXED);
  if (old != interval
      && __atomic_compare_exchange_n (&steal_announced, &old, interval,
				      false, __ATOMIC_ACQ_REL,
				      __ATOMIC_RELAXED))
    {
      gomp_task_steal_note_region (interval >> 32);
      gomp_cluster->task_announce (interval);
    }
  return true;
}

/* ---- The victim's side. ---- */

/* Which barrier of which region a barrier state S of the region's team
   belongs to, the same number on every node (cluster.h's steal epoch):
   the region's number, then the barrier's generation counted from the
   region's start (modulo the generation's bits: two nodes' numbers in
   the same region differ by one barrier at most, as a thief's withdrawn
   arrival keeps its barrier from completing anywhere).  */
static uint64_t
gomp_task_steal_epoch_of (unsigned s)
{
  unsigned gen = (s >> GOMP_BAR_GEN_SHIFT)
		 - __atomic_load_n (&steal_gen0, __ATOMIC_RELAXED);
  return (__atomic_load_n (&steal_region, __ATOMIC_ACQUIRE) << 8)
	 | (gen & ((1u << (32 - GOMP_BAR_GEN_SHIFT)) - 1));
}

/* host->task_state (from a handler), for a thief in the barrier EPOCH
   names.  A node that has not yet started that region, or has not yet
   completed the barrier before it (the thief's node may leave a barrier
   while this one is still completing it: its arrivals then all count,
   and this node looked idle), is busy: idle means idle in the thief's
   barrier, which the thief then stops asking about.  */
static int
gomp_task_steal_state (uint64_t epoch)
{
  struct gomp_team *team = __atomic_load_n (&steal_team, __ATOMIC_ACQUIRE);
  if (team == NULL)
    return (__atomic_load_n (&steal_region, __ATOMIC_ACQUIRE) << 8) < epoch
	   ? GOMP_CLUSTER_STEAL_BUSY : GOMP_CLUSTER_STEAL_IDLE;
  if (__atomic_load_n (&steal_movable, __ATOMIC_ACQUIRE)
      || __atomic_load_n (&steal_proxies, __ATOMIC_ACQUIRE))
    return GOMP_CLUSTER_STEAL_GOT;
  unsigned s = (unsigned) __atomic_load_n (&team->barrier.state,
					   __ATOMIC_SEQ_CST);
  if (gomp_task_steal_epoch_of (s) != epoch)
    return GOMP_CLUSTER_STEAL_BUSY;
  unsigned total = team->barrier.total;
  unsigned tokens = __atomic_load_n (&steal_tokens, __ATOMIC_SEQ_CST);
  bool all = (s & GOMP_BAR_ARRIVED_MASK) + tokens >= total
	     || ((s >> GOMP_BAR_FINAL_SHIFT) & GOMP_BAR_ARRIVED_MASK) + tokens
		>= total;
  if (all && __atomic_load_n (&team->task_count, __ATOMIC_SEQ_CST) == 0)
    return GOMP_CLUSTER_STEAL_IDLE;
  return GOMP_CLUSTER_STEAL_BUSY;
}

/* Whether queued T is or descends from a task that node SRC gave this
   node and named in ROOTS[0..NROOTS) (its ancestors here lead to that
   task's record; a task whose parent ended without waiting for it has
   lost the trace, and does not count).  */
static bool
gomp_task_steal_descends (struct gomp_task *t, int src, const uint64_t *roots,
			  unsigned nroots)
{
  struct gomp_task *p = t;
  while (p->parent)
    p = p->parent;
  if (p->moved != GOMP_TASK_STOLEN || p->node != src)
    return false;
  for (unsigned i = 0; i < nroots; i++)
    if (roots[i] == p->remote_id)
      return true;
  return false;
}

/* The queued task of T's site a thief gets in place of T, the oldest
   ready movable one: the youngest while the site learns, NULL for none
   (gomp_task_site_pick).  A recursive site's oldest tasks are its
   largest subtrees (the first two of bench/apps' sort are halves of the
   whole sort): one of them given to learn from may make the thief run
   half of the program, however slowly.  */
static struct gomp_task *
gomp_task_steal_pick (struct gomp_task *t)
{
  if (!gomp_task_site_learning (t->fn))
    return t;
  unsigned n = 0;
  for (struct gomp_task *u = t; u; u = u->team_link.next)
    n += u->fn == t->fn && u->movable && u->kind == GOMP_TASK_READY;
  int pick = gomp_task_site_pick (t->fn, n);
  if (pick < 0)
    return NULL;
  struct gomp_task *y = t;
  for (unsigned i = pick; i; y = y->team_link.next)
    i -= y->team_link.next->fn == t->fn && y->team_link.next->movable
	 && y->team_link.next->kind == GOMP_TASK_READY;
  return y;
}

/* host->task_pack: dequeues movable tasks, oldest first, about half of
   them (the descendants of ROOTS only, when NROOTS is not 0), into
   BUF.  */
static size_t
gomp_task_steal_pack (int src, const uint64_t *roots, unsigned nroots,
		      unsigned max_tasks, void *buf, size_t max)
{
  struct gomp_team *team = __atomic_load_n (&steal_team, __ATOMIC_ACQUIRE);
  if (team == NULL
      || (!__atomic_load_n (&steal_movable, __ATOMIC_ACQUIRE)
	  && !__atomic_load_n (&steal_proxies, __ATOMIC_ACQUIRE)))
    return 0;
  struct gomp_team_tasks *tt = gomp_team_tasks (team);
  size_t off = 0;
  unsigned n = 0, back = 0;
  bool last = false;
  struct gomp_task *to_free[GOMP_TASK_STEAL_BATCH];
  gomp_mutex_lock (&tt->lock);
  unsigned want = (steal_movable + 1) / 2;
  if (want > max_tasks)
    want = max_tasks;
  if (want > GOMP_TASK_STEAL_BATCH)
    want = GOMP_TASK_STEAL_BATCH;
  struct gomp_task *t = tt->queue.head;
  while (t && n < GOMP_TASK_STEAL_BATCH)
    {
      struct gomp_task *next = t->team_link.next;
      size_t len = sizeof (struct gomp_task_wire) + WIRE_ROUND (t->arg_size);
      if (nroots && t->moved == GOMP_TASK_STOLEN && t->node == src
	  && t->kind == GOMP_TASK_READY
	  && off + sizeof (struct gomp_task_wire) <= max
	  && gomp_task_steal_descends (t, src, roots, nroots))
	{
	  /* Its creator waits for it: it runs there after all.  */
	  struct gomp_task_wire w;
	  memset (&w, 0, sizeof w);
	  w.id = t->remote_id;
	  w.returned = 1;
	  gomp_task_dequeue (tt, t);
	  last |= gomp_task_complete (tt, t);
	  to_free[back++] = t;
	  memcpy ((char *) buf + off, &w, sizeof w);
	  off += sizeof w;
	  n++;
	}
      else if (n - back < want && t->movable && t->kind == GOMP_TASK_READY
	       && off + len <= max
	       && (nroots
		   ? gomp_task_steal_descends (t, src, roots, nroots)
		   /* A creator waiting for them takes them back whatever
		      they cost; a thief gets only those worth moving.  */
		   : (t->site_retry
		      || gomp_task_site_worth_moving (t->fn, false,
						      t->site_depth, NULL))))
	{
	  if (!nroots && !t->site_retry)
	    {
	      struct gomp_task *y = gomp_task_steal_pick (t);
	      if (y == NULL)
		{
		  t = next;
		  continue;
		}
	      if (y != t)
		{
		  if (next == y)
		    next = y->team_link.next;
		  t = y;
		  len = sizeof (struct gomp_task_wire)
			+ WIRE_ROUND (t->arg_size);
		  if (off + len > max)
		    break;
		}
	    }
	  struct gomp_task_wire w;
	  memset (&w, 0, sizeof w);
	  w.id = (uintptr_t) t;
	  w.fn = (uintptr_t) t->fn;
	  w.arg_size = t->arg_size;
	  w.arg_align = t->arg_align;
	  w.priority = t->priority;
	  w.final_task = t->final_task;
	  w.icv = t->icv;
	  gomp_task_dequeue (tt, t);
	  gomp_task_site_given (t->fn, t->site_depth);
	  t->moved = GOMP_TASK_GIVEN;
	  t->node = src;
	  memcpy ((char *) buf + off, &w, sizeof w);
	  memcpy ((char *) buf + off + sizeof w, t->fn_data, t->arg_size);
	  off += len;
	  n++;
	}
      t = next;
    }
  steal_out += n - back;
  gomp_mutex_unlock (&tt->lock);
  if (last)
    gomp_task_barrier_wake_done (team);
  for (unsigned i = 0; i < back; i++)
    {
      free (to_free[i]->sub_times);
      gomp_task_free (to_free[i]);
    }
  n -= back;
  if (n)
    {
      __atomic_add_fetch (&gomp_task_stats[GOMP_TASK_STAT_GIVEN], n,
			  __ATOMIC_RELAXED);
      __atomic_add_fetch (&gomp_task_stats[GOMP_TASK_STAT_BYTES], off,
			  __ATOMIC_RELAXED);
    }
  return off;
}

/* host->task_finish: task ID given away completed at its thief (whose
   writes this node acquired): TOTAL_NS, RELEASE_NS and TIMES as
   cluster.h says.  */
static void
gomp_task_steal_finish (uint64_t id, uint64_t total_ns, uint64_t release_ns,
			const struct gomp_cluster_task_time *times,
			unsigned ntimes)
{
  struct gomp_task *t = (struct gomp_task *) (uintptr_t) id;
  struct gomp_team *team = t->team;
  struct gomp_team_tasks *tt = gomp_team_tasks (team);
  if (t->moved != GOMP_TASK_GIVEN)
    gomp_fatal ("a task completion came back for a task not given away");
  gomp_task_site_ran_away (t->fn, t->site_depth, (long) total_ns,
			   (long) release_ns, times, ntimes);
  gomp_mutex_lock (&tt->lock);
  steal_out--;
  if (t->parent)
    t->parent->running_children--;
  bool last = gomp_task_complete (tt, t);
  gomp_mutex_unlock (&tt->lock);
  if (last)
    gomp_task_barrier_wake_done (team);
  gomp_task_free (t);
}

/* host->task_wake (from a handler): the barrier's waiters look again;
   taskwait's waiters poll (gomp_task_steal_wait).  */
static void
gomp_task_steal_wake (void)
{
  struct gomp_team *team = __atomic_load_n (&steal_team, __ATOMIC_ACQUIRE);
  if (team)
    gomp_team_barrier_wake (team);
}

/* A thief's request that this node cannot serve yet (no queued task
   worth moving) waits here (cluster/steal.c).  Looking again at every
   task run walked the queue and took the team's lock each time: BOTS
   health at 2 x 1 with stealing ran ~2.2 million tasks on rank 0 in
   1.7 s against 0.3 s without, most of it there (the walk, a 64 KiB
   buffer and two locks per task run).  While only such requests wait,
   a task run looks again once STEAL_RETRY_NS have passed, the period
   doubling up to STEAL_RETRY_MAX_NS while they keep waiting; a new
   request is looked at by the next task run.  The barrier's last thread
   (gomp_task_steal_claimed) and waiting thieves answer regardless.
   Reading the clock costs as much as a short task on virtual machines
   (~0.1 us): a thread reads it in one task run of EVERY, which doubles
   (up to STEAL_RETRY_POLLS_MAX) while that many runs take less than a
   quarter of the period, and halves when they take more than it, so
   that long tasks still look at every run.  */
#define STEAL_RETRY_NS 20000
#define STEAL_RETRY_MAX_NS 1000000
#define STEAL_RETRY_POLLS_MAX 64
static uint64_t steal_retry_at, steal_retry_ns = STEAL_RETRY_NS;
static unsigned steal_retry_left;	/* Requests left waiting then.  */
static __thread unsigned steal_polls, steal_every = 1;
static __thread uint64_t steal_polled_at;

/* Whether a waiting request is due to be looked at again (the calling
   thread's task run).  */
static bool
gomp_task_steal_retry_due (void)
{
  if (++steal_polls < steal_every)
    return false;
  steal_polls = 0;
  uint64_t now = gomp_task_now_ns ();
  uint64_t took = now - steal_polled_at;
  uint64_t period = __atomic_load_n (&steal_retry_ns, __ATOMIC_RELAXED);
  steal_polled_at = now;
  if (took < period / 4 && steal_every < STEAL_RETRY_POLLS_MAX)
    steal_every *= 2;
  else if (took > period && steal_every > 1)
    steal_every /= 2;
  return now >= __atomic_load_n (&steal_retry_at, __ATOMIC_RELAXED);
}

/* Answers waiting thieves and takes completions; from threads of the
   team that hold no lock.  That work, and what it waits for other nodes
   (the release before tasks leave, the acquire of a completion), is not
   the own time of the task whose body the thread is in (task creation
   polls): it is timed as a wait (tasksched.c).  Counted in the body, a
   thief's answers to its creator taking back descendants would make the
   body's time away look spent on other nodes, which tasksite.c prices
   as the cost of moving it.  */
void
gomp_task_steal_poll_1 (void)
{
  unsigned pending = __atomic_load_n (gomp_cluster->task_requests,
				      __ATOMIC_SEQ_CST);
  struct gomp_thread *thr = gomp_thread ();
  struct gomp_task_wait_mark m;
  if (pending)
    {
      if (pending > __atomic_load_n (&steal_retry_left, __ATOMIC_RELAXED)
	  || gomp_task_steal_retry_due ())
	{
	  gomp_task_wait_start (thr, &m);
	  gomp_cluster->task_serve ();
	  unsigned left = __atomic_load_n (gomp_cluster->task_requests,
					   __ATOMIC_SEQ_CST);
	  uint64_t period = __atomic_load_n (&steal_retry_ns,
					     __ATOMIC_RELAXED);
	  if (left && left >= pending)
	    period = period * 2 > STEAL_RETRY_MAX_NS
		     ? STEAL_RETRY_MAX_NS : period * 2;
	  else
	    period = STEAL_RETRY_NS;
	  __atomic_store_n (&steal_retry_ns, period, __ATOMIC_RELAXED);
	  __atomic_store_n (&steal_retry_left, left, __ATOMIC_RELAXED);
	  __atomic_store_n (&steal_retry_at, gomp_task_now_ns () + period,
			    __ATOMIC_RELAXED);
	  gomp_task_wait_end (thr, &m);
	}
    }
  else if (__atomic_load_n (&steal_retry_left, __ATOMIC_RELAXED))
    /* Every waiting request was answered: the next one is new.  */
    __atomic_store_n (&steal_retry_left, 0, __ATOMIC_RELAXED);
  if (__atomic_load_n (gomp_cluster->task_dones, __ATOMIC_ACQUIRE))
    {
      gomp_task_wait_start (thr, &m);
      gomp_cluster->task_take_done ();
      gomp_task_wait_end (thr, &m);
    }
}

/* A task wait (WORD as gomp_task_word_wait's) on a node that may have
   tasks given away or thieves waiting: sleeps in short slices and polls
   in between.  With ONE_SLICE, returns after the first slice even if
   WORD was not notified (the caller may steal meanwhile).  */
void
gomp_task_steal_wait (int *word, bool one_slice)
{
  int expected = 0;
  if (!__atomic_compare_exchange_n (word, &expected, 2, false,
				    __ATOMIC_ACQ_REL, __ATOMIC_ACQUIRE))
    return;
  while (__atomic_load_n (word, __ATOMIC_ACQUIRE) != 1)
    {
      gomp_task_steal_poll_1 ();
      struct timespec ts = { 0, 200000 };
      if (__atomic_load_n (word, __ATOMIC_ACQUIRE) == 2)
	gomp_futex_wait_for (word, 2, &ts);
      if (one_slice)
	return;
    }
}

/* ---- The thief's side. ---- */

/* Makes records of the tasks of BUF (LEN bytes) from node VICTIM in
   TEAM, counted in its task_count, and queues them -- or, when RUN is
   not NULL, stores them there (at most GOMP_TASK_STEAL_BATCH) as
   dequeued, for the caller to run.  With the team's lock held.  Returns
   how many.  */
static unsigned
gomp_task_steal_unpack (struct gomp_team_tasks *tt, struct gomp_team *team,
			int victim, const char *buf, size_t len,
			struct gomp_task **run)
{
  unsigned n = 0;
  size_t off = 0;
  while (off + sizeof (struct gomp_task_wire) <= len)
    {
      struct gomp_task_wire w;
      memcpy (&w, buf + off, sizeof w);
      off += sizeof w;
      if (w.returned)
	{
	  /* One of this node's tasks, which never started there.  */
	  struct gomp_task *t = (struct gomp_task *) (uintptr_t) w.id;
	  if (run == NULL || n >= GOMP_TASK_STEAL_BATCH
	      || t->moved != GOMP_TASK_GIVEN || t->node != victim)
	    gomp_fatal ("rank %d gave back a task it was not given", victim);
	  t->moved = 0;
	  steal_out--;
	  gomp_task_site_back (t->fn, t->site_depth);
	  run[n++] = t;
	  continue;
	}
      if (w.arg_size > GOMP_TASK_MOVE_MAX || off + w.arg_size > len
	  || w.arg_align == 0 || w.arg_align > 64)
	gomp_fatal ("a stolen task arrived damaged from rank %d", victim);
      struct gomp_task *t = gomp_task_record (sizeof *t + w.arg_size
					      + w.arg_align - 1);
      if (t == NULL)
	gomp_fatal ("out of memory for a stolen task");
      t->parent = NULL;
      t->team = team;
      t->taskgroup = t->member_of = NULL;
      t->fn = (void (*) (void *)) (uintptr_t) w.fn;
      t->site_depth = 0;
      t->priority = w.priority;
      t->kind = GOMP_TASK_READY;
      t->final_task = w.final_task != 0;
      gomp_task_clear_links (t);
      t->ndeps = 0;
      t->dep_recs = NULL;
      t->icv = w.icv;
      t->movable = false;
      t->moved = GOMP_TASK_STOLEN;
      t->steal_root = t;
      t->sub_times = calloc (GOMP_CLUSTER_TASK_TIMES,
			     sizeof *t->sub_times);
      if (t->sub_times == NULL)
	gomp_fatal ("out of memory for a stolen task");
      t->node = victim;
      t->remote_id = w.id;
      t->arg_size = w.arg_size;
      t->arg_align = w.arg_align;
      t->fn_data = (void *) (((uintptr_t) (t + 1) + w.arg_align - 1)
			     & ~(uintptr_t) (w.arg_align - 1));
      memcpy (t->fn_data, buf + off, w.arg_size);
      off += WIRE_ROUND (w.arg_size);
      __atomic_store_n (&team->task_count, team->task_count + 1,
			__ATOMIC_RELEASE);
      if (run)
	{
	  if (n >= GOMP_TASK_STEAL_BATCH)
	    gomp_fatal ("rank %d gave more tasks than asked for", victim);
	  t->kind = GOMP_TASK_RUNNING;
	  run[n] = t;
	}
      else
	gomp_task_make_ready (tt, t);
      n++;
    }
  return n;
}

/* Whether another node announced movable tasks in INTERVAL.  */
static bool
gomp_task_steal_noted_in (uint64_t interval)
{
  return __atomic_load_n (&steal_noted_interval[interval % 4],
			  __ATOMIC_ACQUIRE) == interval;
}

/* Every other node is idle in the barrier that ends INTERVAL, the
   thief's steal_gen: counts whether asking there was useless.  */
static void
gomp_task_steal_all_idle (uint64_t interval)
{
  if (steal_all_idle)
    return;
  steal_all_idle = true;
  unsigned u = __atomic_load_n (&steal_useless, __ATOMIC_RELAXED);
  if (steal_gen_got || gomp_task_steal_noted_in (interval))
    u = 0;
  else if (u < STEAL_EAGER_MAX)
    u++;
  __atomic_store_n (&steal_useless, u, __ATOMIC_RELAXED);
}

/* A thread of TEAM waiting in its barrier (generation GEN) with no local
   task to run: asks the next busy node for tasks.  Returns
   GOMP_CLUSTER_STEAL_GOT when it queued some, BUSY when another node may
   still have some (it then waited its back-off), IDLE when every other
   node is done with this barrier (or another thread steals).  */
int
gomp_task_steal_idle (struct gomp_team *team, unsigned long gen)
{
  int nodes = gomp_cluster->nodes, me = gomp_cluster->rank;
  uint64_t all = (nodes >= 64 ? ~(uint64_t) 0 : (((uint64_t) 1 << nodes) - 1))
		 & ~((uint64_t) 1 << me);
  if (steal_gen_team != team || steal_gen != gen)
    {
      steal_gen_team = team;
      steal_gen = gen;
      steal_idle_mask = 0;
      steal_all_idle = false;
      steal_gen_got = false;
      steal_backoff_ns = 0;
    }
  uint64_t epoch
    = gomp_task_steal_epoch_of ((unsigned) gen << GOMP_BAR_GEN_SHIFT);
  int result = GOMP_CLUSTER_STEAL_IDLE;
  if ((steal_idle_mask & all) == all || nodes > 64)
    {
      gomp_task_steal_all_idle (gomp_task_steal_interval ());
      return result;
    }
  struct gomp_team_tasks *tt = gomp_team_tasks (team);

  char *buf = malloc (GOMP_TASK_STEAL_BUF);
  if (buf == NULL)
    gomp_fatal ("out of memory for stolen tasks");
  unsigned got = 0;
  for (int i = 0; i < nodes - 1 && !got; i++)
    {
      int v = steal_next_victim;
      if (v == me || v >= nodes)
	v = (me + 1) % nodes;
      steal_next_victim = (v + 1) % nodes;
      if (steal_next_victim == me)
	steal_next_victim = (me + 1) % nodes;
      if (steal_idle_mask & ((uint64_t) 1 << v))
	continue;
      size_t len = 0;
      int st = gomp_cluster->task_steal (v, epoch, NULL, 0,
					 team->local_nthreads, buf,
					 GOMP_TASK_STEAL_BUF, &len);
      if (st == GOMP_CLUSTER_STEAL_IDLE)
	steal_idle_mask |= (uint64_t) 1 << v;
      else if (st == GOMP_CLUSTER_STEAL_GOT && len)
	{
	  gomp_mutex_lock (&tt->lock);
	  got = gomp_task_steal_unpack (tt, team, v, buf, len, NULL);
	  gomp_mutex_unlock (&tt->lock);
	  __atomic_add_fetch (&gomp_task_stats[GOMP_TASK_STAT_BYTES], len,
			      __ATOMIC_RELAXED);
	}
      else
	result = GOMP_CLUSTER_STEAL_BUSY;
      /* Meanwhile this node's own thieves may be waiting for an answer.  */
      gomp_task_steal_poll ();
    }
  free (buf);
  if (got)
    {
      gomp_barrier_maybe_wake (team);
      steal_backoff_ns = 0;
      steal_gen_got = true;
      result = GOMP_CLUSTER_STEAL_GOT;
    }
  else if ((steal_idle_mask & all) == all)
    gomp_task_steal_all_idle (gomp_task_steal_interval ());
  else
    {
      /* Nobody had tasks yet: wait a little longer each time.  */
      steal_backoff_ns = steal_backoff_ns ? steal_backoff_ns * 2 : 20000;
      if (steal_backoff_ns > 1000000)
	steal_backoff_ns = 1000000;
      struct timespec ts = { 0, steal_backoff_ns };
      nanosleep (&ts, NULL);
      result = GOMP_CLUSTER_STEAL_BUSY;
    }
  return result;
}

/* barrier.c: a thread of TEAM waits in its barrier of generation GEN
   (arrivals counted at SHIFT) with no local task queued.  Answers
   thieves, takes completions, and steals when tasks may come from other
   nodes (a node announced some in this interval, or, eagerly, the program
   makes tasks or a node announced some in this region: STEAL_USELESS)
   and not every other node is known idle in this barrier
   (an enum gomp_cluster_steal_state, as gomp_task_steal_idle).  While it
   asks, its arrival is withdrawn, so that the barrier cannot complete
   (STEAL_TOKENS counts it as arrived for task_state).  */
int
gomp_task_steal_barrier (struct gomp_team *team, unsigned long gen,
			 unsigned shift)
{
  gomp_task_steal_poll_1 ();
  if (team != __atomic_load_n (&steal_team, __ATOMIC_ACQUIRE))
    return GOMP_CLUSTER_STEAL_IDLE;
  bool eager
    = (steal_program
       || __atomic_load_n (&steal_noted, __ATOMIC_ACQUIRE)
	  == __atomic_load_n (&steal_region, __ATOMIC_ACQUIRE))
      && __atomic_load_n (&steal_useless, __ATOMIC_RELAXED) < STEAL_EAGER_MAX;
  if (!eager)
    {
      uint64_t interval = gomp_task_steal_interval ();
      if (!gomp_task_steal_noted_in (interval)
	  && (!steal_program
	      || ((uint32_t) interval != 0
		  && __atomic_load_n (&steal_single_interval,
				      __ATOMIC_ACQUIRE) != interval)))
	return GOMP_CLUSTER_STEAL_IDLE;
    }
  if (steal_gen_team == team && steal_gen == gen && steal_all_idle)
    return GOMP_CLUSTER_STEAL_IDLE;
  int expected = 0;
  if (!__atomic_compare_exchange_n (&steal_active, &expected, 1, false,
				    __ATOMIC_ACQUIRE, __ATOMIC_RELAXED))
    return GOMP_CLUSTER_STEAL_IDLE;
  struct gomp_barrier *bar = &team->barrier;
  unsigned one = 1u << shift;
  __atomic_add_fetch (&steal_tokens, 1, __ATOMIC_SEQ_CST);
  unsigned s = (unsigned) __atomic_load_n (&bar->state, __ATOMIC_ACQUIRE);
  int result = GOMP_CLUSTER_STEAL_IDLE;
  for (;;)
    {
      unsigned arrived = (s >> shift) & GOMP_BAR_ARRIVED_MASK;
      /* Completed, or claimed by the thread that completes it.  */
      if ((s >> GOMP_BAR_GEN_SHIFT) != gen || arrived == 0
	  || arrived > bar->total)
	goto out;
      if (__atomic_compare_exchange_n (&bar->state, (int *) &s,
				       (int) (s - one), false,
				       __ATOMIC_ACQ_REL, __ATOMIC_ACQUIRE))
	break;
    }
  result = gomp_task_steal_idle (team, gen);
  __atomic_add_fetch (&bar->state, (int) one, __ATOMIC_ACQ_REL);
out:
  __atomic_sub_fetch (&steal_tokens, 1, __ATOMIC_SEQ_CST);
  __atomic_store_n (&steal_active, 0, __ATOMIC_RELEASE);
  return result;
}

/* A thread waiting in TASK (taskwait, the end of a taskgroup) for
   children of which some run on other nodes, with nothing to run here:
   takes descendants of those children back from the node that runs the
   first of them, and runs them (OpenMP's task scheduling constraint:
   they descend from TASK).  Called and returns with TT's lock held;
   true when it released the lock meanwhile (the caller must look at
   what it waits for again: a child may have completed).  Asks at most
   once per back-off period.  */
static __thread long steal_for_next, steal_for_backoff;

bool
gomp_task_steal_for (struct gomp_thread *thr, struct gomp_team_tasks *tt,
		     struct gomp_task *task)
{
  long now_ns = (long) gomp_task_now_ns ();
  if (now_ns < steal_for_next)
    return false;
  uint64_t roots[GOMP_CLUSTER_STEAL_ROOTS];
  unsigned nroots = 0;
  int node = -1;
  for (struct gomp_task *c = task->busy_children.head;
       c && nroots < GOMP_CLUSTER_STEAL_ROOTS; c = c->child_link.next)
    if (c->moved == GOMP_TASK_GIVEN && (node < 0 || c->node == node))
      {
	node = c->node;
	roots[nroots++] = (uintptr_t) c;
      }
  if (nroots == 0)
    return false;
  int expected = 0;
  if (!__atomic_compare_exchange_n (&steal_active, &expected, 1, false,
				    __ATOMIC_ACQUIRE, __ATOMIC_RELAXED))
    return false;
  struct gomp_team *team = thr->ts.team;
  gomp_mutex_unlock (&tt->lock);
  char *buf = malloc (GOMP_TASK_STEAL_BUF);
  if (buf == NULL)
    gomp_fatal ("out of memory for stolen tasks");
  size_t len = 0;
  unsigned s = (unsigned) __atomic_load_n (&team->barrier.state,
					   __ATOMIC_ACQUIRE);
  uint64_t epoch = gomp_task_steal_epoch_of (s);
  int st = gomp_cluster->task_steal (node, epoch, roots, nroots, 1, buf,
				     GOMP_TASK_STEAL_BUF, &len);
  __atomic_store_n (&steal_active, 0, __ATOMIC_RELEASE);
  struct gomp_task *run[GOMP_TASK_STEAL_BATCH];
  unsigned got = 0;
  gomp_mutex_lock (&tt->lock);
  if (st == GOMP_CLUSTER_STEAL_GOT && len)
    got = gomp_task_steal_unpack (tt, team, node, buf, len, run);
  free (buf);
  if (got == 0)
    {
      steal_for_backoff = steal_for_backoff ? steal_for_backoff * 2 : 50000;
      if (steal_for_backoff > 1000000)
	steal_for_backoff = 1000000;
      steal_for_next = now_ns + steal_for_backoff;
      return true;
    }
  steal_for_backoff = 0;
  steal_for_next = 0;
  __atomic_add_fetch (&gomp_task_stats[GOMP_TASK_STAT_BYTES], len,
		      __ATOMIC_RELAXED);
  for (unsigned i = 0; i < got; i++)
    gomp_task_run_stolen (thr, tt, run[i]);
  return true;
}

/* single.c: a thread of TEAM leaves a single construct to rank 0.  */
void
gomp_task_steal_single_left (struct gomp_team *team)
{
  if (team == __atomic_load_n (&steal_team, __ATOMIC_ACQUIRE))
    __atomic_store_n (&steal_single_interval, gomp_task_steal_interval (),
		      __ATOMIC_RELEASE);
}

/* barrier.c: the thread that claimed TEAM's barrier (every local thread
   arrived, no task left), before the inter-node part: counts the barrier
   (STEAL_BARS) and answers thieves
   whose requests came while the node was busy (they learn it is idle; a
   handler that noted a request before the claim made it visible to this
   look).  */
void
gomp_task_steal_claimed (struct gomp_team *team)
{
  if (team != __atomic_load_n (&steal_team, __ATOMIC_ACQUIRE))
    return;
  __atomic_store_n (&steal_bars, steal_bars + 1, __ATOMIC_RELEASE);
  if (__atomic_load_n (gomp_cluster->task_requests, __ATOMIC_SEQ_CST))
    gomp_cluster->task_serve ();
}

/* A task that ran here as stolen task ROOT or one of its descendants,
   a task of FN, took NS of its own, REMOTE_NS of them in the DSM's
   faults and other waits for other nodes (tasksched.c): counted in
   ROOT's slot for FN (slots are taken in turn; the last counts the
   rest).  */
void
gomp_task_steal_timed (struct gomp_task *root, void (*fn) (void *),
		       uint64_t ns, uint64_t remote_ns)
{
  struct gomp_cluster_task_time *s = root->sub_times;
  uint64_t key = (uintptr_t) fn;
  unsigned i;
  for (i = 0; i < GOMP_CLUSTER_TASK_TIMES - 1; i++)
    {
      uint64_t cur = __atomic_load_n (&s[i].fn, __ATOMIC_ACQUIRE);
      if (cur == key)
	break;
      if (cur == 0
	  && (__atomic_compare_exchange_n (&s[i].fn, &cur, key, false,
					   __ATOMIC_ACQ_REL, __ATOMIC_ACQUIRE)
	      || cur == key))
	break;
    }
  __atomic_add_fetch (&s[i].ntasks, 1, __ATOMIC_RELAXED);
  __atomic_add_fetch (&s[i].ns, ns, __ATOMIC_RELAXED);
  __atomic_add_fetch (&s[i].remote_ns, remote_ns, __ATOMIC_RELAXED);
}

/* The thief ran stolen task T, started at START_NS (its body ended;
   with no lock held): waits for the descendants it made here, then
   reports its completion, with the time their bodies and its own took
   (T->sub_times).  */
void
gomp_task_steal_complete (struct gomp_thread *thr, struct gomp_task *t,
			  struct gomp_taskgroup *tg, uint64_t start_ns)
{
  gomp_taskgroup_wait (thr, t, tg);
  t->taskgroup = NULL;
  free (tg);
  gomp_cluster->task_done (t->node, t->remote_id, start_ns, t->sub_times,
			   GOMP_CLUSTER_TASK_TIMES);
  free (t->sub_times);
  t->sub_times = NULL;
}

/* Sets STEAL_PROGRAM: looks for a name starting with GOMP_task among
   the symbols that the main program's relocations (PLT and others)
   name.  */
static int
gomp_task_steal_scan (struct dl_phdr_info *info, size_t size, void *data)
{
  (void) size;
  (void) data;
  const ElfW(Dyn) *dyn = NULL;
  for (int i = 0; i < info->dlpi_phnum; i++)
    if (info->dlpi_phdr[i].p_type == PT_DYNAMIC)
      dyn = (const ElfW(Dyn) *) (info->dlpi_addr
				 + info->dlpi_phdr[i].p_vaddr);
  if (dyn == NULL)
    return 1;
  const ElfW(Sym) *sym = NULL;
  const char *str = NULL;
  const ElfW(Rela) *rel[2] = { NULL, NULL };
  size_t relsz[2] = { 0, 0 };
  for (; dyn->d_tag != DT_NULL; dyn++)
    switch (dyn->d_tag)
      {
      case DT_SYMTAB: sym = (const ElfW(Sym) *) dyn->d_un.d_ptr; break;
      case DT_STRTAB: str = (const char *) dyn->d_un.d_ptr; break;
      case DT_JMPREL: rel[0] = (const ElfW(Rela) *) dyn->d_un.d_ptr; break;
      case DT_PLTRELSZ: relsz[0] = dyn->d_un.d_val; break;
      case DT_RELA: rel[1] = (const ElfW(Rela) *) dyn->d_un.d_ptr; break;
      case DT_RELASZ: relsz[1] = dyn->d_un.d_val; break;
      }
  if (sym == NULL || str == NULL)
    return 1;
  for (int k = 0; k < 2; k++)
    if (rel[k])
      for (size_t i = 0; i < relsz[k] / sizeof (ElfW(Rela)); i++)
	{
	  size_t idx = ELF64_R_SYM (rel[k][i].r_info);
	  if (idx && strncmp (str + sym[idx].st_name, "GOMP_task", 9) == 0)
	    {
	      steal_program = true;
	      return 1;
	    }
	}
  /* The first object is the program: stop.  */
  return 1;
}

/* start.c: the host's callbacks.  */
void
gomp_task_steal_host (struct gomp_cluster_host *host)
{
  gomp_task_steal_low ();
  dl_iterate_phdr (gomp_task_steal_scan, NULL);
  host->task_state = gomp_task_steal_state;
  host->task_pack = gomp_task_steal_pack;
  host->task_finish = gomp_task_steal_finish;
  host->task_fulfilled = gomp_task_fulfilled_remote;
  host->task_wake = gomp_task_steal_wake;
  host->task_noted = gomp_task_steal_noted;
  host->task_stats = gomp_task_stats;
}
