/* notices.c -- this node's log of write notices since the last barrier.

   A release (gomp_dsm_release) yields a blob of write notices naming what
   this node wrote since its previous release.  Other nodes must see those
   blobs at their next acquire that follows this release: all of them at a
   barrier, the lock holder's at a lock hand-off.  OpenMP makes that
   visibility transitive (every flush is ordered with every other), so a
   token carries every blob its node has produced or received since the
   last barrier; the barrier then sends each node's own blobs to everybody
   and empties every log.  Identical blobs (the same pages written again,
   e.g. a counter updated in a critical handed around thousands of times)
   are kept once; a log too long for a token is replaced by "acquire
   everything" (GOMP_CL_LOG_MAX).  The blob format is the DSM's: this file
   only stores, compares and forwards them.  */

#include "cluster-int.h"
#include "../dsm/report.h"
#include <pthread.h>
#include <stdlib.h>
#include <string.h>

struct gomp_cl_entry
{
  int origin;
  uint32_t len;
  uint64_t hash;
  uint64_t seq;			/* Own entries: when last released.  */
  struct gomp_cl_entry *next;
  unsigned char data[];
};

static pthread_mutex_t gomp_cl_log_mutex = PTHREAD_MUTEX_INITIALIZER;
static struct gomp_cl_entry *gomp_cl_log_head, **gomp_cl_log_tail
  = &gomp_cl_log_head;

/* A lock's token carries at most this many bytes of log.  A longer log
   (many different pages written between barriers) travels as one record
   of origin GOMP_CL_LOG_ALL, which tells the receiver to acquire
   everything (gomp_dsm_acquire_all); a node that received it passes it on
   until the next barrier, since it no longer knows the entries it
   stands for.  */
#define GOMP_CL_LOG_MAX (64 * 1024)
#define GOMP_CL_LOG_ALL (-1)
/* A record only a region's dispatch carries, never kept in a log: the
   blocks rank 0 pushes (gomp_dsm_push_pack).  */
#define GOMP_CL_LOG_PUSH (-2)
/* A record only a barrier's contribution carries, never kept in a log:
   the node's proposals to hand blocks over (gomp_dsm_handoff_pack).  */
#define GOMP_CL_LOG_HANDOFF (-3)
/* A record that a log packed for another node (a lock's token, a steal)
   ends with, never kept in a log: the releases of each node the sender
   had acquired (gomp_cl_acquired_pack), which the receiver, having
   acquired the log, names in its answers to pulls (pull.c).  */
#define GOMP_CL_LOG_SEEN (-4)
/* Rank 0's entry in a barrier's contribution that every node acquired
   with a region's dispatch already (gomp_cl_log_pack_barrier), never
   kept in a log: the homes still learn from it who wrote what in the
   interval (gomp_cl_handoffs_apply), but no node acquires it again.
   Acquired again, it made every other node invalidate once more, in
   every region, the block of rank 0's stack that holds the region's
   data, which the dispatch had just sent along (gomp_cl_log_push).  */
#define GOMP_CL_LOG_DISPATCHED (-5)
/* A record only a barrier's contribution carries, never kept in a log:
   the number of the release (uint64) that last yielded the own entry
   that follows.  A node that pulled that release already (pull.c)
   acquired the entry then and does not acquire it again: acquired
   twice, it invalidated once more the blocks the pull had prefetched,
   which were still unused (the pull came early, in the middle of an
   interval), so that they went invalid and the next loop faulted on
   each of them (NPB CG at 2 x 1: rank 1, whose remote atomics into a
   reduction variable on rank 0's stack pulled rank 0's writes of its
   half of p ahead of the barrier, read that half block by block in
   every iteration, ~4,800 faults).  */
#define GOMP_CL_LOG_SEQ (-6)
static size_t gomp_cl_log_bytes;
/* Rank 0: the last release its last region's dispatch carried the
   notices of (gomp_cl_log_dispatched).  */
static uint64_t gomp_cl_dispatched_upto;
static bool gomp_cl_log_all;
/* This node's releases so far, never reset: an own entry's seq is the
   number of the last release that yielded it, and another node that
   pulled everything up to S asks for the entries past S (pull.c).  */
static uint64_t gomp_cl_own_seq;
/* Held across a whole release (the DSM's and the log's part), so that a
   pull served meanwhile sees either all of it or none.  */
static pthread_mutex_t gomp_cl_rel_mutex = PTHREAD_MUTEX_INITIALIZER;

