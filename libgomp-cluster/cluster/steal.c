/* steal.c -- deferred tasks taken by another node (the runtime's
   tasksteal.c and taskmove.c decide which tasks may move, tasksteal.c
   runs them; this file carries them and their memory's consistency).

   A thief asks one node at a time (GOMP_CL_TAG_STEAL).  The handler
   answers at once when the node is idle (host->task_state: no team, or
   its threads wait in a barrier with no task left), and when it has
   nothing to give to a thief that asked for descendants of given tasks;
   otherwise it notes the request, and a thread of the node's team
   answers it at a task scheduling point (task_serve): when the node has
   tasks, or when it becomes idle (a thief in a barrier thus waits for
   the answer instead of polling).  The runtime dequeues movable tasks
   (host->task_pack), the node releases (its diffs reach their homes) and
   the answer carries the tasks and the node's log of write notices,
   which the thief acquires before it runs them -- as a lock's token
   does.  The answer cannot come from the handler: a release waits for
   its diffs' acknowledgements, which a handler must not do.

   When a stolen task has completed at the thief (its descendants too),
   the thief releases and sends its log with the task's identity
   (GOMP_CL_TAG_STEAL_DONE); the handler keeps the message and wakes the
   creator's waiting threads (host->task_wake), one of which acquires the
   log and then completes the task there (task_take_done,
   host->task_finish): whoever waits for the task (taskwait, the end of a
   taskgroup, a barrier) sees the thief's writes.  */

#include "cluster-int.h"
#include <pthread.h>
#include <stdlib.h>
#include <string.h>

/* A steal answer's most bytes of tasks, and of notices beyond them (past
   it, "acquire everything").  */
#define STEAL_TASKS_MAX (64 * 1024)
#define STEAL_LOG_MAX (256 * 1024)

struct steal_req
{
  uint64_t epoch;		/* The thief's barrier (host->task_state).  */
  uint32_t max;			/* Bytes of tasks the thief takes.  */
  uint32_t max_tasks;		/* Tasks the thief takes at most.  */
  uint32_t nroots;		/* 0: any movable task; else only ...  */
  uint64_t roots[GOMP_CLUSTER_STEAL_ROOTS];	/* ... descendants of these.  */
};

/* An answer: STATE (enum in cluster.h), then for GOMP_CLUSTER_STEAL_GOT
   the tasks' length, the victim's last release (its log's own sequence,
   which the log that follows covers), the tasks, the packed log.  */
struct steal_ans
{
  int32_t state;
  uint32_t tasks_len;
  uint64_t seq;
};

/* Requests waiting for a thread of this node: at most one per node (one
   thread per node steals at a time); with steal_mutex, which no holder
   keeps across a call into MPI, so a handler may trylock it.  */
static pthread_mutex_t steal_mutex = PTHREAD_MUTEX_INITIALIZER;
static uint64_t *steal_token;
static bool *steal_waiting;
static struct steal_req *steal_rq;
static unsigned steal_pending;		/* Requests in STEAL_WAITING.  */

/* Completions that arrived, a stack of copies of the messages, and the
   events other nodes fulfilled (FULFILL: uint64 event, the sender's
   last release, then the packed log).  */
struct steal_done
{
  struct steal_done *next;
  int src;
  bool fulfill;
  size_t len;
  /* uint64 id, the thief's last release (uint64, covered by the log),
     the task's time there (uint64 ns: the whole, and the release), the
     number of timings (uint64) and GOMP_CLUSTER_TASK_TIMES timings (4
     uint64 each: struct gomp_cluster_task_time), then the packed log.  */
  unsigned char msg[];
};
#define DONE_TIMES 40
#define DONE_TIME 32
#define DONE_HDR (DONE_TIMES + DONE_TIME * GOMP_CLUSTER_TASK_TIMES)
#define FULFILL_HDR 16
static struct steal_done *done_head;
static unsigned done_pending;

/* Counters for OMPC_STATS.  */
uint64_t gomp_cl_steal_given, gomp_cl_steal_got, gomp_cl_steal_bytes;

static void
answer_state (int src, uint64_t token, int state)
{
  struct steal_ans a = { state, 0, 0 };
  gomp_cl_reply (src, token, &a, sizeof a);
}

