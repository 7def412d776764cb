/* lock.c -- cluster-wide locks (critical, GOMP_atomic_start, omp_*_lock),
   named by an address.  The runtime orders a node's threads with a
   node-local mutex first (critical.c), so usually one thread per node and
   lock calls these; several callers of one node are handled as well (the
   token then goes between them without messages, see below).

   Each lock has one token; a node may enter only while it holds the token.
   The token stays in the node that last used it, so a node that takes the
   same lock again and again sends nothing, and it goes from thread to
   thread inside a node without messages (at most GOMP_CL_LOCK_BATCH times
   while another node waits).  The lock's home rank (a hash
   of the key) knows the last node that asked for the token (the tail of
   the queue): a request goes to the home, which forwards it to the
   previous tail; that node passes the token on when its thread unlocks (or
   at once if the token lies unused there).  Three messages per hand-off,
   and the token crosses the network once.

   Memory.  Unlocking is a release: the node's diffs go to their homes
   before the token can leave, and the token carries the node's log of
   write notices (notices.c); the node that receives it acquires them before
   its thread enters.  The messages are sent by the transport's service
   thread and by the unlocking thread; the handlers below run on the
   service thread and never block.

   omp_test_lock must not fail while the lock is free (lock-1.c at 2x1),
   so a try whose token is elsewhere asks for it as a request does (the
   home makes this node the tail, the previous tail learns it comes next)
   and waits for the answer: the previous tail either passes the token at
   once (it lies unused there) or answers DENY (the lock is held or
   awaited there).  The try then fails, but this node stays in the queue:
   the token that arrives later stays here, free, for the next try, unless
   another node asks for it meanwhile: it is never kept for a node that
   may not try again.  DENY and a later token come from the same node in
   that order (MPI does not overtake), so a waiting try sees DENY first.  */

#include "cluster-int.h"
#include <pthread.h>
#include <stdlib.h>
#include <string.h>

enum gomp_cl_lock_kind
{
  GOMP_CL_LOCK_REQUEST = 1,	/* To the home: RANK wants the token.  */
  GOMP_CL_LOCK_FORWARD,		/* Home to the previous tail: pass the
				   token to RANK after you.  */
  GOMP_CL_LOCK_TOKEN,		/* The token, followed by a packed log.  */
  GOMP_CL_LOCK_TRY,		/* To the home: RANK tries the lock.  */
  GOMP_CL_LOCK_FORWARD_TRY,	/* As FORWARD, and RANK waits for the token
				   or a DENY at once.  */
  GOMP_CL_LOCK_DENY		/* To a trier: the lock is busy; the token
				   comes later.  */
};

struct gomp_cl_lock_msg
{
  uint32_t kind;
  int32_t rank;
  uint64_t key;
  uint64_t seq;			/* A token's: its sender's last release.  */
  unsigned char log[];
};

struct gomp_cl_lock
{
  uint64_t key;
  struct gomp_cl_lock *chain;
  bool have_token;	/* The token is in this node.  */
  bool held;		/* A thread of this node holds the lock.  */
  bool requested;	/* A request is on its way; the token will come.  */
  bool trying;		/* A try of this node waits for its answer.  */
  bool denied;		/* ... and the answer was DENY.  */
  int next;		/* The node to pass the token to, or -1.  */
  int waiters;		/* Threads of this node waiting for the token.  */
  int streak;		/* Hand-offs inside this node while NEXT waits.  */
  int tail;		/* At the home: the last node that asked.  */
  void *rx;		/* The log that came with the token.  */
  size_t rx_len;
  int rx_src;		/* Who sent it, and its last release then.  */
  uint64_t rx_seq;
  pthread_cond_t cond;
};

#define GOMP_CL_LOCK_BUCKETS 1024
/* While another node waits, the token goes to at most this many more of
   this node's waiting threads before it leaves: batching saves messages,
   the bound keeps the other nodes from starving (a thread that spins on a
   condition another node sets inside the critical section must not lock
   it out for ever).  */
#define GOMP_CL_LOCK_BATCH 4

static pthread_mutex_t gomp_cl_lock_mutex = PTHREAD_MUTEX_INITIALIZER;
static struct gomp_cl_lock *gomp_cl_locks[GOMP_CL_LOCK_BUCKETS];

