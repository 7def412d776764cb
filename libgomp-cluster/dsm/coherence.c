/* coherence.c -- home-based lazy release consistency with multiple writers.

   Release: every block this node wrote without being its home (state
   WRITE, in the dirty list) is write-protected, compared with its twin and
   its diff -- the exact changed bytes -- sent to the home, batched per
   home; the release waits until every home has applied them.  Its write
   notices are those blocks plus the home blocks this node wrote while
   another node cached them (a write fault on HOME_RO) or changed by an
   atomic.  After a release a home forgets the copysets of the blocks it
   announced: every node that cached them before receives the notice (the
   cluster forwards every blob until the next barrier, which gives every
   node all of them), and a later fetch protects the home's copy again.

   Stack blocks are never write-protected at their home: glibc runs code
   with every signal blocked (pthread_create writes to its caller's stack
   after clone), and a fault there would kill the process.  Instead every
   release announces the home's stack blocks that other nodes fetched
   since the previous one, as if they had been written.

   Acquire: every non-home block named by a notice is invalidated; a block
   this node is writing at the same time (disjoint bytes, or a lock
   acquired while other local threads write) first sends its diff.

   A home serves a fetch from its writable view under the block's lock;
   when a local thread holds that lock (it is asking the manager, or
   running an atomic), the request is deferred, never waited for: the
   service thread must not block.  */

#include "dsm-int.h"
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>

#define DIFF_MSG_MAX (4u << 20)

static pthread_mutex_t rel_mutex = PTHREAD_MUTEX_INITIALIZER;

struct diff_buf
{
  char *p;
  size_t len, cap;
};

static int
cmp_u32 (const void *a, const void *b)
{
  uint32_t x = *(const uint32_t *) a, y = *(const uint32_t *) b;
  return x < y ? -1 : x > y;
}

/* Sorts and removes duplicates; returns the new count.  */
static uint32_t
sort_unique (uint32_t *v, uint32_t n)
{
  uint32_t k = 0;
  qsort (v, n, sizeof *v, cmp_u32);
  for (uint32_t i = 0; i < n; i++)
    if (k == 0 || v[k - 1] != v[i])
      v[k++] = v[i];
  return k;
}

/* Appends the diff of block B (its writable view against its twin) to D:
   uint32 block, uint32 run count, then per run uint32 offset, uint32
   length and the bytes.  Byte-exact, so that writers of disjoint bytes of
   one block never overwrite each other at the home.  */
static void
encode_diff (uint32_t b, struct diff_buf *d)
{
  size_t len = gomp_dsm_block_len (b);
  const unsigned char *cur = (unsigned char *) gomp_dsm_block_wview (b);
  const unsigned char *twin = (unsigned char *) gomp_dsm.twins
    + ((size_t) b << gomp_dsm.bshift);
  if (d->cap - d->len < 8 + 5 * len)
    {
      d->cap = (d->cap + 8 + 5 * len) * 2;
      d->p = realloc (d->p, d->cap);
      if (!d->p)
	gomp_dsm_fatal ("out of memory for diffs");
    }
  size_t start = d->len, pos = start + 8;
  uint32_t runs = 0;
  size_t i = 0;
  while (i < len)
    {
      if (!(i & 63) && i + 64 <= len && !memcmp (cur + i, twin + i, 64))
	{
	  i += 64;
	  continue;
	}
      if (cur[i] == twin[i])
	{
	  i++;
	  continue;
	}
      size_t s = i;
      while (i < len && cur[i] != twin[i])
	i++;
      uint32_t off = s, n = i - s;
      memcpy (d->p + pos, &off, 4);
      memcpy (d->p + pos + 4, &n, 4);
      memcpy (d->p + pos + 8, cur + s, n);
      pos += 8 + n;
      runs++;
    }
  if (!runs)
    return;
  memcpy (d->p + start, &b, 4);
  memcpy (d->p + start + 4, &runs, 4);
  d->len = pos;
  DSM_STAT (diffs, 1);
  DSM_STAT (diff_bytes, pos - start);
}

/* Sends every home its diffs and waits for all of them to be applied.  */
static void
send_diffs (struct diff_buf *d)
{
  int nodes = gomp_dsm.nodes;
  struct gomp_cl_pending *w = calloc (nodes, sizeof *w);
  if (!w)
    gomp_dsm_fatal ("out of memory");
  for (int h = 0; h < nodes; h++)
    if (d[h].len)
      gomp_cl_call_async (h, GOMP_CL_TAG_DIFF, d[h].p, d[h].len, NULL, 0,
			  &w[h]);
  for (int h = 0; h < nodes; h++)
    if (d[h].len)
      {
	gomp_cl_call_wait (&w[h]);
	d[h].len = 0;
      }
  free (w);
}

