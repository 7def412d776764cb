/* pull.c -- acquires that have no partner: a flush and an atomic with an
   acquire memory order (OpenMP 5.1 section 1.4.4: such an atomic, and
   every flush, is an acquire flush).

   A barrier hands every node's write notices to every node, and a lock's
   token carries those of its last holders; a flush or an acquire atomic
   synchronises with nobody in particular, so it asks every other node
   (one round trip each, in parallel) for the notices it released since
   the last answer it gave this node, and invalidates what they name.
   Whatever another node did before this node read one of its values --
   a release, a lock, a write to a block homed there -- is then visible:

   - a release completed before its node's later writes can be seen (the
     store that follows it, atomic or not, reaches memory after it), so
     the answer holds its notices;
   - a release in progress (its diffs partly applied, so that a flag it
     carries may already be read at its home, as in a pipeline that sets
     a flag and then flushes) is waited for: the answer is deferred until
     no release runs on the answering node;
   - a node's writes to blocks homed there are readable by others before
     any release (a fetch serves the home's memory as it is): the answer
     also names the home blocks written since the last release;
   - what the answering node had itself acquired from a third node came
     from a release that completed before, and the third node is asked
     too.  That third node may have answered this pull before the release
     that the answering node then acquired: every answer therefore names
     the releases its node had acquired from each node (ACQUIRED below:
     through its own pulls, barriers and region starts, and through the
     logs that a lock's token or a steal brought it, which end with
     their senders' ACQUIRED), and the asking node catches up with every
     node whose releases another had acquired and it has not, until none
     is left.  Flushes are thus ordered across any chain of nodes (a flag
     passed on from node to node, NPB LU's hand-off through three
     nodes).

   The pulled notices join this node's log (notices.c), so that a lock's
   token passes them on as it does its own.  A flush thus costs one round
   trip per node, and invalidates only blocks that others wrote since
   this node last asked; a node that spins on a flush while nobody writes
   fetches nothing again.  */

#include "cluster-int.h"
#include <pthread.h>
#include <stdlib.h>
#include <string.h>

/* An answer holds at most this many bytes of notices; past it, the
   asking node acquires everything (as a lock's token does).  */
#define PULL_MAX (64 * 1024)

/* An answer: [uint64 release number][uint64 ACQUIRED of every node]
   [records].
   Its header's size and the room kept for each node's answer.  */
#define PULL_HDR ((size_t) 8 * (1 + gomp_cl_nodes))
#define PULL_CAP (PULL_HDR + PULL_MAX)

struct pull_req
{
  uint64_t since;
};

/* One pull at a time on a node: a thread that finds another's pull under
   way waits for it, then asks again, so that nobody proceeds past notices
   still being applied by another thread.  SEEN[R]: the last release of
   rank R this node has the notices of.  The requests and the answers'
   buffers (one per node) are allocated once and used under the mutex:
   a program may flush in a loop, and two nodes' buffers of 64 KiB are
   past malloc's mmap threshold.  */
static pthread_mutex_t pull_mutex = PTHREAD_MUTEX_INITIALIZER;
static uint64_t *pull_seen;
/* ACQUIRED[R]: at least PULL_SEEN[R], and also what the logs other nodes
   passed on held (their senders' ACQUIRED).  What this node names in its
   answers; never used to skip a question of its own.  */
static uint64_t *acquired;
static struct gomp_cl_pending *pull_w;
static struct pull_req *pull_rq;
static char *pull_replies;
static size_t *pull_lens;

/* Raises *P to at least SEQ.  */
static void
raise_to (uint64_t *p, uint64_t seq)
{
  uint64_t cur = __atomic_load_n (p, __ATOMIC_RELAXED);
  while (seq > cur
	 && !__atomic_compare_exchange_n (p, &cur, seq, true,
					  __ATOMIC_RELEASE, __ATOMIC_RELAXED))
    ;
}