static uint64_t
gomp_cl_hash (const unsigned char *p, size_t len)
{
  uint64_t h = 14695981039346656037ULL;
  for (size_t i = 0; i < len; i++)
    h = (h ^ p[i]) * 1099511628211ULL;
  return h;
}

void
gomp_cl_log_add (int origin, const void *blob, size_t len)
{
  if (len == 0)
    return;
  uint64_t h = gomp_cl_hash (blob, len);
  pthread_mutex_lock (&gomp_cl_log_mutex);
  uint64_t seq = origin == gomp_cl_rank ? ++gomp_cl_own_seq : 0;
  for (struct gomp_cl_entry *e = gomp_cl_log_head; e; e = e->next)
    if (e->hash == h && e->len == len && e->origin == origin
	&& memcmp (e->data, blob, len) == 0)
      {
	/* Released again: nodes that pulled it already need it again.  */
	e->seq = seq;
	pthread_mutex_unlock (&gomp_cl_log_mutex);
	return;
      }
  struct gomp_cl_entry *e = malloc (sizeof *e + len);
  if (!e)
    gomp_cl_fatal ("out of memory for write notices");
  e->origin = origin;
  e->len = len;
  e->hash = h;
  e->seq = seq;
  e->next = NULL;
  memcpy (e->data, blob, len);
  *gomp_cl_log_tail = e;
  gomp_cl_log_tail = &e->next;
  gomp_cl_log_bytes += 8 + len;
  pthread_mutex_unlock (&gomp_cl_log_mutex);
}

void
gomp_cl_release (void)
{
  void *blob = NULL;
  gomp_cl_output_release ();
  pthread_mutex_lock (&gomp_cl_rel_mutex);
  size_t len = gomp_dsm_release (&blob);
  gomp_cl_log_add (gomp_cl_rank, blob, len);
  pthread_mutex_unlock (&gomp_cl_rel_mutex);
  free (blob);
}

uint64_t
gomp_cl_log_own_seq (void)
{
  return __atomic_load_n (&gomp_cl_own_seq, __ATOMIC_ACQUIRE);
}

bool
gomp_cl_release_trylock (void)
{
  return pthread_mutex_trylock (&gomp_cl_rel_mutex) == 0;
}

void
gomp_cl_release_unlock (void)
{
  pthread_mutex_unlock (&gomp_cl_rel_mutex);
}

size_t
gomp_cl_log_pack_since (uint64_t since, void *buf, size_t max,
			uint64_t *seq)
{
  size_t off = 0;
  unsigned char *p = buf;
  pthread_mutex_lock (&gomp_cl_log_mutex);
  *seq = gomp_cl_own_seq;
  for (struct gomp_cl_entry *e = gomp_cl_log_head; e; e = e->next)
    if (e->origin == gomp_cl_rank && e->seq > since)
      {
	if (off + 8 + e->len > max)
	  {
	    off = SIZE_MAX;
	    break;
	  }
	int32_t origin = e->origin;
	memcpy (p + off, &origin, 4);
	memcpy (p + off + 4, &e->len, 4);
	memcpy (p + off + 8, e->data, e->len);
	off += 8 + e->len;
      }
  pthread_mutex_unlock (&gomp_cl_log_mutex);
  return off;
}

size_t
gomp_cl_log_all_record (void *buf)
{
  int32_t origin = GOMP_CL_LOG_ALL;
  uint32_t zero = 0;
  memcpy (buf, &origin, 4);
  memcpy ((char *) buf + 4, &zero, 4);
  return 8;
}

size_t
gomp_cl_log_push (void **buf, size_t len)
{
  void *push;
  size_t plen = gomp_dsm_push_pack (&push);
  if (!plen)
    return len;
  unsigned char *p = realloc (*buf, len + 8 + plen);
  if (!p)
    gomp_cl_fatal ("out of memory for write notices");
  int32_t origin = GOMP_CL_LOG_PUSH;
  uint32_t n = plen;
  memcpy (p + len, &origin, 4);
  memcpy (p + len + 4, &n, 4);
  memcpy (p + len + 8, push, plen);
  free (push);
  *buf = p;
  return len + 8 + plen;
}

/* Appends the GOMP_CL_LOG_SEEN record at P + OFF (room for it kept).  */
static size_t
put_seen (unsigned char *p, size_t off)
{
  int32_t origin = GOMP_CL_LOG_SEEN;
  uint32_t n = (uint32_t) gomp_cl_nodes * 8;
  memcpy (p + off, &origin, 4);
  memcpy (p + off + 4, &n, 4);
  gomp_cl_acquired_pack (p + off + 8);
  return off + 8 + n;
}