static void
steal_handler (int src, const void *msg, size_t len, uint64_t token)
{
  struct steal_req rq;
  if (len != sizeof rq)
    gomp_cl_fatal ("a bad task steal request arrived from rank %d", src);
  memcpy (&rq, msg, sizeof rq);
  if (rq.nroots > GOMP_CLUSTER_STEAL_ROOTS)
    gomp_cl_fatal ("a bad task steal request arrived from rank %d", src);
  int state = gomp_cl_host->task_state (rq.epoch);
  if (state == GOMP_CLUSTER_STEAL_IDLE
      || (state == GOMP_CLUSTER_STEAL_BUSY && rq.nroots))
    {
      answer_state (src, token, state);
      return;
    }
  if (pthread_mutex_trylock (&steal_mutex) != 0)
    {
      gomp_cl_defer ();
      return;
    }
  if (steal_waiting[src])
    gomp_cl_fatal ("rank %d asked for tasks twice at once", src);
  steal_waiting[src] = true;
  steal_token[src] = token;
  steal_rq[src] = rq;
  __atomic_store_n (&steal_pending, steal_pending + 1, __ATOMIC_SEQ_CST);
  /* The node may have become idle since: its last thread to arrive at
     the barrier looks at STEAL_PENDING after it arrived, this handler at
     the state after it noted the request (both sequentially consistent):
     one of the two sees the other and answers.  */
  if (gomp_cl_host->task_state (rq.epoch) == GOMP_CLUSTER_STEAL_IDLE)
    {
      steal_waiting[src] = false;
      __atomic_store_n (&steal_pending, steal_pending - 1, __ATOMIC_SEQ_CST);
      pthread_mutex_unlock (&steal_mutex);
      answer_state (src, token, GOMP_CLUSTER_STEAL_IDLE);
      return;
    }
  pthread_mutex_unlock (&steal_mutex);
  /* A thread of the team may sleep with tasks queued only in a wait
     that wakes for this too.  */
  gomp_cl_host->task_wake ();
}

/* Keeps a completion or a fulfilled event for the team's threads.  */
static void
done_keep (int src, const void *msg, size_t len, bool fulfill)
{
  if (len < (fulfill ? FULFILL_HDR : DONE_HDR))
    gomp_cl_fatal ("a bad task %s arrived from rank %d",
		   fulfill ? "event" : "completion", src);
  struct steal_done *d = malloc (sizeof *d + len);
  if (!d)
    gomp_cl_fatal ("out of memory for a task completion");
  d->src = src;
  d->fulfill = fulfill;
  d->len = len;
  memcpy (d->msg, msg, len);
  d->next = __atomic_load_n (&done_head, __ATOMIC_RELAXED);
  while (!__atomic_compare_exchange_n (&done_head, &d->next, d, false,
				       __ATOMIC_RELEASE, __ATOMIC_RELAXED))
    ;
  __atomic_add_fetch (&done_pending, 1, __ATOMIC_SEQ_CST);
  gomp_cl_host->task_wake ();
}

static void
steal_done_handler (int src, const void *msg, size_t len, uint64_t token)
{
  (void) token;
  done_keep (src, msg, len, false);
}

static void
fulfill_handler (int src, const void *msg, size_t len, uint64_t token)
{
  (void) token;
  done_keep (src, msg, len, true);
}

static void
steal_note_handler (int src, const void *msg, size_t len, uint64_t token)
{
  (void) token;
  uint64_t interval;
  if (len != sizeof interval)
    gomp_cl_fatal ("a bad task announcement arrived from rank %d", src);
  memcpy (&interval, msg, sizeof interval);
  gomp_cl_host->task_noted (interval);
}

/* Tells the other nodes that this node has movable tasks in the interval
   between barriers numbered INTERVAL, so that their idle threads ask in
   the barrier that ends it (where nobody announced any, they ask only
   while eager: tasksteal.c).  */
void
gomp_cl_task_announce (uint64_t interval)
{
  for (int r = 0; r < gomp_cl_nodes; r++)
    if (r != gomp_cl_rank)
      gomp_cl_send (r, GOMP_CL_TAG_STEAL_NOTE, &interval, sizeof interval);
}

void
gomp_cl_steal_init (void)
{
  steal_token = calloc (gomp_cl_nodes, sizeof *steal_token);
  steal_waiting = calloc (gomp_cl_nodes, sizeof *steal_waiting);
  steal_rq = calloc (gomp_cl_nodes, sizeof *steal_rq);
  if (!steal_token || !steal_waiting || !steal_rq)
    gomp_cl_fatal ("out of memory");
  gomp_cl_register (GOMP_CL_TAG_STEAL, steal_handler);
  gomp_cl_register (GOMP_CL_TAG_STEAL_DONE, steal_done_handler);
  gomp_cl_register (GOMP_CL_TAG_FULFILL, fulfill_handler);
  gomp_cl_register (GOMP_CL_TAG_STEAL_NOTE, steal_note_handler);
  gomp_cl_ops.task_requests = &steal_pending;
  gomp_cl_ops.task_dones = &done_pending;
}