/* Answers a pull: [uint64 release number][ACQUIRED][records].  */
static void
pull_handler (int src, const void *msg, size_t len, uint64_t token)
{
  struct pull_req rq;
  if (len != sizeof rq)
    gomp_cl_fatal ("a bad pull request arrived from rank %d", src);
  memcpy (&rq, msg, sizeof rq);
  if (!gomp_cl_release_trylock ())
    {
      gomp_cl_defer ();
      return;
    }
  uint32_t *home;
  int nh = gomp_dsm_unreleased (&home);
  if (nh < 0)
    {
      gomp_cl_release_unlock ();
      gomp_cl_defer ();
      return;
    }
  size_t hdr = PULL_HDR;
  char *out = malloc (PULL_CAP);
  if (!out)
    gomp_cl_fatal ("out of memory for write notices");
  uint64_t seq;
  size_t off = gomp_cl_log_pack_since (rq.since, out + hdr, PULL_MAX, &seq);
  /* What this node had acquired when its releases so far were made, or
     later: read with the release lock held, after the log.  */
  gomp_cl_acquired_pack (out + 8);
  gomp_cl_release_unlock ();
  size_t hlen = (size_t) nh * 4;
  if (off == SIZE_MAX || off + (hlen ? 8 + hlen : 0) > PULL_MAX)
    off = gomp_cl_log_all_record (out + hdr);
  else if (hlen)
    {
      int32_t origin = gomp_cl_rank;
      uint32_t n = hlen;
      memcpy (out + hdr + off, &origin, 4);
      memcpy (out + hdr + off + 4, &n, 4);
      memcpy (out + hdr + off + 8, home, hlen);
      off += 8 + hlen;
    }
  free (home);
  memcpy (out, &seq, 8);
  gomp_cl_reply (src, token, out, hdr + off);
  free (out);
}

/* Applies the answers REPLIES (LENS[R] bytes from rank R, for the ranks
   with ASKED[R]) as one packed log, and marks their releases seen.  With
   CAP, a label needed from an asked rank is no more than its answer's
   release number (gomp_cl_catch_up).  Then the releases the answering
   nodes had acquired of the others are needed here too (the next
   gomp_cl_catch_up asks for them).  With pull_mutex.  */
static void
pull_apply (const bool *asked, bool cap)
{
  int nodes = gomp_cl_nodes, me = gomp_cl_rank;
  size_t hdr = PULL_HDR, total = 0;
  for (int r = 0; r < nodes; r++)
    if (asked[r])
      {
	if (pull_lens[r] < hdr || pull_lens[r] > PULL_CAP)
	  gomp_cl_fatal ("a bad answer to a pull arrived from rank %d "
			 "(%zu bytes)", r, pull_lens[r]);
	total += pull_lens[r] - hdr;
      }
  /* The records of every answer, one after the other: a packed log.  */
  char *all = total ? malloc (total) : NULL;
  if (total && !all)
    gomp_cl_fatal ("out of memory for write notices");
  size_t off = 0;
  for (int r = 0; r < nodes; r++)
    if (asked[r])
      {
	const char *p = pull_replies + (size_t) r * PULL_CAP;
	memcpy (all + off, p + hdr, pull_lens[r] - hdr);
	off += pull_lens[r] - hdr;
      }
  /* The labels needed before this acquire: its prefetches may raise
     them (below).  */
  uint64_t before[nodes];
  for (int r = 0; r < nodes; r++)
    before[r] = __atomic_load_n (&gomp_dsm_need[r], __ATOMIC_ACQUIRE);
  if (total)
    {
      gomp_cl_log_merge (all, total);
      gomp_cl_acquire_packed (all, total, false);
      free (all);
    }
  /* Only now: another thread of this node that finds these releases
     seen (gomp_cl_catch_up reads SEEN without the mutex) must find
     their invalidations done.  */
  for (int r = 0; r < nodes; r++)
    if (asked[r])
      {
	uint64_t seq;
	memcpy (&seq, pull_replies + (size_t) r * PULL_CAP, 8);
	gomp_cl_pull_seen (r, seq);
	/* A label counted before its release was logged: the answer,
	   given once that release was done, held everything up to it.
	   Not one that this acquire's prefetches brought: a block served
	   by a third node (its home) may hold a release of R that R did
	   after its answer, and the next round must acquire that release
	   (NPB LU at 3 x 1: a flag seen, its data read stale, about one
	   run in four).  */
	uint64_t need = __atomic_load_n (&gomp_dsm_need[r], __ATOMIC_ACQUIRE);
	if (cap && need > pull_seen[r] && need <= before[r])
	  __atomic_compare_exchange_n (&gomp_dsm_need[r], &need, pull_seen[r],
				       false, __ATOMIC_RELEASE,
				       __ATOMIC_RELAXED);
      }
  for (int r = 0; r < nodes; r++)
    if (asked[r])
      for (int q = 0; q < nodes; q++)
	{
	  uint64_t s;
	  memcpy (&s, pull_replies + (size_t) r * PULL_CAP + 8 + (size_t) q * 8,
		  8);
	  if (q != me && q != r && s > pull_seen[q])
	    raise_to (&gomp_dsm_need[q], s);
	}
}

void
gomp_cl_pull_seen (int r, uint64_t seq)
{
  raise_to (&pull_seen[r], seq);
  raise_to (&acquired[r], seq);
}

void
gomp_cl_acquired_pack (void *buf)
{
  for (int r = 0; r < gomp_cl_nodes; r++)
    {
      uint64_t s = __atomic_load_n (&acquired[r], __ATOMIC_ACQUIRE);
      memcpy ((char *) buf + (size_t) r * 8, &s, 8);
    }
}