/* A message to send once gomp_cl_lock_mutex is released.  */
struct gomp_cl_out
{
  int dest;
  struct gomp_cl_lock_msg *msg;
  size_t len;
};

static uint64_t
gomp_cl_key_hash (uint64_t key)
{
  key ^= key >> 33;
  key *= 0xff51afd7ed558ccdULL;
  key ^= key >> 33;
  return key;
}

static int
gomp_cl_lock_home (uint64_t key)
{
  return gomp_cl_key_hash (key) % gomp_cl_nodes;
}

/* The node's record of KEY; with gomp_cl_lock_mutex held.  */
static struct gomp_cl_lock *
gomp_cl_lock_get (uint64_t key)
{
  struct gomp_cl_lock **b
    = &gomp_cl_locks[gomp_cl_key_hash (key) % GOMP_CL_LOCK_BUCKETS];
  for (struct gomp_cl_lock *e = *b; e; e = e->chain)
    if (e->key == key)
      return e;
  struct gomp_cl_lock *e = calloc (1, sizeof *e);
  if (!e)
    gomp_cl_fatal ("out of memory for a lock");
  e->key = key;
  e->next = -1;
  /* Initially the token is at the home, which is also the tail.  */
  e->tail = gomp_cl_rank;
  e->have_token = gomp_cl_lock_home (key) == gomp_cl_rank;
  pthread_cond_init (&e->cond, NULL);
  e->chain = *b;
  *b = e;
  return e;
}

static void
gomp_cl_out_msg (struct gomp_cl_out *out, int dest, uint32_t kind,
		 uint64_t key, int rank)
{
  out->dest = dest;
  out->len = sizeof *out->msg;
  out->msg = malloc (out->len);
  if (!out->msg)
    gomp_cl_fatal ("out of memory for a lock message");
  out->msg->kind = kind;
  out->msg->rank = rank;
  out->msg->key = key;
  out->msg->seq = 0;
}

/* Gives E's token to E->next; with the mutex held.  */
static void
gomp_cl_pass_token (struct gomp_cl_lock *e, struct gomp_cl_out *out)
{
  /* The number first: every own entry up to it is in the log packed
     after (a release of another thread in between only adds one), and
     the receiver takes it that every one came (gomp_cl_pull_seen, and a
     barrier that does not acquire them again).  */
  uint64_t seq = gomp_cl_log_own_seq ();
  void *log;
  size_t log_len = gomp_cl_log_pack (&log, false);

  out->dest = e->next;
  out->len = sizeof *out->msg + log_len;
  out->msg = malloc (out->len);
  if (!out->msg)
    gomp_cl_fatal ("out of memory for a lock message");
  out->msg->kind = GOMP_CL_LOCK_TOKEN;
  out->msg->rank = gomp_cl_rank;
  out->msg->key = e->key;
  out->msg->seq = seq;
  memcpy (out->msg->log, log, log_len);
  free (log);
  free (e->rx);
  e->rx = NULL;
  e->rx_len = 0;
  e->have_token = false;
  e->next = -1;
}

/* Passes the token on if it lies unused here and someone waits for it.  */
static void
gomp_cl_maybe_pass (struct gomp_cl_lock *e, struct gomp_cl_out *out)
{
  if (e->have_token && !e->held && e->waiters == 0 && !e->trying
      && e->next >= 0)
    gomp_cl_pass_token (e, out);
}

/* RANK comes after this node, the previous tail of E's queue: passes the
   token at once if it lies unused here, and answers a try (TRY) that it
   did not with a DENY; with the mutex held.  */
static void
gomp_cl_set_next (struct gomp_cl_lock *e, int rank, bool try,
		  struct gomp_cl_out *out)
{
  e->next = rank;
  gomp_cl_maybe_pass (e, out);
  if (try && !out->msg)
    gomp_cl_out_msg (out, rank, GOMP_CL_LOCK_DENY, e->key, gomp_cl_rank);
}

/* The home's part: RANK asks for the token of KEY (TRY: a try waits for
   the answer).  */
static void
gomp_cl_home_request (uint64_t key, int rank, bool try,
		      struct gomp_cl_out *out)
{
  struct gomp_cl_lock *e = gomp_cl_lock_get (key);
  int prev = e->tail;
  e->tail = rank;
  if (prev == gomp_cl_rank)
    gomp_cl_set_next (e, rank, try, out);
  else
    gomp_cl_out_msg (out, prev,
		     try ? GOMP_CL_LOCK_FORWARD_TRY : GOMP_CL_LOCK_FORWARD,
		     key, rank);
}

