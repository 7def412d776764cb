/* home.c -- where a block's home is: first touch (the block's manager
   records the first node that asks, and a node touching fresh blocks in
   sequence claims, with each touch, twice as many of the blocks after
   it as its sequence has, up to the rest of the manager's group), the static
   placements of OMPC_DSM_HOME, and stacks, always at their node.  The
   hand-offs of migrate.c move homes later.  */

#include "dsm-int.h"
#include <stdlib.h>
#include <string.h>

/* How many manager groups a lookup's answer covers: B's and the groups
   after it, with the homes the manager knows there.  Those of a heap
   arena all have its owner for manager, globals alternate between the
   nodes: so a node that reads through an array another node allocated
   and wrote asks once per REPLY_GROUPS groups, or, for globals, once
   per REPLY_GROUPS / nodes of the other node's groups, not once per
   group.  A home learned so is as good as one in the group asked for:
   the answer had those of a group that straddles two arenas, or the
   globals and the heap, before (see gomp_dsm_home).  */
#define REPLY_GROUPS 8

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
   two arrays makes two): the first and last block of each and how many
   came in sequence before the last.  A stream that starts just below
   where another one started (at most two groups down) goes on from that
   one's length: a merge sort fills its fresh array chunk by chunk from
   the top down, each chunk upwards, and every chunk started over from
   one block (sort at 2 x 1 with stealing: 1,300 lookups for 8,192
   blocks).  Shared by the node's threads: races only make the guess
   worse.  */
#define TOUCH_STREAMS 8
static uint32_t touch_last[TOUCH_STREAMS] = {
  UINT32_MAX - 1, UINT32_MAX - 1, UINT32_MAX - 1, UINT32_MAX - 1,
  UINT32_MAX - 1, UINT32_MAX - 1, UINT32_MAX - 1, UINT32_MAX - 1 };
static uint32_t touch_first[TOUCH_STREAMS];
static uint32_t touch_streak[TOUCH_STREAMS], touch_next;

/* Records a first touch of B; returns the length of its stream.  */
static uint32_t
touch_stream (uint32_t b)
{
  uint32_t from = 0;
  for (int i = 0; i < TOUCH_STREAMS; i++)
    {
      if (__atomic_load_n (&touch_last[i], __ATOMIC_RELAXED) + 1 == b)
	{
	  uint32_t st = __atomic_load_n (&touch_streak[i], __ATOMIC_RELAXED)
			+ 1;
	  __atomic_store_n (&touch_streak[i], st, __ATOMIC_RELAXED);
	  __atomic_store_n (&touch_last[i], b, __ATOMIC_RELAXED);
	  return st;
	}
      uint32_t f = __atomic_load_n (&touch_first[i], __ATOMIC_RELAXED);
      if (f > b && f - b <= 2 * MANAGER_GROUP)
	{
	  uint32_t st = __atomic_load_n (&touch_streak[i], __ATOMIC_RELAXED);
	  from = st > from ? st : from;
	}
    }
  int i = __atomic_fetch_add (&touch_next, 1, __ATOMIC_RELAXED)
    % TOUCH_STREAMS;
  __atomic_store_n (&touch_streak[i], from, __ATOMIC_RELAXED);
  __atomic_store_n (&touch_first[i], b, __ATOMIC_RELAXED);
  __atomic_store_n (&touch_last[i], b, __ATOMIC_RELAXED);
  return from;
}

/* Strided first touches: a thread that fills a tile of a larger array
   (the planes of a 3-D grid split along another dimension, NPB FT's
   first transposes) touches fresh blocks a fixed distance apart, each in
   a group of its own, and paid a round trip to the manager for every
   one (FT A at 2 x 1: 22,000, 2.8 s of waiting).  Per thread, the last
   STRIDE_MISSES blocks it asked another node about show a stride once a
   block lies D after one of them that the same node manages (1 < D <=
   STRIDE_MAX; with three nodes, the manager of every third group of a
   plane's stride is asked at three planes' distance).  A stream of
   such a stride that goes on claims, with each lookup, the next blocks
   along it that the same manager has: twice as many each time, up to
   MANAGER_GROUP.  What it claims beyond what the thread will touch is
   at most what it touched along the stride.  FT A at 2 x 1: 4,000
   lookups, 0.9 s of waiting.  */
