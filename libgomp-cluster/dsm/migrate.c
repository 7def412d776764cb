/* migrate.c -- homes that follow the writer (OMPC_DSM_MIGRATE).

   Under first touch a block's home is the node that touched it first,
   often the master's node in a serial initialisation.  A node that then
   writes its part of an array every time step pays, at every barrier, a
   diff to that home and, for whatever the home wrote too, a fetch of the
   block again.  So a home watches who writes its blocks: the write
   notices of a barrier name who wrote which block in the interval it
   ends (its own writes to a block another node caches fault and are
   noticed too: fault.c, meta.c's gomp_dsm_notice).  A
   block that one other node writes more often than anybody else moves to
   that node at the next barrier: per block, the home keeps a candidate
   and a score over the intervals between barriers in which anybody
   wrote it (not necessarily consecutive ones).  An interval in which the
   candidate alone wrote it adds one; one in which the home wrote it, or
   several nodes did, takes one away; another node alone takes one away
   too, and becomes the candidate when the score is 0.  At MIGRATE_SCORE
   the block moves.  So a block that a node writes in two of every three
   intervals and the home in the third moves, as does one that a node
   alone writes twice in a row (a serial initialisation by the master,
   then a parallel loop); a block that two nodes write in turn stays.
   (NPB FT: the planes of its main array written by their own node in
   the FFT along two dimensions and the evolution, by the other node in
   the third FFT, had stayed with the master that initialised them, and
   the second node paid a fetch and a diff three times per iteration for
   a quarter of the array; FT A at 2 x 1 took 5.3-5.5 s with this rule
   against 5.8-6.2 s with the former one, four intervals in a row by one
   node alone, before the plugin aligned FT's arrays to blocks.)  Every
   node counts the moves of each block, and each move doubles the score
   the block's next move needs (up to MIGRATE_SCORE <<
   MIGRATE_DOUBLINGS): NPB BT W, whose blocks several
   nodes write in varying turns, moved 379,000 blocks without that
   against 72 with the former rule, and ran 12-20% slower; with it,
   about 2,550 in 25.8-27.2 s against 26.6-27.2 s.  A home learns who
   wrote in an interval from the notices of the barrier that ends it, and
   proposes at the next barrier; it proposes the block again after each
   interval in which the block was written, until it moves, since a
   proposal is dropped (below) when a node other than the new home wrote
   the block in the interval that the barrier applying it ends.

   The hand-off rides in the barrier's exchange: each home adds its
   proposals (block, new home) to its contribution, so that every node
   receives the same proposals and the same write notices of the
   interval, and decides the same.  A proposal is dropped, on every node
   alike, when a node other than the new home announced a write of the
   block in this barrier: then the new home's copy may lack that write.
   Otherwise the new home's copy is up to date -- every release of the
   barrier applied its diffs at the old home before the exchange, and the
   new home's own writes are all in its copy -- unless this node dropped
   it meanwhile (an acquire of everything), and then it fetches the block
   from the old home (GOMP_CL_TAG_HANDOFF), which still holds it.
   Applied before the barrier's invalidations and prefetches, so that
   these ask the new home; a request that reaches the new home before it
   applied the hand-off is deferred there (serve.c, serve_run).

   At the new home the block becomes HOME_RO, as if every other node
   cached it: its next write is noticed and invalidates the copies, the
   old home's included, which keeps a clean copy (READ).  Every node
   records the new one, also where it did not know the old one: a lookup
   answered by a manager that has not applied the barrier yet then
   changes nothing (home.c).  Stack blocks never move (they must need no
   message at their node: fault.c), nor blocks under a static placement
   (OMPC_DSM_HOME).  */

#include "dsm-int.h"
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>

/* The score at which a block moves (see above), doubled by each move
   of the block up to MIGRATE_DOUBLINGS times.  */
#define MIGRATE_SCORE 2
#define MIGRATE_DOUBLINGS 6
#define W_NONE 0
#define W_MANY 255

