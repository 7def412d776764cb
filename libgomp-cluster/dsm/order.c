/* order.c -- ordered releases, and the home twins they need.

   A release publishes a node's writes, but not all at once: its diffs
   reach several homes one batch after the other, and a home's own writes
   are in its memory as soon as they are made.  A barrier or a lock needs
   no more: nobody may read the data before acquiring it.  A flush is
   different in practice: programs written for cache-coherent machines
   (NPB's LU among them) write data, then a flag, then flush, and the
   reader spins on the flag with a flush and reads the data right after
   the flag changed, with no flush in between.  Hardware keeps the two
   stores in order; so must we, for the releases of a flush and of an
   atomic with a release order ("ordered" releases):

   1. the diffs are encoded, not yet sent, and every other node is told
      which blocks the release announces (NOTIFY, one round trip each):
      it makes its copies inaccessible and marks them pending, and a
      home makes the announced blocks it is home of inaccessible to its
      own threads (the diffs for them are on their way);
   2. the diffs go to their homes and are applied;
   3. the home writes are published (below);
   4. every other node is told the release is complete (COMPLETE, one
      way): its pending blocks may be fetched, or used, again.

   A thread that touches a pending block waits for step 4 (with a short
   sleep), and a home does not serve a pending block; so whoever sees any
   byte of the release -- the flag -- finds every other block it announces
   either inaccessible or already up to date.  A node that writes other
   bytes of an announced block at the same time (two rows of a pipeline
   sharing a block) has its changes sent to the home at its next access
   to the block, or at its next release, before it fetches the block
   again.

   Home twins: a home's writes to a block others cache (a write fault on a
   HOME_RO block) would be visible, through a fetch, before the release
   that announces them -- before the data the program wrote earlier.  So
   such a block gets a twin that holds what the others may see: the block
   as its last release left it, plus what other nodes' releases (diffs)
   and atomics changed since.  Fetches are served from the twin; the
   release publishes the block (drops the twin) once its diffs are
   applied (step 3; also in barriers and locks, which need no NOTIFY).

   Twin updates race with nothing: the flag (htwin) is set before the copy
   is made, under the block's lock, and the diff handler applies a diff to
   the block, then reads the flag and applies it to the twin too, so a
   diff lands in the twin either through the copy or by itself.  */

#include "dsm-int.h"
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <time.h>

struct order_msg
{
  uint64_t seq;
  uint32_t blocks[];
};

/* The blocks an ordered release of another node made pending here, until
   its COMPLETE (service thread, or a waiter serving: one handler at a
   time).  */
struct order_entry
{
  struct order_entry *next;
  uint64_t seq;
  uint32_t n;
  uint32_t b[];
};
static struct order_entry **pend_head;

/* This node's ordered releases (under rel_mutex, coherence.c), and the
   one whose COMPLETE is due.  */
static uint64_t order_seq;
static bool order_open;

static void
pend_add (uint32_t b)
{
  __atomic_add_fetch (&gomp_dsm.pend[b], 1, __ATOMIC_ACQ_REL);
}

static void
notify_handler (int src, const void *msg, size_t len, uint64_t token)
{
  const struct order_msg *m = msg;
  if (len < sizeof *m || (len - sizeof *m) % 4)
    gomp_dsm_fatal ("a corrupt release notice arrived from rank %d", src);
  uint32_t n = (len - sizeof *m) / 4;
  for (uint32_t i = 0; i < n; i++)
    if (m->blocks[i] >= gomp_dsm.nblocks)
      gomp_dsm_fatal ("a corrupt release notice arrived from rank %d "
		      "(block %u)", src, m->blocks[i]);
  /* All or nothing: a block busy here (being fetched, or a local thread
     acquiring) makes the whole notice wait.  */
  for (uint32_t i = 0; i < n; i++)
    if (!gomp_dsm_trylock (m->blocks[i]))
      {
	while (i--)
	  gomp_dsm_unlock (m->blocks[i]);
	gomp_cl_defer ();
	return;
      }
  struct order_entry *e = malloc (sizeof *e + (size_t) n * 4);
  if (!e)
    gomp_dsm_fatal ("out of memory");
  e->next = NULL;
  e->seq = m->seq;
  e->n = 0;
  for (uint32_t i = 0; i < n; i++)
    {
      uint32_t b = m->blocks[i];
      uint32_t st = gomp_dsm_state (b);
      bool home = __atomic_load_n (&gomp_dsm.home[b], __ATOMIC_ACQUIRE)
		  == gomp_dsm.rank;
      bool pend = true;
      if (gomp_dsm_stack_block (b) || st == BS_UNMANAGED)
	/* Stack blocks are never protected at their home (coherence.c);
	   elsewhere the next acquire drops them.  */
	pend = false;
      else if (home)
	{
	  if (st == BS_HOME_RW || st == BS_HOME_RO)
	    gomp_dsm_protect (b, 1, PROT_NONE);
	}
      else if (st == BS_WRITE)
	{
	  /* Unchanged since its twin: drop it.  Changed (this node writes
	     other bytes of it): the next access or release sends the
	     changes first (gomp_dsm_flush_stale).  */
	  gomp_dsm_protect (b, 1, PROT_NONE);
	  if (memcmp (gomp_dsm_block_wview (b), gomp_dsm_twin (b),
		      gomp_dsm_block_len (b)) == 0)
	    gomp_dsm_set_state (b, BS_INVALID);
	  else
	    __atomic_fetch_or (&gomp_dsm.oflags[b], OF_STALE,
			       __ATOMIC_ACQ_REL);
	}
      else if (st == BS_READ || st == BS_PREFETCHED)
	{
	  if (st == BS_READ)
	    gomp_dsm_protect (b, 1, PROT_NONE);
	  gomp_dsm_set_state (b, BS_INVALID);
	}
      if (pend)
	{
	  pend_add (b);
	  e->b[e->n++] = b;
	}
      gomp_dsm_unlock (b);
    }
  struct order_entry **t = &pend_head[src];
  while (*t)
    t = &(*t)->next;
  *t = e;
  DSM_STAT (order_notices, 1);
  gomp_cl_reply (src, token, NULL, 0);
}