void
gomp_cl_log_dispatched (uint64_t seq)
{
  pthread_mutex_lock (&gomp_cl_log_mutex);
  gomp_cl_dispatched_upto = seq;
  pthread_mutex_unlock (&gomp_cl_log_mutex);
}

/* gomp_cl_log_pack; own entries released at or before DISPATCHED go
   as GOMP_CL_LOG_DISPATCHED records; with WITH_SEQ, every other own
   entry follows a GOMP_CL_LOG_SEQ record.  */
static size_t
log_pack (void **buf, bool own_only, uint64_t dispatched, bool with_seq)
{
  size_t size = 0, off = 0;
  size_t seen = own_only ? 0 : 8 + (size_t) gomp_cl_nodes * 8;
  unsigned char *p;

  pthread_mutex_lock (&gomp_cl_log_mutex);
  if (!own_only && (gomp_cl_log_all || gomp_cl_log_bytes > GOMP_CL_LOG_MAX))
    {
      int32_t origin = GOMP_CL_LOG_ALL;
      uint32_t zero = 0;
      p = malloc (8 + seen);
      if (!p)
	gomp_cl_fatal ("out of memory for write notices");
      memcpy (p, &origin, 4);
      memcpy (p + 4, &zero, 4);
      pthread_mutex_unlock (&gomp_cl_log_mutex);
      *buf = p;
      return put_seen (p, 8);
    }
  for (struct gomp_cl_entry *e = gomp_cl_log_head; e; e = e->next)
    if (!own_only || e->origin == gomp_cl_rank)
      size += 8 + e->len + (with_seq && e->origin == gomp_cl_rank
			    && e->seq > dispatched ? 16 : 0);
  if (size + seen == 0)
    {
      /* Nothing released since the last barrier: the usual case.  */
      pthread_mutex_unlock (&gomp_cl_log_mutex);
      *buf = NULL;
      return 0;
    }
  p = malloc (size + seen);
  if (!p)
    gomp_cl_fatal ("out of memory for write notices");
  for (struct gomp_cl_entry *e = gomp_cl_log_head; e; e = e->next)
    if (!own_only || e->origin == gomp_cl_rank)
      {
	int32_t origin = e->origin;
	if (origin == gomp_cl_rank && e->seq <= dispatched)
	  origin = GOMP_CL_LOG_DISPATCHED;
	else if (origin == gomp_cl_rank && with_seq)
	  {
	    int32_t tag = GOMP_CL_LOG_SEQ;
	    uint32_t eight = 8;
	    memcpy (p + off, &tag, 4);
	    memcpy (p + off + 4, &eight, 4);
	    memcpy (p + off + 8, &e->seq, 8);
	    off += 16;
	  }
	memcpy (p + off, &origin, 4);
	memcpy (p + off + 4, &e->len, 4);
	memcpy (p + off + 8, e->data, e->len);
	off += 8 + e->len;
      }
  pthread_mutex_unlock (&gomp_cl_log_mutex);
  *buf = p;
  return own_only ? size : put_seen (p, size);
}

size_t
gomp_cl_log_pack (void **buf, bool own_only)
{
  return log_pack (buf, own_only, 0, false);
}

size_t
gomp_cl_log_pack_barrier (void **buf)
{
  uint64_t dispatched = __atomic_load_n (&gomp_cl_dispatched_upto,
					 __ATOMIC_RELAXED);
  return log_pack (buf, true, dispatched, true);
}

/* Calls F on every record of the packed log BUF.  */
static void
gomp_cl_log_each (const void *buf, size_t len,
		  void (*f) (int, const unsigned char *, uint32_t, void *),
		  void *arg)
{
  const unsigned char *p = buf;
  size_t off = 0;
  while (off + 8 <= len)
    {
      int32_t origin;
      uint32_t n;
      memcpy (&origin, p + off, 4);
      memcpy (&n, p + off + 4, 4);
      if (n > len - off - 8)
	gomp_cl_fatal ("a corrupt list of write notices arrived (record of "
		       "%u bytes, %zu left)", n, len - off - 8);
      f (origin, p + off + 8, n, arg);
      off += 8 + n;
    }
}

static void
gomp_cl_merge_one (int origin, const unsigned char *data, uint32_t n,
		   void *arg)
{
  if (origin == GOMP_CL_LOG_ALL)
    {
      pthread_mutex_lock (&gomp_cl_log_mutex);
      gomp_cl_log_all = true;
      pthread_mutex_unlock (&gomp_cl_log_mutex);
    }
  else if (origin != gomp_cl_rank && origin >= 0)
    gomp_cl_log_add (origin, data, n);
}

