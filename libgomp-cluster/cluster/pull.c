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
     too.

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
static struct gomp_cl_pending *pull_w;
static struct pull_req *pull_rq;
static char *pull_replies;
static size_t *pull_lens;

/* Answers a pull: [uint64 release number][records].  */
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
  char *out = malloc (8 + PULL_MAX);
  if (!out)
    gomp_cl_fatal ("out of memory for write notices");
  uint64_t seq;
  size_t off = gomp_cl_log_pack_since (rq.since, out + 8, PULL_MAX, &seq);
  gomp_cl_release_unlock ();
  size_t hlen = (size_t) nh * 4;
  if (off == SIZE_MAX || off + (hlen ? 8 + hlen : 0) > PULL_MAX)
    off = gomp_cl_log_all_record (out + 8);
  else if (hlen)
    {
      int32_t origin = gomp_cl_rank;
      uint32_t n = hlen;
      memcpy (out + 8 + off, &origin, 4);
      memcpy (out + 8 + off + 4, &n, 4);
      memcpy (out + 8 + off + 8, home, hlen);
      off += 8 + hlen;
    }
  free (home);
  memcpy (out, &seq, 8);
  gomp_cl_reply (src, token, out, 8 + off);
  free (out);
}

/* Applies the answers REPLIES (LENS[R] bytes from rank R, for the ranks
   with ASKED[R]) as one packed log.  With pull_mutex.  */
static void
pull_apply (const bool *asked)
{
  int nodes = gomp_cl_nodes;
  size_t cap = 8 + PULL_MAX, total = 0;
  for (int r = 0; r < nodes; r++)
    if (asked[r])
      {
	if (pull_lens[r] < 8 || pull_lens[r] > cap)
	  gomp_cl_fatal ("a bad answer to a pull arrived from rank %d "
			 "(%zu bytes)", r, pull_lens[r]);
	total += pull_lens[r] - 8;
      }
  /* The records of every answer, one after the other: a packed log.  */
  char *all = total ? malloc (total) : NULL;
  if (total && !all)
    gomp_cl_fatal ("out of memory for write notices");
  size_t off = 0;
  for (int r = 0; r < nodes; r++)
    if (asked[r])
      {
	const char *p = pull_replies + (size_t) r * cap;
	memcpy (all + off, p + 8, pull_lens[r] - 8);
	off += pull_lens[r] - 8;
      }
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
	memcpy (&seq, pull_replies + (size_t) r * cap, 8);
	gomp_cl_pull_seen (r, seq);
      }
}

void
gomp_cl_pull_seen (int r, uint64_t seq)
{
  uint64_t cur = __atomic_load_n (&pull_seen[r], __ATOMIC_RELAXED);
  while (seq > cur
	 && !__atomic_compare_exchange_n (&pull_seen[r], &cur, seq, true,
					  __ATOMIC_RELEASE, __ATOMIC_RELAXED))
    ;
}

void
gomp_cl_catch_up (bool in_fault)
{
  int nodes = gomp_cl_nodes, me = gomp_cl_rank;
  size_t cap = 8 + PULL_MAX;
  bool any = false;
  for (int r = 0; r < nodes; r++)
    if (r != me && __atomic_load_n (&gomp_dsm_need[r], __ATOMIC_ACQUIRE)
		   > __atomic_load_n (&pull_seen[r], __ATOMIC_RELAXED))
      any = true;
  if (!any)
    return;
  pthread_mutex_lock (&pull_mutex);
  bool asked[nodes];
  for (int r = 0; r < nodes; r++)
    {
      asked[r] = r != me && __atomic_load_n (&gomp_dsm_need[r],
					     __ATOMIC_ACQUIRE) > pull_seen[r];
      if (!asked[r])
	continue;
      pull_rq[r].since = pull_seen[r];
      memset (&pull_w[r], 0, sizeof pull_w[r]);
      gomp_cl_call_async (r, GOMP_CL_TAG_PULL, &pull_rq[r],
			  sizeof pull_rq[r], pull_replies + (size_t) r * cap,
			  cap, &pull_w[r]);
    }
  for (int r = 0; r < nodes; r++)
    if (asked[r])
      pull_lens[r] = in_fault ? gomp_cl_call_wait (&pull_w[r])
		     : gomp_cl_call_wait_serving (&pull_w[r]);
  pull_apply (asked);
  /* A label counted before its release was logged: the answer, given
     once that release was done, held everything up to it.  */
  for (int r = 0; r < nodes; r++)
    if (asked[r])
      {
	uint64_t need = __atomic_load_n (&gomp_dsm_need[r], __ATOMIC_ACQUIRE);
	if (need > pull_seen[r])
	  __atomic_compare_exchange_n (&gomp_dsm_need[r], &need, pull_seen[r],
				       false, __ATOMIC_RELEASE,
				       __ATOMIC_RELAXED);
      }
  pthread_mutex_unlock (&pull_mutex);
  __atomic_fetch_add (&gomp_cl_sync.pulls, 1, __ATOMIC_RELAXED);
}

void
gomp_cl_pull_init (void)
{
  int nodes = gomp_cl_nodes;
  pull_seen = calloc (nodes, sizeof *pull_seen);
  pull_w = calloc (nodes, sizeof *pull_w);
  pull_rq = calloc (nodes, sizeof *pull_rq);
  pull_replies = malloc ((size_t) nodes * (8 + PULL_MAX));
  pull_lens = calloc (nodes, sizeof *pull_lens);
  if (!pull_seen || !pull_w || !pull_rq || !pull_replies || !pull_lens)
    gomp_cl_fatal ("out of memory");
  gomp_cl_register (GOMP_CL_TAG_PULL, pull_handler);
  gomp_dsm_seen = pull_seen;
  gomp_dsm_catch_up = gomp_cl_catch_up;
}

void
gomp_cl_acquire_pull (void)
{
  int nodes = gomp_cl_nodes, me = gomp_cl_rank;
  size_t cap = 8 + PULL_MAX;

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
  pull_apply (asked);
  pthread_mutex_unlock (&pull_mutex);
  __atomic_fetch_add (&gomp_cl_sync.pulls, 1, __ATOMIC_RELAXED);
  /* The blocks this pull's acquire fetched again may be newer still.  */
  gomp_cl_catch_up (false);
}