static void task_serve (bool thief);

/* The thief's side: asks VICTIM for at most MAX_TASKS tasks
   (descendants of the NROOTS tasks ROOTS that VICTIM gave this node,
   when NROOTS is not 0); with
   GOMP_CLUSTER_STEAL_GOT, BUF holds *LEN bytes of them, and this node
   has acquired what the victim had released.  While it waits it answers
   other thieves itself: two nodes whose only threads ask each other at
   once would otherwise wait for each other.  */
int
gomp_cl_task_steal (int victim, uint64_t epoch, const uint64_t *roots,
		    unsigned nroots, unsigned max_tasks, void *buf, size_t max,
		    size_t *len)
{
  if (max > STEAL_TASKS_MAX)
    max = STEAL_TASKS_MAX;
  struct steal_req rq;
  memset (&rq, 0, sizeof rq);
  rq.epoch = epoch;
  rq.max = (uint32_t) max;
  rq.max_tasks = max_tasks;
  if (nroots > GOMP_CLUSTER_STEAL_ROOTS)
    nroots = GOMP_CLUSTER_STEAL_ROOTS;
  rq.nroots = nroots;
  memcpy (rq.roots, roots, nroots * sizeof *roots);
  size_t cap = sizeof (struct steal_ans) + STEAL_TASKS_MAX + STEAL_LOG_MAX;
  char *ans = malloc (cap);
  if (!ans)
    gomp_cl_fatal ("out of memory for stolen tasks");
  struct gomp_cl_pending w;
  gomp_cl_call_async (victim, GOMP_CL_TAG_STEAL, &rq, sizeof rq, ans, cap,
		      &w);
  struct gomp_cl_backoff b;
  gomp_cl_backoff_init (&b);
  while (__atomic_load_n (&w.done, __ATOMIC_ACQUIRE) == 0)
    {
      /* A scheduling point of this node's thread: other thieves get
	 their answers, and the completions of this node's tasks given
	 away are taken.  An untaken one keeps this node busy to the
	 others: two nodes whose only threads asked each other would
	 each keep the other's request waiting for ever (BOTS
	 sparselu_for at 4 x 1).  So would a request kept waiting here
	 while this thread asks: a completion taken here readies a task
	 of this node that it does not give (its site is not worth
	 moving), and the other node, whose only thread asks this one,
	 has one too (EPCC taskbench's chains of dependent tasks at
	 3 x 1, about one launch in six): answered busy instead, the
	 other thief goes back to its own tasks.  */
      if (__atomic_load_n (&done_pending, __ATOMIC_ACQUIRE))
	gomp_cl_task_take_done ();
      if (__atomic_load_n (&steal_pending, __ATOMIC_ACQUIRE))
	task_serve (true);
      if (!gomp_cl_progress ())
	gomp_cl_backoff_pause (&b);
    }
  size_t n = gomp_cl_call_wait (&w);
  struct steal_ans a;
  if (n < sizeof a || n > cap)
    gomp_cl_fatal ("a bad answer to a task steal arrived from rank %d",
		   victim);
  memcpy (&a, ans, sizeof a);
  *len = 0;
  if (a.state == GOMP_CLUSTER_STEAL_GOT)
    {
      if (a.tasks_len > max || sizeof a + a.tasks_len > n)
	gomp_cl_fatal ("a bad answer to a task steal arrived from rank %d",
		       victim);
      const char *log = ans + sizeof a + a.tasks_len;
      size_t log_len = n - sizeof a - a.tasks_len;
      /* What the victim had released came with the answer: a block
	 labelled with those releases asks for nothing again.  */
      gomp_cl_pull_seen (victim, a.seq);
      if (log_len)
	{
	  gomp_cl_log_merge (log, log_len);
	  gomp_cl_acquire_packed (log, log_len, false);
	  gomp_cl_catch_up (false);
	}
      memcpy (buf, ans + sizeof a, a.tasks_len);
      *len = a.tasks_len;
      __atomic_add_fetch (&gomp_cl_steal_got, 1, __ATOMIC_RELAXED);
      __atomic_add_fetch (&gomp_cl_steal_bytes, n, __ATOMIC_RELAXED);
    }
  free (ans);
  return a.state;
}

/* The victim's side, from a thread of the team at a scheduling point:
   answers the requests that wait -- with tasks, or that this node is
   idle; a thief that asked for any task (not for descendants of given
   ones) while this node is busy with nothing to give waits on, so that
   it learns at once when this node has tasks or is done -- unless
   THIEF: the serving thread waits for its own steal's answer, and the
   thief is told this node is busy.  */