static void
complete_handler (int src, const void *msg, size_t len, uint64_t token)
{
  uint64_t seq;
  if (len != sizeof seq)
    gomp_dsm_fatal ("a corrupt release completion arrived from rank %d",
		    src);
  memcpy (&seq, msg, sizeof seq);
  struct order_entry **p = &pend_head[src];
  while (*p && (*p)->seq != seq)
    p = &(*p)->next;
  struct order_entry *e = *p;
  if (!e)
    gomp_dsm_fatal ("rank %d completed release %llu, which it never "
		    "announced", src, (unsigned long long) seq);
  for (uint32_t i = 0; i < e->n; i++)
    if (!gomp_dsm_trylock (e->b[i]))
      {
	while (i--)
	  gomp_dsm_unlock (e->b[i]);
	gomp_cl_defer ();
	return;
      }
  for (uint32_t i = 0; i < e->n; i++)
    {
      uint32_t b = e->b[i];
      if (__atomic_sub_fetch (&gomp_dsm.pend[b], 1, __ATOMIC_ACQ_REL) == 0
	  && __atomic_load_n (&gomp_dsm.home[b], __ATOMIC_ACQUIRE)
	     == gomp_dsm.rank)
	{
	  uint32_t st = gomp_dsm_state (b);
	  if (st == BS_HOME_RW)
	    gomp_dsm_protect (b, 1, PROT_READ | PROT_WRITE);
	  else if (st == BS_HOME_RO)
	    gomp_dsm_protect (b, 1, PROT_READ);
	}
      gomp_dsm_unlock (b);
    }
  *p = e->next;
  free (e);
  (void) token;
}

void
gomp_dsm_order_init (void)
{
  pend_head = calloc (gomp_dsm.nodes, sizeof *pend_head);
  if (!pend_head)
    gomp_dsm_fatal ("out of memory");
  gomp_cl_register (GOMP_CL_TAG_ORDER_NOTIFY, notify_handler);
  gomp_cl_register (GOMP_CL_TAG_ORDER_DONE, complete_handler);
}

bool
gomp_dsm_order_notify (const uint32_t *blocks, uint32_t n)
{
  int nodes = gomp_dsm.nodes, me = gomp_dsm.rank;
  if (n == 0 || nodes < 2)
    return false;
  size_t len = sizeof (struct order_msg) + (size_t) n * 4;
  struct order_msg *m = malloc (len);
  struct gomp_cl_pending *w = calloc (nodes, sizeof *w);
  if (!m || !w)
    gomp_dsm_fatal ("out of memory");
  m->seq = ++order_seq;
  memcpy (m->blocks, blocks, (size_t) n * 4);
  for (int r = 0; r < nodes; r++)
    if (r != me)
      gomp_cl_call_async (r, GOMP_CL_TAG_ORDER_NOTIFY, m, len, NULL, 0,
			  &w[r]);
  for (int r = 0; r < nodes; r++)
    if (r != me)
      gomp_cl_call_wait_serving (&w[r]);
  free (w);
  free (m);
  order_open = true;
  return true;
}

void
gomp_dsm_order_done (void)
{
  if (!order_open)
    return;
  order_open = false;
  uint64_t seq = order_seq;
  for (int r = 0; r < gomp_dsm.nodes; r++)
    if (r != gomp_dsm.rank)
      gomp_cl_send (r, GOMP_CL_TAG_ORDER_DONE, &seq, sizeof seq);
}

void
gomp_dsm_pending_wait (uint32_t b)
{
  long ns = 2000;
  while (gomp_dsm_pending (b))
    {
      gomp_dsm_unlock (b);
      struct timespec ts = { 0, ns };
      nanosleep (&ts, NULL);
      if (ns < 200000)
	ns *= 2;
      gomp_dsm_lock (b);
    }
}

void
gomp_dsm_htwin_make (uint32_t b)
{
  if (gomp_dsm_htwin (b) || gomp_dsm_stack_block (b))
    return;
  __atomic_fetch_or (&gomp_dsm.oflags[b], OF_HTWIN, __ATOMIC_SEQ_CST);
  memcpy (gomp_dsm_twin (b), gomp_dsm_block_wview (b),
	  gomp_dsm_block_len (b));
}

void
gomp_dsm_htwin_publish (void)
{
  uint32_t n, *v = gomp_dsm_list_peek (&gomp_dsm.notices, &n);
  for (uint32_t i = 0; i < n; i++)
    {
      uint32_t b = v[i];
      if (b < gomp_dsm.nblocks && gomp_dsm_htwin (b))
	{
	  gomp_dsm_lock (b);
	  __atomic_fetch_and (&gomp_dsm.oflags[b], (uint8_t) ~OF_HTWIN,
			      __ATOMIC_SEQ_CST);
	  gomp_dsm_unlock (b);
	}
    }
  free (v);
}