void
gomp_cl_acquired_merge (const void *buf)
{
  for (int r = 0; r < gomp_cl_nodes; r++)
    if (r != gomp_cl_rank)
      {
	uint64_t s;
	memcpy (&s, (const char *) buf + (size_t) r * 8, 8);
	raise_to (&acquired[r], s);
      }
}

uint64_t
gomp_cl_seen (int r)
{
  return __atomic_load_n (&pull_seen[r], __ATOMIC_ACQUIRE);
}

void
gomp_cl_catch_up (bool in_fault)
{
  int nodes = gomp_cl_nodes, me = gomp_cl_rank;
  bool any = false;
  for (int r = 0; r < nodes; r++)
    if (r != me && __atomic_load_n (&gomp_dsm_need[r], __ATOMIC_ACQUIRE)
		   > __atomic_load_n (&pull_seen[r], __ATOMIC_RELAXED))
      any = true;
  if (!any)
    return;
  pthread_mutex_lock (&pull_mutex);
  /* Rounds until no label is left: an answer can name a release of a
     third node that its node had acquired (pull_apply).  Each round
     asks only for completed releases, so the rounds end.  */
  for (;;)
    {
      bool asked[nodes], more = false;
      for (int r = 0; r < nodes; r++)
	{
	  asked[r] = r != me && __atomic_load_n (&gomp_dsm_need[r],
						 __ATOMIC_ACQUIRE)
				> pull_seen[r];
	  if (!asked[r])
	    continue;
	  more = true;
	  pull_rq[r].since = pull_seen[r];
	  memset (&pull_w[r], 0, sizeof pull_w[r]);
	  gomp_cl_call_async (r, GOMP_CL_TAG_PULL, &pull_rq[r],
			      sizeof pull_rq[r],
			      pull_replies + (size_t) r * PULL_CAP, PULL_CAP,
			      &pull_w[r]);
	}
      if (!more)
	break;
      for (int r = 0; r < nodes; r++)
	if (asked[r])
	  pull_lens[r] = in_fault ? gomp_cl_call_wait (&pull_w[r])
			 : gomp_cl_call_wait_serving (&pull_w[r]);
      pull_apply (asked, true);
    }
  pthread_mutex_unlock (&pull_mutex);
  __atomic_fetch_add (&gomp_cl_sync.pulls, 1, __ATOMIC_RELAXED);
}

void
gomp_cl_pull_init (void)
{
  int nodes = gomp_cl_nodes;
  pull_seen = calloc (nodes, sizeof *pull_seen);
  acquired = calloc (nodes, sizeof *acquired);
  pull_w = calloc (nodes, sizeof *pull_w);
  pull_rq = calloc (nodes, sizeof *pull_rq);
  pull_replies = malloc ((size_t) nodes * PULL_CAP);
  pull_lens = calloc (nodes, sizeof *pull_lens);
  if (!pull_seen || !acquired || !pull_w || !pull_rq || !pull_replies
      || !pull_lens)
    gomp_cl_fatal ("out of memory");
  gomp_cl_register (GOMP_CL_TAG_PULL, pull_handler);
  gomp_dsm_seen = pull_seen;
  gomp_dsm_catch_up = gomp_cl_catch_up;
}

void
gomp_cl_acquire_pull (void)
{
  int nodes = gomp_cl_nodes, me = gomp_cl_rank;
  size_t cap = PULL_CAP;

  pthread_mutex_lock (&pull_mutex);
  struct gomp_cl_pending *w = pull_w;
  struct pull_req *rq = pull_rq;
  char *replies = pull_replies;
  size_t *lens = pull_lens;
  memset (w, 0, nodes * sizeof *w);
  for (int r = 0; r < nodes; r++)
    if (r != me)
      {
	rq[r].since = pull_seen[r];
	gomp_cl_call_async (r, GOMP_CL_TAG_PULL, &rq[r], sizeof rq[r],
			    replies + (size_t) r * cap, cap, &w[r]);
      }
  bool asked[nodes];
  for (int r = 0; r < nodes; r++)
    {
      asked[r] = r != me;
      if (asked[r])
	lens[r] = gomp_cl_call_wait_serving (&w[r]);
    }
  pull_apply (asked, false);
  pthread_mutex_unlock (&pull_mutex);
  __atomic_fetch_add (&gomp_cl_sync.pulls, 1, __ATOMIC_RELAXED);
  /* The blocks this pull's acquire fetched again may be newer still, and
     the answers may name releases of other nodes acquired meanwhile.  */
  gomp_cl_catch_up (false);
}
