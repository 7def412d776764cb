/* home.c -- where a block's home is: first touch (the block's manager
   records the first node that asks, and a node touching fresh blocks in
   sequence claims, with each touch, twice as many of the blocks after
   it as its sequence has, up to the rest of the manager's group), the static
   placements of OMPC_DSM_HOME, and stacks, always at their node.  The
   hand-offs of migrate.c move homes later.  */

#include "dsm-int.h"
#include <stdlib.h>
#include <string.h>

/* How many blocks from B a first touch claims: 1, then twice as many
   with each touch of a fresh block that continues a sequence (a claimed
   run opens with one fault, fault.c, and continues the sequence), up to
   the rest of B's manager group.  What it claims beyond what the node
   will touch is at most what it touched in sequence.  It was the rest
   of the group after 16 single touches: a node that fills a fresh array
   from the top down group by group (the merges of a merge sort run last
   half first) paid 17 round trips to the manager per group of 64
   blocks, now 6.  */
static uint32_t
claim_length (uint32_t b, uint32_t streak)
{
  uint32_t rest = MANAGER_GROUP - (b & (MANAGER_GROUP - 1));
  return streak < 6 && (1u << streak) < rest ? 1u << streak : rest;
}

/* Streams of fresh blocks this node touches in sequence (a loop filling
   two arrays makes two): the last block of each and how many came in
   sequence before it.  Shared by the node's threads: races only make the
   guess worse.  */
#define TOUCH_STREAMS 8
static uint32_t touch_last[TOUCH_STREAMS] = {
  UINT32_MAX - 1, UINT32_MAX - 1, UINT32_MAX - 1, UINT32_MAX - 1,
  UINT32_MAX - 1, UINT32_MAX - 1, UINT32_MAX - 1, UINT32_MAX - 1 };
static uint32_t touch_streak[TOUCH_STREAMS], touch_next;

/* Records a first touch of B; returns the length of its stream.  */
static uint32_t
touch_stream (uint32_t b)
{
  for (int i = 0; i < TOUCH_STREAMS; i++)
    if (__atomic_load_n (&touch_last[i], __ATOMIC_RELAXED) + 1 == b)
      {
	uint32_t st = __atomic_load_n (&touch_streak[i], __ATOMIC_RELAXED) + 1;
	__atomic_store_n (&touch_streak[i], st, __ATOMIC_RELAXED);
	__atomic_store_n (&touch_last[i], b, __ATOMIC_RELAXED);
	return st;
      }
  int i = __atomic_fetch_add (&touch_next, 1, __ATOMIC_RELAXED)
    % TOUCH_STREAMS;
  __atomic_store_n (&touch_streak[i], 0, __ATOMIC_RELAXED);
  __atomic_store_n (&touch_last[i], b, __ATOMIC_RELAXED);
  return 0;
}

/* The stream that ended at B now ends at END (a run opened at once).  */
void
gomp_dsm_touch_extend (uint32_t b, uint32_t end)
{
  for (int i = 0; i < TOUCH_STREAMS; i++)
    if (__atomic_load_n (&touch_last[i], __ATOMIC_RELAXED) == b)
      __atomic_store_n (&touch_last[i], end, __ATOMIC_RELAXED);
}

/* The home under a static placement.  */
static int
static_home (uint32_t b)
{
  int n = gomp_dsm.nodes;
  if (gomp_dsm.policy == HOME_CYCLIC)
    return b % n;
  struct gomp_dsm_area *a0 = &gomp_dsm.area[0];
  if (b < a0->first + a0->nblocks)
    return (b - a0->first) / a0->part;
  size_t off = (size_t) (b - gomp_dsm.area[1].first) << gomp_dsm.bshift;
  size_t heap = gomp_dsm.arena_size * n, part;
  if (off < heap)
    {
      off %= gomp_dsm.arena_size;
      part = gomp_dsm.arena_size / n;
    }
  else
    {
      off = (off - heap) % gomp_dsm.stack_part;
      part = gomp_dsm.stack_part / n;
    }
  int h = part ? off / part : 0;
  return h < n ? h : n - 1;
}

/* The manager's part of a first touch: R becomes the home of B if
   nobody is, and of the N-1 blocks after it that nobody touched, up to
   the first block another node already has.  Stopping there matters for
   a parallel initialisation: the node that reaches the end of its part
   claims ahead, while the next node has only touched the first blocks of
   its part -- without the stop the claim would take the rest.  */
static void
claim_blocks (uint32_t b, uint32_t n, int r)
{
  for (uint32_t i = 0; i < n && b + i < gomp_dsm.nblocks; i++)
    {
      int16_t h = -1;
      if (!__atomic_compare_exchange_n (&gomp_dsm.home[b + i], &h,
					(int16_t) r, false, __ATOMIC_ACQ_REL,
					__ATOMIC_ACQUIRE)
	  && h != r)
	break;
    }
}

/* The manager of B under first-touch placement: the owner of the heap
   arena B lies in (it alone knows what it allocated: wild.c), else the
   node of B's group, round-robin.  */
int
gomp_dsm_manager (uint32_t b)
{
  if (b >= gomp_dsm.area[1].first)
    {
      const char *a = gomp_dsm_block_addr (b);
      if (a < gomp_dsm.stack_base)
	return (a - gomp_dsm.heap_base) / gomp_dsm.arena_size;
    }
  return (b / MANAGER_GROUP) % gomp_dsm.nodes;
}

