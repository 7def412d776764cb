/* serve.c -- a home serving its blocks: page requests (a fault's fetch,
   one run; a prefetch, several runs), under the blocks' locks, never
   waiting for them (a busy block defers the request), with the
   requester recorded in the copysets and the home's copy write-protected
   from then on (its own writes must yield notices).  See coherence.c.  */

#include "dsm-int.h"

#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>

uint64_t *gomp_dsm_need;
uint64_t *gomp_dsm_blk_rel;

/* The label of what this node serves now (dsm.h): one release number
   per node, in a malloc'ed vector that the reply frees once sent; OWN:
   this node's (the newest of the blocks served, serve_run).  */
static uint64_t *
served_label (uint64_t own)
{
  uint64_t *l = malloc (GOMP_DSM_LABEL_LEN);
  if (!l)
    gomp_dsm_fatal ("out of memory");
  for (int r = 0; r < gomp_dsm.nodes; r++)
    l[r] = __atomic_load_n (&gomp_dsm_diff_label[r], __ATOMIC_ACQUIRE);
  l[gomp_dsm.rank] = own;
  return l;
}

/* True when the home of B (locked) is another node: a barrier handed B
   to this node and the requester applied that hand-off first
   (migrate.c); the request waits until this node has applied it too.
   Anything else is an error, which ends the job once a request for B has
   waited GOMP_DSM_MOVE_WAIT seconds without a break.  The blocks waited
   for and how long: an entry goes when its block is served, so that a
   block handed here again minutes later starts a new wait (SP of NPB at
   3 x 1 hands blocks back and forth), counted as gomp_cl_waited_ns
   does.  Service thread, or the waiter serving in its place: one at a
   time.  */
#define GOMP_DSM_MOVE_WAIT 60
#define MOVE_WAITS 64
static struct
{
  uint32_t b;
  long last, waited;
} move_wait[MOVE_WAITS];
static int n_move_wait;

static bool
moving_here (int src, uint32_t b)
{
  int16_t h = __atomic_load_n (&gomp_dsm.home[b], __ATOMIC_ACQUIRE);
  int i;
  for (i = 0; i < n_move_wait && move_wait[i].b != b; i++)
    ;
  if (h < 0 || h == gomp_dsm.rank)
    {
      if (i < n_move_wait)
	move_wait[i] = move_wait[--n_move_wait];
      return false;
    }
  if (i == n_move_wait)
    {
      /* More blocks waited for than entries: the first entry's wait
	 restarts, which only delays its report.  */
      if (n_move_wait == MOVE_WAITS)
	i = 0;
      else
	n_move_wait++;
      move_wait[i].b = b;
      move_wait[i].last = gomp_cl_now_ns ();
      move_wait[i].waited = 0;
      return true;
    }
  if (gomp_cl_waited_ns (&move_wait[i].last, &move_wait[i].waited)
      > GOMP_DSM_MOVE_WAIT * 1000000000L)
    gomp_dsm_fatal ("rank %d asked for block %u, whose home is %d (waited "
		    "%d s for its hand-off to this node)", src, b, h,
		    GOMP_DSM_MOVE_WAIT);
  return true;
}

/* Locks block B and up to N-1 blocks after it that are homed here and
   not busy, records SRC in their copysets and returns how many (0 when B
   itself is busy).  Blocks that start being cached are write-protected in
   runs (one mprotect per run, not per block).  When one of them was
   written here since the last release (it has a home twin) or has diffs
   staged here (stage.c), *COPY becomes a malloc'ed copy of the N blocks'
   room, the served ones as released (the twins where there are, with
   the staged diffs applied); else NULL, and the reply is sent from the
   writable view.  Service thread.  */