static void
diff_handler (int src, const void *msg, size_t len, uint64_t token)
{
  const char *p = msg, *end = p + len;
  while (p + 8 <= end)
    {
      uint32_t b, runs;
      memcpy (&b, p, 4);
      memcpy (&runs, p + 4, 4);
      p += 8;
      if (b >= gomp_dsm.nblocks)
	gomp_dsm_fatal ("corrupt diff (block %u)", b);
      char *w = gomp_dsm_block_wview (b);
      size_t blen = gomp_dsm_block_len (b);
      for (uint32_t r = 0; r < runs; r++)
	{
	  uint32_t off, n;
	  memcpy (&off, p, 4);
	  memcpy (&n, p + 4, 4);
	  if ((size_t) off + n > blen || p + 8 + n > end)
	    gomp_dsm_fatal ("corrupt diff (block %u)", b);
	  memcpy (w + off, p + 8, n);
	  p += 8 + n;
	}
    }
  gomp_cl_reply (src, token, NULL, 0);
}

/* Gives the requester block B and up to N-1 blocks after it (fetch-ahead)
   -- as many of them as are homed here and not busy.  */
static void
page_get_handler (int src, const void *msg, size_t len, uint64_t token)
{
  uint32_t req[2] = { 0, 1 };
  memcpy (req, msg, len < sizeof req ? len : sizeof req);
  uint32_t b = req[0], n = req[1], k;
  if (b >= gomp_dsm.nblocks || n == 0 || n > 64 || n > gomp_dsm.nblocks - b)
    gomp_dsm_fatal ("bad block request from rank %d (%u, %u)", src, b, n);
  /* Busy, or homed here by a claim whose answer has not arrived yet.  */
  if (__atomic_load_n (&gomp_dsm.home[b], __ATOMIC_ACQUIRE) < 0
      && gomp_dsm.policy == HOME_FIRST_TOUCH)
    {
      gomp_cl_defer ();
      return;
    }
  if (!gomp_dsm_trylock (b))
    {
      gomp_cl_defer ();
      return;
    }
  size_t bs = gomp_dsm_block_len (b);
  for (k = 1; k < n; k++)
    {
      uint32_t c = b + k;
      if (gomp_dsm_block_len (c) != bs
	  || gomp_dsm_block_addr (c) != gomp_dsm_block_addr (b) + k * bs)
	break;
      if (gomp_dsm.policy != HOME_FIRST_TOUCH)
	gomp_dsm_home (c);
      if (__atomic_load_n (&gomp_dsm.home[c], __ATOMIC_ACQUIRE)
	  != gomp_dsm.rank
	  || gomp_dsm_state (c) == BS_UNMANAGED || !gomp_dsm_trylock (c))
	break;
    }
  size_t size = (size_t) k * bs;
  char *copy = malloc (size);
  if (!copy)
    gomp_dsm_fatal ("out of memory");
  for (uint32_t i = 0; i < k; i++)
    {
      uint32_t c = b + i;
      if (__atomic_load_n (&gomp_dsm.home[c], __ATOMIC_ACQUIRE) < 0
	  && gomp_dsm.policy != HOME_FIRST_TOUCH)
	gomp_dsm_home (c);
      if (gomp_dsm.home[c] != gomp_dsm.rank)
	gomp_dsm_fatal ("rank %d asked for block %u, whose home is %d", src,
			c, gomp_dsm.home[c]);
      uint32_t st = gomp_dsm_state (c);
      bool stack = gomp_dsm_stack_block (c);
      if (stack)
	{
	  if (st == BS_INVALID)
	    {
	      gomp_dsm_protect (c, 1, PROT_READ | PROT_WRITE);
	      gomp_dsm_set_state (c, BS_HOME_RW);
	    }
	}
      else if (st == BS_INVALID
	       || (st == BS_HOME_RW && !gomp_dsm_noticed (c)))
	{
	  /* From now on the home's own writes must produce notices.  */
	  gomp_dsm_protect (c, 1, PROT_READ);
	  gomp_dsm_set_state (c, BS_HOME_RO);
	}
      if (!__atomic_fetch_or (&gomp_dsm.copyset[c], 1ULL << src,
			      __ATOMIC_ACQ_REL) && stack)
	gomp_dsm_list_add (&gomp_dsm.stack_copied, c);
      memcpy (copy + (size_t) i * bs, gomp_dsm_block_wview (c), bs);
    }
  /* Send after unlocking: a local thread inside MPI (which holds MPI's own
     lock) may be faulting on one of these blocks.  */
  for (uint32_t i = 0; i < k; i++)
    gomp_dsm_unlock (b + i);
  gomp_cl_reply (src, token, copy, size);
  free (copy);
}