static void
gomp_cl_send_out (struct gomp_cl_out *out)
{
  if (!out->msg)
    return;
  gomp_cl_send (out->dest, GOMP_CL_TAG_LOCK, out->msg, out->len);
  free (out->msg);
  out->msg = NULL;
}

/* Sends this node's request (TRY: a try's) for E's token; with the mutex
   held, OUT is sent after it is released.  A request to ourselves is
   served here.  */
static void
gomp_cl_request (struct gomp_cl_lock *e, bool try, struct gomp_cl_out *out)
{
  int home = gomp_cl_lock_home (e->key);
  e->requested = true;
  if (home == gomp_cl_rank)
    gomp_cl_home_request (e->key, gomp_cl_rank, try, out);
  else
    gomp_cl_out_msg (out, home,
		     try ? GOMP_CL_LOCK_TRY : GOMP_CL_LOCK_REQUEST, e->key,
		     gomp_cl_rank);
}

static void
gomp_cl_lock_handler (int src, const void *data, size_t len, uint64_t token)
{
  struct gomp_cl_lock_msg msg;
  struct gomp_cl_out out = { -1, NULL, 0 };

  if (len < sizeof msg)
    gomp_cl_fatal ("a short lock message (%zu bytes) came from rank %d",
		   len, src);
  memcpy (&msg, data, sizeof msg);
  pthread_mutex_lock (&gomp_cl_lock_mutex);
  struct gomp_cl_lock *e = gomp_cl_lock_get (msg.key);
  switch (msg.kind)
    {
    case GOMP_CL_LOCK_REQUEST:
    case GOMP_CL_LOCK_TRY:
      gomp_cl_home_request (msg.key, msg.rank,
			    msg.kind == GOMP_CL_LOCK_TRY, &out);
      break;
    case GOMP_CL_LOCK_FORWARD:
    case GOMP_CL_LOCK_FORWARD_TRY:
      gomp_cl_set_next (e, msg.rank, msg.kind == GOMP_CL_LOCK_FORWARD_TRY,
			&out);
      break;
    case GOMP_CL_LOCK_DENY:
      if (e->trying)
	{
	  e->denied = true;
	  pthread_cond_broadcast (&e->cond);
	}
      break;
    case GOMP_CL_LOCK_TOKEN:
      {
	size_t log_len = len - sizeof msg;
	void *rx = realloc (e->rx, e->rx_len + log_len);
	if (!rx && e->rx_len + log_len)
	  gomp_cl_fatal ("out of memory for write notices");
	memcpy ((char *) rx + e->rx_len,
		(const char *) data + sizeof msg, log_len);
	e->rx = rx;
	e->rx_len += log_len;
	e->rx_src = src;
	e->rx_seq = msg.seq;
	gomp_cl_log_merge ((const char *) data + sizeof msg, log_len);
	e->have_token = true;
	e->requested = false;
	e->streak = 0;
	if (e->waiters || e->trying)
	  pthread_cond_broadcast (&e->cond);
	else
	  gomp_cl_maybe_pass (e, &out);
	break;
      }
    default:
      gomp_cl_fatal ("unknown lock message %u from rank %d", msg.kind, src);
    }
  pthread_mutex_unlock (&gomp_cl_lock_mutex);
  gomp_cl_send_out (&out);
}

void
gomp_cl_lock_init (void)
{
  gomp_cl_register (GOMP_CL_TAG_LOCK, gomp_cl_lock_handler);
}

/* Takes the token that lies free in this node: acquires what came with it.
   With the mutex held; releases it.  */
static void
gomp_cl_take (struct gomp_cl_lock *e, bool remote)
{
  void *rx = e->rx;
  size_t rx_len = e->rx_len;
  int rx_src = e->rx_src;
  uint64_t rx_seq = e->rx_seq;

  e->held = true;
  e->rx = NULL;
  e->rx_len = 0;
  pthread_mutex_unlock (&gomp_cl_lock_mutex);
  if (rx)
    {
      gomp_cl_acquire_packed (rx, rx_len, false);
      free (rx);
      /* What the token's sender had released came with it.  */
      gomp_cl_pull_seen (rx_src, rx_seq);
      gomp_cl_catch_up (false);
    }
  if (remote)
    __atomic_fetch_add (&gomp_cl_sync.locks_remote, 1, __ATOMIC_RELAXED);
  else
    __atomic_fetch_add (&gomp_cl_sync.locks_local, 1, __ATOMIC_RELAXED);
}