static uint32_t
serve_run (int src, uint32_t b, uint32_t n, char **copy, uint64_t *own)
{
  *copy = NULL;
  uint32_t k;
  if (b >= gomp_dsm.nblocks || n == 0 || n > GOMP_DSM_GET_MAX
      || n > gomp_dsm.nblocks - b)
    gomp_dsm_fatal ("bad block request from rank %d (%u, %u)", src, b, n);
  /* Busy, or homed here by a claim whose answer has not arrived yet.  */
  if ((__atomic_load_n (&gomp_dsm.home[b], __ATOMIC_ACQUIRE) < 0
       && gomp_dsm.policy == HOME_FIRST_TOUCH)
      || !gomp_dsm_trylock (b))
    return 0;
  if (moving_here (src, b))
    {
      gomp_dsm_unlock (b);
      return 0;
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
	  || gomp_dsm_state (c) == BS_UNMANAGED || !gomp_dsm_servable (c)
	  || !gomp_dsm_trylock (c))
	break;
    }
  uint32_t ro = 0;		/* Blocks c - ro .. c - 1 to protect.  */
  bool populated = false;	/* The twins of the rest of the run.  */
  for (uint32_t i = 0; i <= k; i++)
    {
      uint32_t c = b + i;
      bool protect = false;
      if (i < k)
	{
	  if (__atomic_load_n (&gomp_dsm.home[c], __ATOMIC_ACQUIRE) < 0
	      && gomp_dsm.policy != HOME_FIRST_TOUCH)
	    gomp_dsm_home (c);
	  if (gomp_dsm.home[c] != gomp_dsm.rank)
	    gomp_dsm_fatal ("rank %d asked for block %u, whose home is %d",
			    src, c, gomp_dsm.home[c]);
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
	  else if (st == BS_INVALID)
	    protect = true;
	  else if (st == BS_HOME_RW && !gomp_dsm_htwin (c))
	    {
	      if (!populated)
		{
		  /* A run of first twins (the first fetch of a written
		     array) touches as many pages of the twins.  */
		  gomp_dsm_populate (gomp_dsm_twin (c), (size_t) (k - i) * bs);
		  populated = true;
		}
	      /* Writable here: from now on its releases compare it with a
		 twin, which is what is served (dsm-int.h).  What it holds
		 may come from any release up to now.  */
	      gomp_dsm_htwin_make (c);
	      gomp_dsm_blk_rel[c] = __atomic_load_n (&gomp_dsm_released,
						     __ATOMIC_ACQUIRE);
	    }
	  uint64_t l = stack ? __atomic_load_n (&gomp_dsm_released,
						__ATOMIC_ACQUIRE)
		       : gomp_dsm_blk_rel[c];
	  if (l > *own)
	    *own = l;
	  if (!__atomic_fetch_or (&gomp_dsm.copyset[c], 1ULL << src,
				  __ATOMIC_ACQ_REL) && stack)
	    gomp_dsm_list_add (&gomp_dsm.stack_copied, c);
	  if (stack)
	    gomp_dsm_stwin_make (c);
	}
      if (protect)
	{
	  ro++;
	  continue;
	}
      if (ro)
	{
	  /* From now on the home's own writes must produce notices.  */
	  gomp_dsm_protect (c - ro, ro, PROT_READ);
	  for (uint32_t j = c - ro; j < c; j++)
	    gomp_dsm_set_state (j, BS_HOME_RO);
	  ro = 0;
	}
    }
  /* A copy under the locks where the served bytes are not the writable
     view's.  */
  bool need = false;
  for (uint32_t j = 0; j < k; j++)
    need |= gomp_dsm_htwin (b + j) || gomp_dsm_staged (b + j);
  if (need && !(*copy = malloc ((size_t) n * bs)))
    gomp_dsm_fatal ("out of memory");
  for (uint32_t j = 0; need && j < k; j++)
    {
      memcpy (*copy + (size_t) j * bs,
	      gomp_dsm_htwin (b + j) ? gomp_dsm_twin (b + j)
	      : gomp_dsm_block_wview (b + j), bs);
      gomp_dsm_stage_copy (b + j, *copy + (size_t) j * bs);
    }
  /* The caller sends after this unlocks: a local thread inside MPI (which
     holds MPI's own lock) may be faulting on one of these blocks.  */
  for (uint32_t i = 0; i < k; i++)
    gomp_dsm_unlock (b + i);
  return k;
}

/* A page request: one run (uint32 block, uint32 count; a fault's fetch)
   is answered with the blocks, deferred while the first is busy; several
   runs (a prefetch, a fetch of a stride or of a scatter: the pairs one
   after the other) with one uint32 count per run, then every block asked
   for, in order, of which only the first COUNT of each run are served
   and sent (a busy run counts 0, as does a guess not served,
   GOMP_DSM_GET_GUESS): one piece per run, so the requester receives
   each straight into its blocks, and its blocks not served keep what
   they hold (one of unknown home may be the requester's own, untouched
   yet, which its first touch takes as it is).  The blocks are
   sent from serve_run's copy or straight from the writable view (MPI
   reads them after serve_run unlocked them: a home thread that writes
   one of them meanwhile has taken its fault and made its twin and notice
   first, but the bytes it writes may travel), followed by the label
   (dsm.h): after the blocks of one run, after the counts of several.  */