/* Per block, at its home: the writers of the current interval (W_NONE,
   node + 1, or W_MANY), and the candidate (node + 1, or W_NONE) in the
   low byte with its score in the high byte.  On every node: how many
   times the block moved (up to 255).  */
static uint8_t *writer;
static uint16_t *cand;
static uint8_t *moves;
/* Home blocks whose WRITER is not W_NONE (appended once per interval).  */
static struct gomp_dsm_list touched;
static bool enabled;

void
gomp_dsm_migrate_init (bool on)
{
  size_t nb = gomp_dsm.nblocks;
  enabled = on && gomp_dsm.policy == HOME_FIRST_TOUCH
	    && gomp_dsm.nodes > 1 && gomp_dsm.nodes < W_MANY - 1;
  if (!enabled)
    return;
  writer = mmap (NULL, nb, PROT_READ | PROT_WRITE,
		 MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
  cand = mmap (NULL, nb * 2, PROT_READ | PROT_WRITE,
	       MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
  moves = mmap (NULL, nb, PROT_READ | PROT_WRITE,
		MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
  if (writer == MAP_FAILED || cand == MAP_FAILED || moves == MAP_FAILED)
    gomp_dsm_fatal ("cannot map the block writers (%zu bytes)", 4 * nb);
  gomp_dsm_list_init (&touched, nb);
}

/* NODE wrote home block B in the interval that ended at this barrier.  */
static void
migrate_wrote (uint32_t b, int node)
{
  uint8_t w = node + 1, v = __atomic_load_n (&writer[b], __ATOMIC_RELAXED);
  do
    if (v == w || v == W_MANY)
      return;
  while (!__atomic_compare_exchange_n (&writer[b], &v,
				       v == W_NONE ? w : W_MANY, true,
				       __ATOMIC_RELAXED, __ATOMIC_RELAXED));
  if (v == W_NONE)
    gomp_dsm_list_add (&touched, b);
}

size_t
gomp_dsm_handoff_pack (void **buf)
{
  *buf = NULL;
  if (!enabled)
    return 0;
  uint32_t n, *v = gomp_dsm_list_take (&touched, &n), k = 0;
  uint32_t *out = n ? malloc ((size_t) n * 8) : NULL;
  if (n && !out)
    gomp_dsm_fatal ("out of memory for home hand-offs");
  for (uint32_t i = 0; i < n; i++)
    {
      uint32_t b = v[i];
      if (b >= gomp_dsm.nblocks)
	continue;
      uint8_t w = __atomic_exchange_n (&writer[b], W_NONE, __ATOMIC_RELAXED);
      if (w == W_NONE)
	continue;
      if (gomp_dsm_stack_block (b)
	  || __atomic_load_n (&gomp_dsm.home[b], __ATOMIC_ACQUIRE)
	     != gomp_dsm.rank)
	{
	  cand[b] = W_NONE;
	  continue;
	}
      unsigned c = cand[b] & 0xff, score = cand[b] >> 8;
      if (w == W_MANY || w == gomp_dsm.rank + 1)
	score -= score > 0;
      else if (w == c || score == 0)
	{
	  c = w;
	  score += score < 255;
	}
      else
	score--;
      unsigned m = moves[b] < MIGRATE_DOUBLINGS ? moves[b] : MIGRATE_DOUBLINGS;
      cand[b] = score ? score << 8 | c : W_NONE;
      /* Proposed until it moves (give_home forgets the score): a
	 proposal is dropped when another node wrote the block in the
	 interval that this barrier ends.  */
      if (score && score >= (unsigned) MIGRATE_SCORE << m)
	{
	  out[2 * k] = b;
	  out[2 * k + 1] = c - 1;
	  k++;
	}
    }
  gomp_dsm_list_done (&touched, v, n);
  if (!k)
    {
      free (out);
      return 0;
    }
  *buf = out;
  return (size_t) k * 8;
}

/* A (block, node) pair of a write notice of the barrier.  */
struct wrote
{
  uint32_t b, node;
};

static int
cmp_wrote (const void *a, const void *b)
{
  const struct wrote *x = a, *y = b;
  return x->b < y->b ? -1 : x->b > y->b ? 1
	 : x->node < y->node ? -1 : x->node > y->node;
}

/* True when a node other than R announced a write of B (W sorted).  */
static bool
written_by_other (const struct wrote *w, size_t n, uint32_t b, uint32_t r)
{
  size_t lo = 0, hi = n;
  while (lo < hi)
    {
      size_t mid = (lo + hi) / 2;
      if (w[mid].b < b)
	lo = mid + 1;
      else
	hi = mid;
    }
  for (; lo < n && w[lo].b == b; lo++)
    if (w[lo].node != r)
      return true;
  return false;
}

/* At the old home: the block's contents, for a new home that no longer
   held it.  */
static void
handoff_handler (int src, const void *msg, size_t len, uint64_t token)
{
  uint32_t b;
  if (len != 4)
    gomp_dsm_fatal ("bad hand-off request from rank %d", src);
  memcpy (&b, msg, 4);
  if (b >= gomp_dsm.nblocks)
    gomp_dsm_fatal ("bad hand-off request from rank %d (block %u)", src, b);
  if (gomp_dsm_trylock (b))
    {
      gomp_dsm_stage_apply (b);
      gomp_dsm_unlock (b);
    }
  else if (__atomic_load_n (&gomp_dsm.home[b], __ATOMIC_ACQUIRE)
	   == gomp_dsm.rank)
    {
      /* Not handed over here yet: its diffs may still be staged.  */
      gomp_cl_defer ();
      return;
    }
  /* Else handed over already (give_home applied the staged diffs), and
     the lock may be held by a thread of this node that fetches the
     block from its new home, which holds its own lock while it waits
     for this answer (take_home): waiting for the lock would wait for
     ever.  The bytes are those the hand-off left: that fetch cannot
     land before the new home has them.  */
  gomp_cl_reply (src, token, gomp_dsm_block_wview (b),
		 gomp_dsm_block_len (b));
}

/* Becomes B's home (it was FROM's).  */
static void
take_home (uint32_t b, int from)
{
  gomp_dsm_lock (b);
  uint32_t st = gomp_dsm_state (b);
  if (st == BS_INVALID)
    {
      size_t got = gomp_cl_call (from, GOMP_CL_TAG_HANDOFF, &b, 4,
				 gomp_dsm_block_wview (b),
				 gomp_dsm_block_len (b));
      if (got != gomp_dsm_block_len (b))
	gomp_dsm_fatal ("rank %d handed over block %u with %zu bytes", from,
			b, got);
    }
  else if (st != BS_READ && st != BS_WRITE && st != BS_PREFETCHED)
    gomp_dsm_fatal ("rank %d handed over block %u, in state %u here", from,
		    b, st);
  uint64_t all = gomp_dsm.nodes >= 64 ? ~0ULL : (1ULL << gomp_dsm.nodes) - 1;
  __atomic_store_n (&gomp_dsm.copyset[b], all & ~(1ULL << gomp_dsm.rank),
		    __ATOMIC_RELEASE);
  /* Its bytes hold this node's diffs, of releases up to now.  */
  gomp_dsm_blk_rel[b] = __atomic_load_n (&gomp_dsm_released,
					 __ATOMIC_RELAXED);
  __atomic_store_n (&gomp_dsm.home[b], (int16_t) gomp_dsm.rank,
		    __ATOMIC_RELEASE);
  if (st != BS_READ)
    gomp_dsm_protect (b, 1, PROT_READ);
  gomp_dsm_set_state (b, BS_HOME_RO);
  gomp_dsm_unlock (b);
}

/* Gives B to TO, keeping a clean copy.  */
static void
give_home (uint32_t b, int to)
{
  gomp_dsm_lock (b);
  uint32_t st = gomp_dsm_state (b);
  if (st != BS_HOME_RO && st != BS_HOME_RW)
    gomp_dsm_fatal ("handing over block %u, in state %u", b, st);
  gomp_dsm_stage_apply (b);
  gomp_dsm_htwin_drop (b);
  __atomic_store_n (&gomp_dsm.copyset[b], 0, __ATOMIC_RELEASE);
  __atomic_store_n (&gomp_dsm.home[b], (int16_t) to, __ATOMIC_RELEASE);
  if (st == BS_HOME_RW)
    gomp_dsm_protect (b, 1, PROT_READ);
  gomp_dsm_set_state (b, BS_READ);
  gomp_dsm_mark_cached (b);
  __atomic_store_n (&writer[b], W_NONE, __ATOMIC_RELAXED);
  cand[b] = W_NONE;
  gomp_dsm_unlock (b);
}

void
gomp_dsm_handoff_apply (const void *const *recs, const size_t *rec_lens,
			const void *const *notices, const size_t *notice_lens,
			const int *notice_nodes, int nnotices)
{
  int nodes = gomp_dsm.nodes;
  size_t nw = 0, total = 0;
  /* Who wrote this home's blocks in the interval that ends here, for the
     proposals of the next barrier: every write of the interval has a
     notice in this barrier (a home's own, once another node caches the
     block: meta.c's gomp_dsm_notice), which a diff's arrival was not:
     a release's diffs may reach the home after it packed its
     proposals, and were then counted with the next interval's writes
     (a node writing a block in two intervals of three, the home in the
     third, looked like one interval alone and one of many writers).  */
  if (enabled)
    for (int i = 0; i < nnotices; i++)
      for (size_t k = 0; k < notice_lens[i] / 4; k++)
	{
	  uint32_t b;
	  memcpy (&b, (const char *) notices[i] + 4 * k, 4);
	  if (b < gomp_dsm.nblocks && notice_nodes[i] < nodes
	      && __atomic_load_n (&gomp_dsm.home[b], __ATOMIC_ACQUIRE)
		 == gomp_dsm.rank)
	    migrate_wrote (b, notice_nodes[i]);
	}
  for (int h = 0; h < nodes; h++)
    total += rec_lens[h] / 8;
  if (!total)
    return;
  for (int i = 0; i < nnotices; i++)
    nw += notice_lens[i] / 4;
  struct wrote *w = malloc ((nw ? nw : 1) * sizeof *w);
  if (!w)
    gomp_dsm_fatal ("out of memory for home hand-offs");
  nw = 0;
  for (int i = 0; i < nnotices; i++)
    for (size_t k = 0; k < notice_lens[i] / 4; k++)
      {
	memcpy (&w[nw].b, (const char *) notices[i] + 4 * k, 4);
	w[nw++].node = notice_nodes[i];
      }
  qsort (w, nw, sizeof *w, cmp_wrote);
  uint64_t moved = 0;
  for (int h = 0; h < nodes; h++)
    for (size_t i = 0; i < rec_lens[h] / 8; i++)
      {
	uint32_t rec[2];
	memcpy (rec, (const char *) recs[h] + 8 * i, 8);
	uint32_t b = rec[0], r = rec[1];
	if (b >= gomp_dsm.nblocks || r >= (uint32_t) nodes || r == (uint32_t) h
	    || gomp_dsm_stack_block (b))
	  gomp_dsm_fatal ("corrupt home hand-off from rank %d (block %u to "
			  "%u)", h, b, r);
	if (written_by_other (w, nw, b, r))
	  continue;
	moved++;
	if (moves[b] < 255)
	  moves[b]++;
	if (r == (uint32_t) gomp_dsm.rank)
	  take_home (b, h);
	else if (h == gomp_dsm.rank)
	  give_home (b, r);
	else
	  {
	    /* Recorded even where the old home was unknown: a manager
	       that has not applied this barrier yet may still name the
	       old home in answer to a lookup (gomp_dsm_home keeps what
	       it knows).  */
	    gomp_dsm_lock (b);
	    __atomic_store_n (&gomp_dsm.home[b], (int16_t) r,
			      __ATOMIC_RELEASE);
	    gomp_dsm_unlock (b);
	  }
      }
  free (w);
  DSM_STAT (homes_moved, moved);
}

void
gomp_dsm_migrate_register (void)
{
  gomp_cl_register (GOMP_CL_TAG_HANDOFF, handoff_handler);
}