#define STRIDE_MISSES 8
#define STRIDE_STREAMS 4
#define STRIDE_MAX 4096
struct stride_stream
{
  uint32_t last, streak;
  int32_t d;
};
static __thread uint32_t stride_miss[STRIDE_MISSES];
static __thread int stride_miss_mgr[STRIDE_MISSES];
static __thread unsigned stride_nmiss;
static __thread struct stride_stream stride_streams[STRIDE_STREAMS];
static __thread unsigned stride_victim;

/* Records a lookup of B (not in a sequence) and returns how many blocks
   along its stride, B first, to claim (1: no stride yet), with the
   stride in *D; the stream is taken to end at the last of them.  */
static uint32_t
touch_stride (uint32_t b, int mgr, int32_t *d)
{
  struct stride_stream *s = NULL;
  for (int i = 0; i < STRIDE_STREAMS; i++)
    if (stride_streams[i].d
	&& (int64_t) stride_streams[i].last + stride_streams[i].d == b)
      {
	s = &stride_streams[i];
	s->streak++;
	break;
      }
  if (s == NULL)
    {
      unsigned n = stride_nmiss < STRIDE_MISSES ? stride_nmiss
						 : STRIDE_MISSES;
      for (unsigned k = 1; k <= n && s == NULL; k++)
	{
	  unsigned m = (stride_nmiss - k) % STRIDE_MISSES;
	  int64_t diff = (int64_t) b - stride_miss[m];
	  if (diff > 1 && diff <= STRIDE_MAX && stride_miss_mgr[m] == mgr)
	    {
	      s = &stride_streams[stride_victim++ % STRIDE_STREAMS];
	      s->d = (int32_t) diff;
	      s->streak = 1;
	    }
	}
    }
  stride_miss_mgr[stride_nmiss % STRIDE_MISSES] = mgr;
  stride_miss[stride_nmiss++ % STRIDE_MISSES] = b;
  if (s == NULL)
    return 1;
  uint32_t want = s->streak < 6 ? 1u << s->streak : MANAGER_GROUP;
  uint32_t n = 1;
  bool globals = b < gomp_dsm.area[1].first;
  for (; n < want; n++)
    {
      uint64_t c = (uint64_t) b + (uint64_t) n * s->d;
      if (c >= gomp_dsm.nblocks
	  || (c < gomp_dsm.area[1].first) != globals
	  || gomp_dsm_stack_block ((uint32_t) c)
	  || gomp_dsm_manager ((uint32_t) c) != mgr)
	break;
    }
  *d = s->d;
  s->last = b + (n - 1) * s->d;
  return n;
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
   nobody is, and of the N-1 blocks after it along stride D (1: the
   blocks that follow it) that nobody touched, up to the first block
   another node already has.  Stopping there matters for a parallel
   initialisation: the node that reaches the end of its part claims
   ahead, while the next node has only touched the first blocks of its
   part -- without the stop the claim would take the rest.  */
static void
claim_blocks (uint32_t b, uint32_t n, int32_t d, int r)
{
  for (uint32_t i = 0; i < n && b + (int64_t) i * d < gomp_dsm.nblocks; i++)
    {
      int16_t h = -1;
      if (!__atomic_compare_exchange_n (&gomp_dsm.home[b + i * d], &h,
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

/* At B's manager: how many of the N blocks from B along stride D may be
   claimed -- for a block of this node's arena, those below its
   high-water mark (0 when B itself is above: it holds nothing); N
   otherwise.  */
static uint32_t
claimable (uint32_t b, uint32_t n, int32_t d)
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
  size_t step = (size_t) d << gomp_dsm.bshift;
  size_t k = (high - off + step - 1) / step;
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
     claims more and more of the blocks after them, and a thread touching
     them a fixed distance apart more and more of those along its
     stride.  */
  uint32_t claim = claim_length (b, touch_stream (b));
  if (mgr == gomp_dsm.rank)
    {
      claim_blocks (b, claimable (b, claim, 1), 1, gomp_dsm.rank);
      h = __atomic_load_n (&gomp_dsm.home[b], __ATOMIC_ACQUIRE);
      return h >= 0 ? h : -2;
    }
  /* Strides among the lookups only: those of blocks this node manages
     cost nothing, and lie between (groups of the nodes alternate).  */
  int32_t d = 1;
  if (claim == 1)
    claim = touch_stride (b, mgr, &d);
  /* The manager answers with the homes it knows in B's group and the
     groups after it (reply_end), or, along a stride, of the blocks
     claimed.  */
  int16_t reply[REPLY_GROUPS * MANAGER_GROUP];
  uint32_t req[3] = { b, claim, (uint32_t) d };
  size_t n = gomp_cl_call (mgr, GOMP_CL_TAG_HOME, req,
			   d == 1 ? 2 * sizeof *req : sizeof req, reply,
			   sizeof reply);
  DSM_STAT (home_lookups, 1);
  /* Only the homes unknown here: one known here is never older than the
     manager's.  The manager may still be applying a barrier's hand-offs
     that this node applied (it left the barrier first), and its answer
     must not take back a block handed to this node, or to a node that
     this node knows (gomp_dsm_handoff_apply records every hand-off).  */
  uint32_t first = d == 1 ? b & ~(uint32_t) (MANAGER_GROUP - 1) : b;
  for (size_t i = 0; i < n / 2; i++)
    {
      uint32_t c = first + (uint32_t) i * (uint32_t) d;
      if (reply[i] >= 0 && c < gomp_dsm.nblocks)
	{
	  int16_t cur = __atomic_load_n (&gomp_dsm.home[c], __ATOMIC_ACQUIRE);
	  while (cur < 0
		 && !__atomic_compare_exchange_n (&gomp_dsm.home[c], &cur,
						  reply[i], true,
						  __ATOMIC_RELEASE,
						  __ATOMIC_ACQUIRE))
	    ;
	}
    }
  h = __atomic_load_n (&gomp_dsm.home[b], __ATOMIC_ACQUIRE);
  if (h < 0 && n / 2 > b - first && reply[b - first] == -2)
    return -2;
  if (h < 0)
    gomp_dsm_fatal_sig ("internal error: the manager gave no home", 0);
  return h;
}

/* The end of the answer to a lookup of B, whose group starts at FIRST:
   REPLY_GROUPS groups from FIRST, short of the threads' stacks (homed at
   their nodes, never asked for) and of the segment's end.  */
static uint32_t
reply_end (uint32_t b, uint32_t first)
{
  uint32_t end = first + REPLY_GROUPS * MANAGER_GROUP;
  struct gomp_dsm_area *a1 = &gomp_dsm.area[1];
  uint32_t stacks = a1->first
		    + (uint32_t) ((size_t) (gomp_dsm.stack_base - a1->base)
				  >> gomp_dsm.bshift);
  if (b < stacks && end > stacks)
    end = stacks > first + MANAGER_GROUP ? stacks : first + MANAGER_GROUP;
  return end < gomp_dsm.nblocks ? end : gomp_dsm.nblocks;
}

/* The manager's side of a home request (service thread): [B, N] for B
   and the blocks after it, [B, N, D] for N blocks along stride D.  */
static void
home_handler (int src, const void *msg, size_t len, uint64_t token)
{
  uint32_t req[3] = { 0, 1, 1 };
  int16_t reply[REPLY_GROUPS * MANAGER_GROUP];
  memcpy (req, msg, len < sizeof req ? len : sizeof req);
  uint32_t b = req[0], n = req[1];
  int32_t d = len >= sizeof req ? (int32_t) req[2] : 1;
  uint32_t first = b & ~(uint32_t) (MANAGER_GROUP - 1);
  if (b >= gomp_dsm.nblocks || n == 0
      || (d == 1 ? n > MANAGER_GROUP - (b - first)
	  : d < 2 || d > STRIDE_MAX || n > MANAGER_GROUP
	    || b + (uint64_t) (n - 1) * d >= gomp_dsm.nblocks))
    gomp_dsm_fatal ("bad home request from rank %d (%u, %u, %d)", src, b,
		    n, d);
  /* B, and the blocks after it that the requester claims and nobody
     touched yet; -2 for B when it holds nothing (wild.c).  */
  claim_blocks (b, claimable (b, n, d), d, src);
  if (d != 1)
    {
      for (uint32_t i = 0; i < n; i++)
	reply[i] = __atomic_load_n (&gomp_dsm.home[b + i * d],
				    __ATOMIC_ACQUIRE);
      if (reply[0] < 0)
	reply[0] = -2;
      gomp_cl_reply (src, token, reply, n * sizeof *reply);
      return;
    }
  uint32_t end = reply_end (b, first);
  for (uint32_t i = 0; i < end - first; i++)
    reply[i] = __atomic_load_n (&gomp_dsm.home[first + i], __ATOMIC_ACQUIRE);
  if (reply[b - first] < 0)
    reply[b - first] = -2;
  gomp_cl_reply (src, token, reply, (end - first) * sizeof *reply);
}

void
gomp_dsm_home_init (void)
{
  gomp_cl_register_quick (GOMP_CL_TAG_HOME, home_handler);
}