void
gomp_cl_log_merge (const void *buf, size_t len)
{
  gomp_cl_log_each (buf, len, gomp_cl_merge_one, NULL);
}

struct gomp_cl_blobs
{
  const void **blobs;
  size_t *lens;
  int n;
  bool all;
  const void *push;
  size_t push_len;
  /* A barrier's contribution: its entries released at or before
     PULLED were acquired already (GOMP_CL_LOG_SEQ); SKIP: the next
     entry is one of them.  */
  uint64_t pulled;
  bool skip;
};

/* Whether the record of ORIGIN (of N bytes at DATA) is an entry B takes:
   not a GOMP_CL_LOG_SEQ record (which it reads) nor the entry after one
   that names a release acquired already.  */
static bool
gomp_cl_entry_taken (struct gomp_cl_blobs *b, int origin,
		     const unsigned char *data, uint32_t n)
{
  if (origin == GOMP_CL_LOG_SEQ)
    {
      uint64_t seq;
      if (n != 8)
	gomp_cl_fatal ("a corrupt list of write notices arrived (release "
		       "number of %u bytes)", n);
      memcpy (&seq, data, 8);
      b->skip = seq <= b->pulled;
      return false;
    }
  bool skip = b->skip;
  b->skip = false;
  return origin >= 0 && !skip;
}

static void
gomp_cl_count_one (int origin, const unsigned char *data, uint32_t n,
		   void *arg)
{
  struct gomp_cl_blobs *b = arg;
  if (origin == GOMP_CL_LOG_ALL)
    b->all = true;
  else if (origin == GOMP_CL_LOG_PUSH)
    {
      b->push = data;
      b->push_len = n;
    }
  else if (gomp_cl_entry_taken (b, origin, data, n)
	   && origin != gomp_cl_rank)
    b->n++;
}

/* What a log's sender had acquired (every such record: a lock's token
   may hold the logs of several hand-offs) is acquired here now.  */
static void
gomp_cl_seen_one (int origin, const unsigned char *data, uint32_t n,
		  void *arg)
{
  if (origin != GOMP_CL_LOG_SEEN)
    return;
  if (n != (uint32_t) gomp_cl_nodes * 8)
    gomp_cl_fatal ("a corrupt list of write notices arrived (releases "
		   "acquired: %u bytes)", n);
  gomp_cl_acquired_merge (data);
}

/* gomp_dsm_acquire takes one blob per slot and skips the slot whose index
   is this node's rank; keep that slot empty.  */
static void
gomp_cl_collect_one (int origin, const unsigned char *data, uint32_t n,
		     void *arg)
{
  struct gomp_cl_blobs *b = arg;
  if (!gomp_cl_entry_taken (b, origin, data, n) || origin == gomp_cl_rank)
    return;
  if (b->n == gomp_cl_rank)
    {
      b->blobs[b->n] = NULL;
      b->lens[b->n++] = 0;
    }
  b->blobs[b->n] = data;
  b->lens[b->n++] = n;
}

/* The sharing report's view of a barrier's notices, by origin.  */
static void
gomp_cl_report_one (int origin, const unsigned char *data, uint32_t n,
		    void *arg)
{
  if (origin == GOMP_CL_LOG_DISPATCHED)
    origin = 0;
  if (origin >= 0)
    gomp_dsm_report_notices (origin, data, n / 4);
}

static void
acquire_packed (const void *buf, size_t len, bool quiescent, bool use_push,
		bool use_notices, uint64_t pulled)
{
  struct gomp_cl_blobs b = { NULL, NULL, 0, false, NULL, 0, pulled, false };

  if (gomp_dsm_report_on && quiescent)
    gomp_cl_log_each (buf, len, gomp_cl_report_one, NULL);
  gomp_cl_log_each (buf, len, gomp_cl_count_one, &b);
  if (!use_notices)
    {
      /* Only the pushed blocks, if any.  */
      if (b.push && use_push)
	gomp_dsm_acquire_push (NULL, NULL, 0, b.push, b.push_len, 0);
      return;
    }
  if (b.all)
    gomp_dsm_acquire_all ();
  if (b.all || (b.n == 0 && !b.push))
    {
      gomp_cl_log_each (buf, len, gomp_cl_seen_one, NULL);
      return;
    }
  int slots = b.n + 1;
  b.blobs = malloc (slots * sizeof *b.blobs);
  b.lens = malloc (slots * sizeof *b.lens);
  if (!b.blobs || !b.lens)
    gomp_cl_fatal ("out of memory for write notices");
  b.n = 0;
  b.skip = false;
  gomp_cl_log_each (buf, len, gomp_cl_collect_one, &b);
  if (b.push && use_push)
    /* Only a region's dispatch, from rank 0, carries pushed blocks.  */
    gomp_dsm_acquire_push (b.blobs, b.lens, b.n, b.push, b.push_len, 0);
  else
    gomp_dsm_acquire (b.blobs, b.lens, b.n, quiescent);
  gomp_cl_log_each (buf, len, gomp_cl_seen_one, NULL);
  free (b.blobs);
  free (b.lens);
}