/* At B's manager: how many of the N blocks from B may be claimed -- for
   a block of this node's arena, those below its high-water mark (0 when
   B itself is above: it holds nothing); N otherwise.  */
static uint32_t
claimable (uint32_t b, uint32_t n)
{
  if (b < gomp_dsm.area[1].first)
    return n;
  const char *a = gomp_dsm_block_addr (b);
  if (a >= gomp_dsm.stack_base)
    return n;
  size_t off = (size_t) (a - gomp_dsm.heap_base) % gomp_dsm.arena_size;
  size_t high = gomp_dsm_heap_high ();
  if (off >= high)
    return 0;
  size_t k = (high - off + gomp_dsm.bsize - 1) >> gomp_dsm.bshift;
  return k < n ? k : n;
}

int
gomp_dsm_home (uint32_t b)
{
  int16_t h = __atomic_load_n (&gomp_dsm.home[b], __ATOMIC_ACQUIRE);
  if (h >= 0)
    return h;
  char *a = gomp_dsm_block_addr (b);
  if (a >= gomp_dsm.stack_base && a < gomp_dsm.seg_base + gomp_dsm.seg_size)
    {
      /* Stacks live at their node: a thread inside MPI may touch its own
	 stack, and that fault must never need a message.  */
      h = (a - gomp_dsm.stack_base) / gomp_dsm.stack_part;
      if (h >= gomp_dsm.nodes)
	h = gomp_dsm.nodes - 1;
      __atomic_store_n (&gomp_dsm.home[b], h, __ATOMIC_RELEASE);
      return h;
    }
  if (gomp_dsm.policy != HOME_FIRST_TOUCH)
    {
      h = static_home (b);
      __atomic_store_n (&gomp_dsm.home[b], h, __ATOMIC_RELEASE);
      return h;
    }
  int mgr = gomp_dsm_manager (b);
  /* A node touching fresh blocks in sequence (a serial initialisation)
     claims more and more of the blocks after them.  */
  uint32_t claim = claim_length (b, touch_stream (b));
  uint32_t first = b & ~(uint32_t) (MANAGER_GROUP - 1);
  if (mgr == gomp_dsm.rank)
    {
      claim_blocks (b, claimable (b, claim), gomp_dsm.rank);
      h = __atomic_load_n (&gomp_dsm.home[b], __ATOMIC_ACQUIRE);
      return h >= 0 ? h : -2;
    }
  /* The manager answers with the homes it knows in B's group.  */
  int16_t reply[MANAGER_GROUP];
  uint32_t req[2] = { b, claim };
  size_t n = gomp_cl_call (mgr, GOMP_CL_TAG_HOME, req, sizeof req, reply,
			   sizeof reply);
  DSM_STAT (home_lookups, 1);
  /* Only the homes unknown here: one known here is never older than the
     manager's.  The manager may still be applying a barrier's hand-offs
     that this node applied (it left the barrier first), and its answer
     must not take back a block handed to this node, or to a node that
     this node knows (gomp_dsm_handoff_apply records every hand-off).  */
  for (size_t i = 0; i < n / 2; i++)
    if (reply[i] >= 0 && first + i < gomp_dsm.nblocks)
      {
	int16_t cur = __atomic_load_n (&gomp_dsm.home[first + i],
				       __ATOMIC_ACQUIRE);
	while (cur < 0
	       && !__atomic_compare_exchange_n (&gomp_dsm.home[first + i],
						&cur, reply[i], true,
						__ATOMIC_RELEASE,
						__ATOMIC_ACQUIRE))
	  ;
      }
  h = __atomic_load_n (&gomp_dsm.home[b], __ATOMIC_ACQUIRE);
  if (h < 0 && n / 2 > b - first && reply[b - first] == -2)
    return -2;
  if (h < 0)
    gomp_dsm_fatal_sig ("internal error: the manager gave no home", 0);
  return h;
}

/* The manager's side of a home request (service thread).  */
static void
home_handler (int src, const void *msg, size_t len, uint64_t token)
{
  uint32_t req[2] = { 0, 1 };
  int16_t reply[MANAGER_GROUP];
  memcpy (req, msg, len < sizeof req ? len : sizeof req);
  uint32_t b = req[0];
  uint32_t first = b & ~(uint32_t) (MANAGER_GROUP - 1);
  if (b >= gomp_dsm.nblocks || req[1] == 0
      || req[1] > MANAGER_GROUP - (b - first))
    gomp_dsm_fatal ("bad home request from rank %d (%u, %u)", src, b,
		    req[1]);
  /* B, and the blocks after it that the requester claims and nobody
     touched yet; -2 for B when it holds nothing (wild.c).  */
  claim_blocks (b, claimable (b, req[1]), src);
  for (uint32_t i = 0; i < MANAGER_GROUP; i++)
    reply[i] = first + i < gomp_dsm.nblocks
      ? __atomic_load_n (&gomp_dsm.home[first + i], __ATOMIC_ACQUIRE) : -1;
  if (reply[b - first] < 0)
    reply[b - first] = -2;
  gomp_cl_reply (src, token, reply, sizeof reply);
}

void
gomp_dsm_home_init (void)
{
  gomp_cl_register_quick (GOMP_CL_TAG_HOME, home_handler);
}