static void
page_get_handler (int src, const void *msg, size_t len, uint64_t token)
{
  long t0 = gomp_cl_now_ns ();
  uint32_t nruns = len / 8, total = 0;
  const uint32_t *req = msg;
  if (nruns == 0 || len % 8 || nruns > GOMP_DSM_GET_MAX)
    gomp_dsm_fatal ("bad block request from rank %d (%zu bytes)", src, len);
  for (uint32_t r = 0; r < nruns; r++)
    {
      uint32_t m = req[2 * r + 1] & ~GOMP_DSM_GET_GUESS;
      if (m > GOMP_DSM_GET_MAX - total
	  || (r == 0 && m != req[2 * r + 1]))
	gomp_dsm_fatal ("bad block request from rank %d (%u blocks)", src,
			req[2 * r + 1]);
      total += m;
    }
  if (nruns == 1)
    {
      /* A stack block no thread's stack holds: an empty reply tells the
	 requester that it holds nothing (wild.c).  */
      if (req[0] < gomp_dsm.nblocks && !gomp_dsm_servable (req[0]))
	{
	  struct gomp_cl_iov none[2] = { { NULL, 0 }, { NULL, 0 } };
	  gomp_cl_reply_iov (src, token, none, 2, false);
	  return;
	}
      char *copy;
      uint64_t own = 0;
      uint32_t k = serve_run (src, req[0], req[1], &copy, &own);
      if (k == 0)
	gomp_cl_defer ();
      else
	{
	  /* The label after the copy: no older than what it holds.  */
	  uint64_t *label = served_label (own);
	  struct gomp_cl_iov iov[2] = {
	    { copy ? copy : gomp_dsm_block_wview (req[0]),
	      (size_t) k * gomp_dsm_block_len (req[0]) },
	    { label, GOMP_DSM_LABEL_LEN } };
	  void *owned[2] = { copy, label };
	  gomp_cl_reply_iov_owned (src, token, iov, 2, owned, 2);
	}
      DSM_STAT (serve_ns, gomp_cl_now_ns () - t0);
      return;
    }
  uint64_t own = 0;
  uint32_t *counts = malloc (nruns * 4 + GOMP_DSM_LABEL_LEN);
  struct gomp_cl_iov *iov = malloc ((nruns + 1) * sizeof *iov);
  char **owned = calloc (nruns + 1, sizeof *owned);
  if (!counts || !iov || !owned)
    gomp_dsm_fatal ("out of memory");
  owned[0] = (char *) counts;
  iov[0].base = counts;
  iov[0].len = nruns * 4 + GOMP_DSM_LABEL_LEN;
  for (uint32_t r = 0; r < nruns; r++)
    {
      uint32_t b = req[2 * r], n = req[2 * r + 1] & ~GOMP_DSM_GET_GUESS;
      if (n != req[2 * r + 1]
	  && (b >= gomp_dsm.nblocks
	      || __atomic_load_n (&gomp_dsm.home[b], __ATOMIC_ACQUIRE)
		 != gomp_dsm.rank))
	{
	  /* A guess of the requester, and not a block of this node.  */
	  counts[r] = 0;
	  iov[r + 1].base = NULL;
	  iov[r + 1].len = 0;
	  continue;
	}
      size_t bs = gomp_dsm_block_len (b);
      counts[r] = serve_run (src, b, n, &owned[r + 1], &own);
      /* Every block of the run must lie in one writable view (as the
	 requester found them: whole blocks, consecutive addresses).  */
      if (n > 1
	  && (bs != gomp_dsm.bsize
	      || gomp_dsm_block_len (b + n - 1) != bs
	      || gomp_dsm_block_wview (b + n - 1)
		 != gomp_dsm_block_wview (b) + (size_t) (n - 1) * bs))
	gomp_dsm_fatal ("bad block request from rank %d (%u, %u)", src, b,
			n);
      iov[r + 1].base = owned[r + 1] ? owned[r + 1]
			: gomp_dsm_block_wview (b);
      iov[r + 1].len = (size_t) counts[r] * bs;
    }
  uint64_t *label = served_label (own);
  memcpy (counts + nruns, label, GOMP_DSM_LABEL_LEN);
  free (label);
  gomp_cl_reply_iov_owned (src, token, iov, nruns + 1, (void **) owned,
			   nruns + 1);
  free (owned);
  free (iov);
  DSM_STAT (serve_ns, gomp_cl_now_ns () - t0);
}

void
gomp_dsm_serve_init (void)
{
  gomp_cl_register (GOMP_CL_TAG_PAGE_GET, page_get_handler);
}