/* Takes the dirty list, diffs every block still in state WRITE (locked in
   ascending order, protected in runs), sends the diffs and makes the
   blocks READ.  Called with rel_mutex held.  */
static void
flush_dirty (void)
{
  uint32_t n, *buf = gomp_dsm_list_take (&gomp_dsm.dirty, &n);
  if (!n)
    {
      gomp_dsm_list_done (&gomp_dsm.dirty, buf, n);
      return;
    }
  uint32_t *v = malloc (n * sizeof *v);
  if (!v)
    gomp_dsm_fatal ("out of memory");
  memcpy (v, buf, n * sizeof *v);
  gomp_dsm_list_done (&gomp_dsm.dirty, buf, n);
  n = sort_unique (v, n);
  struct diff_buf *d = calloc (gomp_dsm.nodes, sizeof *d);
  if (!d)
    gomp_dsm_fatal ("out of memory");
  for (uint32_t i = 0; i < n; i++)
    gomp_dsm_lock (v[i]);
  for (uint32_t i = 0; i < n;)
    {
      uint32_t j = i;
      if (gomp_dsm_state (v[i]) != BS_WRITE)
	{
	  i++;
	  continue;
	}
      while (j + 1 < n && v[j + 1] == v[j] + 1
	     && gomp_dsm_state (v[j + 1]) == BS_WRITE)
	j++;
      gomp_dsm_protect (v[i], j - i + 1, PROT_READ);
      for (uint32_t k = i; k <= j; k++)
	{
	  int h = gomp_dsm.home[v[k]];
	  encode_diff (v[k], &d[h]);
	  gomp_dsm_set_state (v[k], BS_READ);
	  gomp_dsm_notice (v[k]);
	  if (d[h].len >= DIFF_MSG_MAX)
	    send_diffs (d);
	}
      i = j + 1;
    }
  for (uint32_t i = 0; i < n; i++)
    gomp_dsm_unlock (v[i]);
  send_diffs (d);
  for (int h = 0; h < gomp_dsm.nodes; h++)
    free (d[h].p);
  free (d);
  free (v);
}

size_t
gomp_dsm_release (void **notices)
{
  pthread_mutex_lock (&rel_mutex);
  flush_dirty ();
  uint32_t gen = gomp_dsm.notices.cur >> 32;
  uint32_t n, *buf = gomp_dsm_list_take (&gomp_dsm.notices, &n);
  uint32_t ns, *sbuf = gomp_dsm_list_take (&gomp_dsm.stack_copied, &ns);
  uint32_t *out = NULL;
  if (n + ns)
    {
      out = malloc ((n + ns) * sizeof *out);
      if (!out)
	gomp_dsm_fatal ("out of memory for write notices");
      memcpy (out, buf, n * sizeof *out);
    }
  gomp_dsm_list_done (&gomp_dsm.notices, buf, n);
  /* Stack blocks that others fetched: announced at every release as if
     written (they mostly are), their copysets forgotten.  */
  for (uint32_t i = 0; i < ns; i++)
    {
      gomp_dsm_lock (sbuf[i]);
      __atomic_store_n (&gomp_dsm.copyset[sbuf[i]], 0, __ATOMIC_RELEASE);
      gomp_dsm_unlock (sbuf[i]);
      out[n + i] = sbuf[i];
    }
  gomp_dsm_list_done (&gomp_dsm.stack_copied, sbuf, ns);
  for (uint32_t i = 0; i < n; i++)
    {
      uint32_t b = out[i];
      gomp_dsm_lock (b);
      gomp_dsm_unnotice (b, gen);
      if (gomp_dsm.home[b] == gomp_dsm.rank)
	{
	  /* Whoever cached B gets this notice: forget them.  */
	  __atomic_store_n (&gomp_dsm.copyset[b], 0, __ATOMIC_RELEASE);
	  if (gomp_dsm_state (b) == BS_HOME_RO)
	    {
	      gomp_dsm_protect (b, 1, PROT_READ | PROT_WRITE);
	      gomp_dsm_set_state (b, BS_HOME_RW);
	    }
	}
      gomp_dsm_unlock (b);
    }
  n = n + ns ? sort_unique (out, n + ns) : 0;
  DSM_STAT (notices_sent, n);
  pthread_mutex_unlock (&rel_mutex);
  *notices = out;
  return (size_t) n * sizeof *out;
}