void
gomp_cl_acquire_packed (const void *buf, size_t len, bool quiescent)
{
  acquire_packed (buf, len, quiescent, false, true, 0);
}

void
gomp_cl_acquire_contrib (const void *buf, size_t len, uint64_t pulled)
{
  acquire_packed (buf, len, true, false, true, pulled);
}

void
gomp_cl_acquire_dispatch (const void *buf, size_t len, bool push,
			  bool notices)
{
  acquire_packed (buf, len, false, push, notices, 0);
}

void
gomp_cl_log_clear (void)
{
  struct gomp_cl_entry *e, *next;

  pthread_mutex_lock (&gomp_cl_log_mutex);
  e = gomp_cl_log_head;
  gomp_cl_log_head = NULL;
  gomp_cl_log_tail = &gomp_cl_log_head;
  gomp_cl_log_bytes = 0;
  gomp_cl_log_all = false;
  pthread_mutex_unlock (&gomp_cl_log_mutex);
  for (; e; e = next)
    {
      next = e->next;
      free (e);
    }
}

size_t
gomp_cl_handoffs_pack (void **buf)
{
  void *recs;
  size_t len = gomp_dsm_handoff_pack (&recs);
  *buf = NULL;
  if (!len)
    return 0;
  unsigned char *p = malloc (8 + len);
  if (!p || len > UINT32_MAX)
    gomp_cl_fatal ("out of memory for home hand-offs");
  int32_t origin = GOMP_CL_LOG_HANDOFF;
  uint32_t n = len;
  memcpy (p, &origin, 4);
  memcpy (p + 4, &n, 4);
  memcpy (p + 8, recs, len);
  free (recs);
  *buf = p;
  return 8 + len;
}

struct gomp_cl_handoffs
{
  const void **recs;
  size_t *rec_lens;
  int node;			/* Whose contribution is being read.  */
  const void **blobs;
  size_t *lens;
  int *origins;
  int n, cap;
};

static void
gomp_cl_handoff_one (int origin, const unsigned char *data, uint32_t n,
		     void *arg)
{
  struct gomp_cl_handoffs *h = arg;
  if (origin == GOMP_CL_LOG_DISPATCHED)
    origin = 0;
  if (origin == GOMP_CL_LOG_HANDOFF)
    {
      h->recs[h->node] = data;
      h->rec_lens[h->node] = n;
    }
  else if (origin >= 0)
    {
      if (h->n == h->cap)
	{
	  h->cap = h->cap ? 2 * h->cap : 64;
	  h->blobs = realloc (h->blobs, h->cap * sizeof *h->blobs);
	  h->lens = realloc (h->lens, h->cap * sizeof *h->lens);
	  h->origins = realloc (h->origins, h->cap * sizeof *h->origins);
	  if (!h->blobs || !h->lens || !h->origins)
	    gomp_cl_fatal ("out of memory for home hand-offs");
	}
      h->blobs[h->n] = data;
      h->lens[h->n] = n;
      h->origins[h->n++] = origin;
    }
}

void
gomp_cl_handoffs_apply (const unsigned char *const *data,
			const size_t *lens)
{
  int nodes = gomp_cl_nodes;
  const void *recs[nodes];
  size_t rec_lens[nodes];
  struct gomp_cl_handoffs h = { .recs = recs, .rec_lens = rec_lens };
  memset (recs, 0, sizeof recs);
  memset (rec_lens, 0, sizeof rec_lens);
  /* The proposals, and the write notices of the barrier (the arrays grow
     from none: a barrier without notices allocates nothing): the homes
     learn from them who wrote their blocks in the interval that ends
     here.  */
  for (h.node = 0; h.node < nodes; h.node++)
    gomp_cl_log_each (data[h.node], lens[h.node], gomp_cl_handoff_one, &h);
  gomp_dsm_handoff_apply (h.recs, h.rec_lens, h.blobs, h.lens, h.origins,
			  h.n);
  free (h.blobs);
  free (h.lens);
  free (h.origins);
}