static void
task_serve (bool thief)
{
  bool *skip = NULL;
  for (;;)
    {
      int src = -1;
      uint64_t token = 0;
      struct steal_req steal_rq_taken;
      pthread_mutex_lock (&steal_mutex);
      for (int r = 0; r < gomp_cl_nodes; r++)
	if (steal_waiting[r] && !(skip && skip[r]))
	  {
	    src = r;
	    token = steal_token[r];
	    steal_rq_taken = steal_rq[r];
	    steal_waiting[r] = false;
	    __atomic_store_n (&steal_pending, steal_pending - 1,
			      __ATOMIC_RELEASE);
	    break;
	  }
      pthread_mutex_unlock (&steal_mutex);
      if (src < 0)
	break;
      size_t hdr = sizeof (struct steal_ans);
      char *tasks = malloc (hdr + STEAL_TASKS_MAX);
      if (!tasks)
	gomp_cl_fatal ("out of memory for stolen tasks");
      struct steal_req rq = steal_rq_taken;
      size_t max = rq.max < STEAL_TASKS_MAX ? rq.max : STEAL_TASKS_MAX;
      size_t n = gomp_cl_host->task_pack (src, rq.roots, rq.nroots,
					  rq.max_tasks, tasks + hdr, max);
      if (n == 0)
	{
	  free (tasks);
	  int state = gomp_cl_host->task_state (rq.epoch);
	  if (state != GOMP_CLUSTER_STEAL_IDLE && rq.nroots == 0 && !thief)
	    {
	      /* Still waits.  */
	      if (!skip && !(skip = calloc (gomp_cl_nodes, sizeof *skip)))
		gomp_cl_fatal ("out of memory");
	      skip[src] = true;
	      pthread_mutex_lock (&steal_mutex);
	      steal_waiting[src] = true;
	      steal_token[src] = token;
	      steal_rq[src] = rq;
	      __atomic_store_n (&steal_pending, steal_pending + 1,
				__ATOMIC_RELEASE);
	      pthread_mutex_unlock (&steal_mutex);
	      continue;
	    }
	  answer_state (src, token, state == GOMP_CLUSTER_STEAL_GOT
			? GOMP_CLUSTER_STEAL_BUSY : state);
	  continue;
	}
      /* The tasks' creators' writes reach their homes before the tasks
	 leave.  */
      gomp_cl_release ();
      uint64_t seq = gomp_cl_log_own_seq ();
      void *log;
      size_t log_len = gomp_cl_log_pack (&log, false);
      char all_rec[8];
      const void *lp = log;
      if (log_len > STEAL_LOG_MAX)
	{
	  log_len = gomp_cl_log_all_record (all_rec);
	  lp = all_rec;
	}
      struct steal_ans a = { GOMP_CLUSTER_STEAL_GOT, (uint32_t) n, seq };
      memcpy (tasks, &a, sizeof a);
      char *out = malloc (hdr + n + log_len);
      if (!out)
	gomp_cl_fatal ("out of memory for stolen tasks");
      memcpy (out, tasks, hdr + n);
      memcpy (out + hdr + n, lp, log_len);
      gomp_cl_reply (src, token, out, hdr + n + log_len);
      free (out);
      free (tasks);
      free (log);
      __atomic_add_fetch (&gomp_cl_steal_given, 1, __ATOMIC_RELAXED);
    }
  free (skip);
}

void
gomp_cl_task_serve (void)
{
  task_serve (false);
}

/* Sends HDR (HLEN bytes, of which bytes 8-15 get the number of this
   node's last release) followed by this node's log of write notices to
   DST with TAG, after the caller's release.  */
static void
send_logged (int dst, int tag, char *hdr, size_t hlen)
{
  uint64_t seq = gomp_cl_log_own_seq ();
  memcpy (hdr + 8, &seq, 8);
  void *log;
  size_t log_len = gomp_cl_log_pack (&log, false);
  char all_rec[8];
  const void *lp = log;
  if (log_len > STEAL_LOG_MAX)
    {
      log_len = gomp_cl_log_all_record (all_rec);
      lp = all_rec;
    }
  char *msg = malloc (hlen + log_len);
  if (!msg)
    gomp_cl_fatal ("out of memory for a task completion");
  memcpy (msg, hdr, hlen);
  memcpy (msg + hlen, lp, log_len);
  gomp_cl_send (dst, tag, msg, hlen + log_len);
  __atomic_add_fetch (&gomp_cl_steal_bytes, hlen + log_len,
		      __ATOMIC_RELAXED);
  free (msg);
  free (log);
}