/* Invalidates the sorted, unique non-home blocks V[0..N).  */
static void
invalidate (uint32_t *v, uint32_t n)
{
  struct diff_buf *d = NULL;
  uint32_t k = 0;
  /* Lock before looking at the state: a block being fetched right now
     (INVALID, locked by the fetching thread) may bring data older than
     the notice, so wait for it and invalidate it too.  */
  for (uint32_t i = 0; i < n; i++)
    {
      gomp_dsm_lock (v[i]);
      uint32_t st = gomp_dsm_state (v[i]);
      if (st == BS_READ || st == BS_WRITE)
	v[k++] = v[i];
      else
	gomp_dsm_unlock (v[i]);
    }
  n = k;
  for (uint32_t i = 0; i < n; i++)
    if (gomp_dsm_state (v[i]) == BS_WRITE)
      {
	/* Written here too (disjoint bytes): keep our bytes at the home.  */
	if (!d && !(d = calloc (gomp_dsm.nodes, sizeof *d)))
	  gomp_dsm_fatal ("out of memory");
	gomp_dsm_protect (v[i], 1, PROT_READ);
	encode_diff (v[i], &d[gomp_dsm.home[v[i]]]);
	gomp_dsm_notice (v[i]);
	gomp_dsm_set_state (v[i], BS_READ);
      }
  if (d)
    {
      send_diffs (d);
      for (int h = 0; h < gomp_dsm.nodes; h++)
	free (d[h].p);
      free (d);
    }
  for (uint32_t i = 0; i < n;)
    {
      uint32_t j = i;
      if (gomp_dsm_state (v[i]) != BS_READ)
	{
	  i++;
	  continue;
	}
      while (j + 1 < n && v[j + 1] == v[j] + 1
	     && gomp_dsm_state (v[j + 1]) == BS_READ)
	j++;
      gomp_dsm_protect (v[i], j - i + 1, PROT_NONE);
      for (uint32_t m = i; m <= j; m++)
	gomp_dsm_set_state (v[m], BS_INVALID);
      DSM_STAT (invalidations, j - i + 1);
      i = j + 1;
    }
  for (uint32_t i = 0; i < n; i++)
    gomp_dsm_unlock (v[i]);
}

void
gomp_dsm_acquire (const void *const *notices, const size_t *lens, int nodes)
{
  size_t total = 0;
  for (int i = 0; i < nodes; i++)
    if (i != gomp_dsm.rank && notices[i])
      total += lens[i] / 4;
  if (!total)
    return;
  uint32_t *v = malloc (total * sizeof *v), n = 0;
  if (!v)
    gomp_dsm_fatal ("out of memory for write notices");
  for (int i = 0; i < nodes; i++)
    if (i != gomp_dsm.rank && notices[i])
      for (size_t k = 0; k < lens[i] / 4; k++)
	{
	  uint32_t b;
	  memcpy (&b, (const char *) notices[i] + 4 * k, 4);
	  if (b >= gomp_dsm.nblocks)
	    gomp_dsm_fatal ("corrupt write notice (block %u)", b);
	  if (__atomic_load_n (&gomp_dsm.home[b], __ATOMIC_ACQUIRE)
	      != gomp_dsm.rank)
	    v[n++] = b;
	}
  n = sort_unique (v, n);
  pthread_mutex_lock (&rel_mutex);
  invalidate (v, n);
  pthread_mutex_unlock (&rel_mutex);
  free (v);
}

void
gomp_dsm_acquire_all (void)
{
  uint32_t n = __atomic_load_n (&gomp_dsm.ncached, __ATOMIC_ACQUIRE);
  uint32_t *v = malloc ((n ? n : 1) * sizeof *v);
  if (!v)
    gomp_dsm_fatal ("out of memory");
  for (uint32_t i = 0; i < n; i++)
    {
      v[i] = __atomic_load_n (&gomp_dsm.cached[i], __ATOMIC_ACQUIRE);
      if (v[i] >= gomp_dsm.nblocks)
	v[i] = 0;		/* Being appended: block 0 is harmless.  */
    }
  n = sort_unique (v, n);
  pthread_mutex_lock (&rel_mutex);
  invalidate (v, n);
  pthread_mutex_unlock (&rel_mutex);
  free (v);
}

void
gomp_dsm_coherence_init (void)
{
  gomp_cl_register (GOMP_CL_TAG_PAGE_GET, page_get_handler);
  gomp_cl_register (GOMP_CL_TAG_DIFF, diff_handler);
}