void
gomp_cl_lock (void *key)
{
  struct gomp_cl_out out = { -1, NULL, 0 };
  bool remote = false;

  pthread_mutex_lock (&gomp_cl_lock_mutex);
  struct gomp_cl_lock *e = gomp_cl_lock_get ((uintptr_t) key);
  if (!(e->have_token && !e->held && e->waiters == 0))
    {
      if (!e->have_token && !e->requested)
	{
	  gomp_cl_request (e, false, &out);
	  remote = true;
	}
      e->waiters++;
      pthread_mutex_unlock (&gomp_cl_lock_mutex);
      gomp_cl_send_out (&out);
      pthread_mutex_lock (&gomp_cl_lock_mutex);
      while (!(e->have_token && !e->held))
	pthread_cond_wait (&e->cond, &gomp_cl_lock_mutex);
      e->waiters--;
    }
  gomp_cl_take (e, remote || e->rx != NULL);
}

bool
gomp_cl_try_lock (void *key)
{
  struct gomp_cl_out out = { -1, NULL, 0 };

  pthread_mutex_lock (&gomp_cl_lock_mutex);
  struct gomp_cl_lock *e = gomp_cl_lock_get ((uintptr_t) key);
  if (e->have_token && !e->held && e->waiters == 0)
    {
      gomp_cl_take (e, e->rx != NULL);
      return true;
    }
  if (e->have_token || e->requested)
    {
      /* Held here, or this node is already in the queue (a try that
	 failed before): busy.  */
      pthread_mutex_unlock (&gomp_cl_lock_mutex);
      return false;
    }
  gomp_cl_request (e, true, &out);
  e->trying = true;
  e->denied = false;
  pthread_mutex_unlock (&gomp_cl_lock_mutex);
  gomp_cl_send_out (&out);
  pthread_mutex_lock (&gomp_cl_lock_mutex);
  while (!e->denied && !(e->have_token && !e->held))
    pthread_cond_wait (&e->cond, &gomp_cl_lock_mutex);
  e->trying = false;
  if (!e->denied)
    {
      gomp_cl_take (e, true);
      return true;
    }
  /* The token that comes later goes on at once if someone asked.  */
  gomp_cl_maybe_pass (e, &out);
  pthread_mutex_unlock (&gomp_cl_lock_mutex);
  gomp_cl_send_out (&out);
  return false;
}

/* Whether the token should leave for E->next now rather than go to one
   of this node's waiting threads; with the mutex held.  */
static bool
gomp_cl_give_away (struct gomp_cl_lock *e)
{
  return e->next >= 0
	 && (e->waiters == 0 || e->streak >= GOMP_CL_LOCK_BATCH);
}

void
gomp_cl_unlock (void *key)
{
  struct gomp_cl_out out = { -1, NULL, 0 }, again = { -1, NULL, 0 };

  pthread_mutex_lock (&gomp_cl_lock_mutex);
  struct gomp_cl_lock *e = gomp_cl_lock_get ((uintptr_t) key);
  if (!e->held)
    gomp_cl_fatal ("unlocking a lock this node does not hold");
  if (e->waiters == 0 || gomp_cl_give_away (e))
    {
      /* The token may leave the node: release first, while the lock is
	 still held so that nobody passes the token on meanwhile.  */
      pthread_mutex_unlock (&gomp_cl_lock_mutex);
      gomp_cl_release ();
      pthread_mutex_lock (&gomp_cl_lock_mutex);
    }
  e->held = false;
  if (gomp_cl_give_away (e))
    {
      gomp_cl_pass_token (e, &out);
      /* This node's waiting threads get in line again, behind it.  */
      if (e->waiters)
	gomp_cl_request (e, false, &again);
    }
  else if (e->waiters)
    {
      if (e->next >= 0)
	e->streak++;
      pthread_cond_broadcast (&e->cond);
    }
  pthread_mutex_unlock (&gomp_cl_lock_mutex);
  gomp_cl_send_out (&out);
  gomp_cl_send_out (&again);
}