/* The thief's side: the task ID stolen from VICTIM has completed here.  */
void
gomp_cl_task_done (int victim, uint64_t id, uint64_t start_ns,
		   const struct gomp_cluster_task_time *times, unsigned ntimes)
{
  uint64_t t0 = gomp_cl_now_ns ();
  gomp_cl_release ();
  uint64_t t1 = gomp_cl_now_ns ();
  if (ntimes > GOMP_CLUSTER_TASK_TIMES)
    ntimes = GOMP_CLUSTER_TASK_TIMES;
  uint64_t ns[3] = { t1 - start_ns, t1 - t0, ntimes };
  char hdr[DONE_HDR];
  memcpy (hdr, &id, 8);
  memcpy (hdr + 16, ns, 24);
  memset (hdr + DONE_TIMES, 0, DONE_HDR - DONE_TIMES);
  for (unsigned i = 0; i < ntimes; i++)
    {
      uint64_t w[4] = { times[i].fn, times[i].ntasks, times[i].ns,
			times[i].remote_ns };
      memcpy (hdr + DONE_TIMES + DONE_TIME * i, w, DONE_TIME);
    }
  send_logged (victim, GOMP_CL_TAG_STEAL_DONE, hdr, DONE_HDR);
}

/* omp_fulfill_event here of EVENT, node NODE's: what this node wrote
   before is released first, and NODE acquires it before it completes the
   detached task (its dependent tasks may read it).  */
void
gomp_cl_task_fulfill (int node, uint64_t event)
{
  if (node < 0 || node >= gomp_cl_nodes || node == gomp_cl_rank)
    gomp_cl_fatal ("omp_fulfill_event: the event handle names no other "
		   "node (rank %d)", node);
  gomp_cl_release ();
  char hdr[FULFILL_HDR];
  memcpy (hdr, &event, 8);
  send_logged (node, GOMP_CL_TAG_FULFILL, hdr, FULFILL_HDR);
}

/* The creator's side, from a thread of the team: acquires what the
   thieves of completed tasks released, then completes the tasks.  */
void
gomp_cl_task_take_done (void)
{
  if (!__atomic_load_n (&done_pending, __ATOMIC_ACQUIRE))
    return;
  struct steal_done *d = __atomic_exchange_n (&done_head, NULL,
					      __ATOMIC_ACQUIRE);
  while (d)
    {
      struct steal_done *next = d->next;
      if (d->fulfill)
	{
	  uint64_t event, seq;
	  memcpy (&event, d->msg, 8);
	  memcpy (&seq, d->msg + 8, 8);
	  gomp_cl_pull_seen (d->src, seq);
	  if (d->len > FULFILL_HDR)
	    {
	      gomp_cl_log_merge (d->msg + FULFILL_HDR, d->len - FULFILL_HDR);
	      gomp_cl_acquire_packed (d->msg + FULFILL_HDR,
				      d->len - FULFILL_HDR, false);
	      gomp_cl_catch_up (false);
	    }
	  __atomic_sub_fetch (&done_pending, 1, __ATOMIC_SEQ_CST);
	  gomp_cl_host->task_fulfilled (event);
	  free (d);
	  d = next;
	  continue;
	}
      uint64_t id, seq, ns[3];
      memcpy (&id, d->msg, 8);
      memcpy (&seq, d->msg + 8, 8);
      memcpy (ns, d->msg + 16, 24);
      struct gomp_cluster_task_time times[GOMP_CLUSTER_TASK_TIMES];
      unsigned ntimes = ns[2] < GOMP_CLUSTER_TASK_TIMES
			? (unsigned) ns[2] : GOMP_CLUSTER_TASK_TIMES;
      for (unsigned i = 0; i < ntimes; i++)
	{
	  uint64_t w[4];
	  memcpy (w, d->msg + DONE_TIMES + DONE_TIME * i, DONE_TIME);
	  times[i].fn = w[0];
	  times[i].ntasks = w[1];
	  times[i].ns = w[2];
	  times[i].remote_ns = w[3];
	}
      /* What the thief had released came with the message.  */
      gomp_cl_pull_seen (d->src, seq);
      if (d->len > DONE_HDR)
	{
	  gomp_cl_log_merge (d->msg + DONE_HDR, d->len - DONE_HDR);
	  gomp_cl_acquire_packed (d->msg + DONE_HDR, d->len - DONE_HDR,
				  false);
	  gomp_cl_catch_up (false);
	}
      __atomic_sub_fetch (&done_pending, 1, __ATOMIC_SEQ_CST);
      gomp_cl_host->task_finish (id, ns[0], ns[1], times, ntimes);
      free (d);
      d = next;
    }
}
