/* release.c -- a node's release: the diffs of every block it wrote
   without being its home (the dirty list), how long a written block
   stays writable (KEEP_IDLE), the write notices (those blocks, the home
   blocks written while others cached them, the stack blocks others
   fetched), and what a pull asks of a node between releases
   (gomp_dsm_unreleased).  See coherence.c.  */

#include "dsm-int.h"
#include "report.h"
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>

#define KEEP_IDLE 6		/* Counted releases a written block stays
				   writable unchanged.  */
#define KEEP_STEP 4		/* One release in KEEP_STEP << M_KEEP
				   counts.  */
#define KEEP_SOON 48		/* Releases between a block's expiry and
				   its next write that are worth comparing
				   it at to save that write's fault.  */
#define ANN_SKIP 0xff		/* An announced block the release leaves
				   as it is.  */
#define ANN_KEEP 0xfe		/* A home block that keeps its state.  */

pthread_mutex_t gomp_dsm_rel_mutex = PTHREAD_MUTEX_INITIALIZER;
uint64_t gomp_dsm_released;
/* The stack blocks the last release announced because other nodes had
   fetched them (gomp_dsm_push_pack); with gomp_dsm_rel_mutex.  */
uint32_t gomp_dsm_push_cand[GOMP_DSM_PUSH_MAX], gomp_dsm_push_ncand;
/* The stack blocks the last release announced, with the nodes that had
   fetched them (gomp_dsm_refetch_pending); with gomp_dsm_rel_mutex, read without
   it by the thread that released.  */
#define REFETCH_MAX 16
static uint32_t refetch_block[REFETCH_MAX], refetch_n;
static uint64_t refetch_nodes[REFETCH_MAX];

/* The number of the release in progress or next: the generation of the
   notice list, which each release takes.  */
static inline uint32_t
release_number (void)
{
  return __atomic_load_n (&gomp_dsm.notices.cur, __ATOMIC_ACQUIRE) >> 32;
}

/* Takes list L: its blocks sorted, without repeats, in a malloc'ed
   array (NULL when empty), their number in *N.  */
static uint32_t *
take_sorted (struct gomp_dsm_list *l, uint32_t *n)
{
  uint32_t *buf = gomp_dsm_list_take (l, n);
  uint32_t *v = *n ? malloc (*n * sizeof *v) : NULL;
  if (*n && !v)
    gomp_dsm_fatal ("out of memory");
  if (*n)
    memcpy (v, buf, *n * sizeof *v);
  gomp_dsm_list_done (l, buf, *n);
  if (*n)
    *n = gomp_dsm_sort_unique (v, *n);
  return v;
}

/* Whether release GEN counts as an idle one for a block with meta word
   M: one in KEEP_STEP << M_KEEP does (flush_dirty, snapshot_home).  */
static inline bool
idle_counts (uint32_t gen, uint32_t m)
{
  uint32_t keep = (m & M_KEEP) >> M_KEEP_SHIFT;
  return !(gen & ((KEEP_STEP << keep) - 1));
}

/* Home twins (dsm-int.h).  Before a release takes its diffs, it
   compares every home block that has a twin with it: a changed block is
   announced, and its twin becomes what the home serves from then on.
   Before the diffs, because another thread of the node may go on
   writing: a write that made it into a snapshot was preceded, in its
   thread's order, by writes that the diffs taken after it do see (a
   flag is never published ahead of its data).  A twin that KEEP_IDLE
   counted releases in a row found unchanged is dropped, and its block
   write-protected again (HOME_RO, M_EXPIRED): its next write faults and
   makes a twin.  The releases count as a written non-home block's do
   (flush_dirty), one in KEEP_STEP << M_KEEP, and a block written again
   soon after it expired stays twinned longer next time
   (gomp_dsm_rewritten, from the home write fault): the trade-off is the
   same, a compare at each release against a fault and a share of an
   mprotect.  With 4 releases in a row, not counted, BT class S at 2 x 1
   took ~24,000 home write faults per node (~90 with twins never
   dropped), and 4.5 s instead of 2.0 on this project's virtual machines,
   where a write-protection costs 15-65 us.  */

/* This release counted itself early (snapshot_home): the diffs it takes
   carry its number, not the next.  With gomp_dsm_rel_mutex.  */
static bool counted;

uint64_t
gomp_dsm_diff_next (void)
{
  return __atomic_load_n (&gomp_dsm_released, __ATOMIC_RELAXED)
	 + !counted;
}

/* Write-protects the ascending blocks V[0..N) in runs of consecutive
   blocks, one mprotect each (snapshot_home and flush_dirty, whose
   blocks stay locked until they are compared once more).  */
static void
protect_runs (const uint32_t *v, uint32_t n)
{
  for (uint32_t i = 0; i < n;)
    {
      uint32_t j = i;
      while (j + 1 < n && v[j + 1] == v[j] + 1)
	j++;
      gomp_dsm_protect (v[i], j - i + 1, PROT_READ);
      i = j + 1;
    }
}

/* Block B (home here, twinned, locked), CHANGED since its twin or not
   (then IDLE counted releases in a row, this one included, found it
   unchanged): a changed block is announced and its twin brought up to
   date; B stays on the list of home twins, and is unlocked.  */
static void
snapshot_keep (uint32_t b, bool changed, uint32_t idle)
{
  if (changed)
    {
      /* The number first: a fetch served from the new snapshot must
	 not be labelled with the release before.  */
      if (!counted)
	{
	  __atomic_add_fetch (&gomp_dsm_released, 1, __ATOMIC_RELEASE);
	  counted = true;
	}
      memcpy (gomp_dsm_twin (b), gomp_dsm_block_wview (b),
	      gomp_dsm_block_len (b));
      gomp_dsm_blk_rel[b] = __atomic_load_n (&gomp_dsm_released,
					     __ATOMIC_RELAXED);
      gomp_dsm_notice (b);
      idle = 0;
    }
  uint32_t m = __atomic_load_n (&gomp_dsm.meta[b], __ATOMIC_RELAXED);
  while (!__atomic_compare_exchange_n
	 (&gomp_dsm.meta[b], &m, (m & ~M_IDLE) | (idle << M_IDLE_SHIFT),
	  true, __ATOMIC_RELEASE, __ATOMIC_RELAXED))
    ;
  gomp_dsm_list_add (&gomp_dsm.htwins, b);
  gomp_dsm_unlock (b);
}

/* Called with gomp_dsm_rel_mutex held.  The idle blocks are
   write-protected together at the end, in runs (one mprotect each, as
   flush_dirty's): one by one, BT class S at 2x1 made ~45,000 mprotects
   per node, each a TLB shootdown of the node's other running threads,
   which on this project's virtual machines costs ~40 us when one of
   them (the service thread polling) runs on the other processor.  */
static void
snapshot_home (void)
{
  uint32_t n, *v = take_sorted (&gomp_dsm.htwins, &n);
  uint32_t gen = release_number ();
  /* V[0..NX): the idle blocks to protect, kept locked (in ascending
     order, as flush_dirty locks).  */
  uint32_t nx = 0;
  for (uint32_t i = 0; i < n; i++)
    {
      uint32_t b = v[i];
      gomp_dsm_lock (b);
      if (!gomp_dsm_htwin (b)
	  || __atomic_load_n (&gomp_dsm.home[b], __ATOMIC_ACQUIRE)
	     != gomp_dsm.rank)
	{
	  gomp_dsm_unlock (b);
	  continue;
	}
      uint32_t m = __atomic_load_n (&gomp_dsm.meta[b], __ATOMIC_RELAXED);
      uint32_t idle = ((m & M_IDLE) >> M_IDLE_SHIFT) + idle_counts (gen, m);
      bool changed = memcmp (gomp_dsm_block_wview (b), gomp_dsm_twin (b),
			     gomp_dsm_block_len (b)) != 0;
      if (!changed && idle >= KEEP_IDLE)
	{
	  if (gomp_dsm_state (b) == BS_HOME_RW)
	    v[nx++] = b;
	  else
	    {
	      gomp_dsm_htwin_drop (b);
	      gomp_dsm_unlock (b);
	    }
	  continue;
	}
      snapshot_keep (b, changed, idle);
    }
  /* Idle: protected again, then compared once more for what was written
     before the protection took effect.  */
  protect_runs (v, nx);
  for (uint32_t k = 0; k < nx; k++)
    {
      uint32_t b = v[k];
      gomp_dsm_set_state (b, BS_HOME_RO);
      if (memcmp (gomp_dsm_block_wview (b), gomp_dsm_twin (b),
		  gomp_dsm_block_len (b)) != 0)
	snapshot_keep (b, true, 0);
      else
	{
	  gomp_dsm_htwin_drop (b);
	  __atomic_fetch_or (&gomp_dsm.meta[b], M_EXPIRED, __ATOMIC_RELAXED);
	  gomp_dsm.expired[b] = gen;
	  gomp_dsm_unlock (b);
	}
    }
  free (v);
}

/* Takes the dirty list, diffs every block still in state WRITE (locked in
   ascending order) and sends the diffs.  A written block will likely be
   written again soon (a loop over the same data, maybe a few
   synchronisations later), so it stays WRITE with its twin brought up to
   date by the diff (a snapshot: the block stays writable and costs no
   mprotect at all) until KEEP_IDLE counted releases in a row find it
   unchanged (see the top of this file);
   then it becomes READ: write-protected in runs, and diffed once more for
   what was written before the protection took effect.  A block written
   with no change (the same values again) sends nothing: nobody's copy is
   stale, no notice.  Called with gomp_dsm_rel_mutex held.  */
static void
flush_dirty (void)
{
  uint32_t n, *v = take_sorted (&gomp_dsm.dirty, &n);
  if (!n)
    return;
  struct diff_out out;
  gomp_dsm_diff_out_init (&out);
  for (uint32_t i = 0; i < n; i++)
    gomp_dsm_lock (v[i]);
  /* This release's number (low bits): the idle releases of a block
     count one in KEEP_STEP << M_KEEP.  */
  uint32_t gen = release_number ();
  /* V[0..NR): the blocks that go READ.  */
  uint32_t nr = 0;
  for (uint32_t i = 0; i < n; i++)
    {
      uint32_t b = v[i];
      if (gomp_dsm_state (b) != BS_WRITE)
	{
	  gomp_dsm_unlock (b);
	  continue;
	}
      bool changed = gomp_dsm_diff_add (&out, b);
      if (changed)
	{
	  gomp_dsm_notice (b);
	  /* Written: used (a block fetched ahead for a write is made
	     writable at once, fault.c).  */
	  __atomic_fetch_or (&gomp_dsm.meta[b], M_USED, __ATOMIC_RELAXED);
	}
      uint32_t m = __atomic_load_n (&gomp_dsm.meta[b], __ATOMIC_RELAXED);
      uint32_t idle = changed ? 0 : ((m & M_IDLE) >> M_IDLE_SHIFT)
				    + idle_counts (gen, m);
      if (idle < KEEP_IDLE)
	{
	  gomp_dsm_list_add (&gomp_dsm.dirty, b);
	  while (!__atomic_compare_exchange_n
		 (&gomp_dsm.meta[b], &m,
		  (m & ~M_IDLE) | (idle << M_IDLE_SHIFT), true,
		  __ATOMIC_RELEASE, __ATOMIC_RELAXED))
	    ;
	  gomp_dsm_unlock (b);
	}
      else
	v[nr++] = b;
    }
  protect_runs (v, nr);
  for (uint32_t k = 0; k < nr; k++)
    {
      uint32_t b = v[k];
      if (gomp_dsm_diff_add (&out, b))
	gomp_dsm_notice (b);
      uint32_t m = __atomic_load_n (&gomp_dsm.meta[b], __ATOMIC_RELAXED);
      while (!__atomic_compare_exchange_n
	     (&gomp_dsm.meta[b], &m,
	      (m & ~(M_IDLE | M_STATE)) | M_EXPIRED | BS_READ,
	      true, __ATOMIC_RELEASE, __ATOMIC_RELAXED))
	;
      gomp_dsm.expired[b] = gen;
      gomp_dsm_unlock (b);
    }
  gomp_dsm_diff_finish (&out);
  free (v);
}

/* The meta word M of block B (non-home READ or home HOME_RO) written
   again: when B expired (M_EXPIRED), without that flag and with the
   M_KEEP that its KEEP (its M_KEEP) becomes; else M.  Kept writable
   KEEP_IDLE * (KEEP_STEP << KEEP) releases longer, it would have cost
   a compare at each of them; written soon enough that these compares
   cost less than the fault (the program rewrites it with the same
   values now and then, as IS's buckets), it stays writable twice as
   long next time.  Written long after (once
   per time step of a pipeline that flushes hundreds of times a step:
   issue 12's wavefront compared every block of its band at hundreds of
   flushes, then took the fault anyway: 4 * KEEP_SOON releases or more),
   half as long: the fault is the cheaper.  In between, as long.  */
uint32_t
gomp_dsm_rewritten (uint32_t b, uint32_t m)
{
  if (!(m & M_EXPIRED))
    return m;
  uint32_t keep = (m & M_KEEP) >> M_KEEP_SHIFT;
  uint16_t gap = (uint16_t) (release_number () - gomp_dsm.expired[b]);
  if (gap < KEEP_SOON && gap <= KEEP_IDLE * (KEEP_STEP << keep))
    keep = keep < KEEP_MAX ? keep + 1 : keep;
  else if (gap >= 4 * KEEP_SOON && keep)
    keep--;
  return (m & ~(M_EXPIRED | M_KEEP)) | keep << M_KEEP_SHIFT;
}

size_t
gomp_dsm_release (void **notices)
{
  long t0 = gomp_cl_now_ns ();
  pthread_mutex_lock (&gomp_dsm_rel_mutex);
  /* Blocks freed in other arenas before this release began: their
     owners get them once this release's diffs are in (heap.c).  */
  uint64_t *frees;
  size_t nfrees = gomp_dsm_frees_take (&frees);
  snapshot_home ();
  flush_dirty ();
  uint32_t gen = gomp_dsm.notices.cur >> 32;
  uint32_t n, *buf = gomp_dsm_list_take (&gomp_dsm.notices, &n);
  uint32_t ns, *sbuf = take_sorted (&gomp_dsm.stack_copied, &ns);
  uint32_t *out = NULL;
  if (n + ns)
    {
      out = malloc ((n + ns) * sizeof *out);
      if (!out)
	gomp_dsm_fatal ("out of memory for write notices");
      /* Not even an empty copy from a list page never touched
	 (gomp_dsm_list_done says why).  */
      if (n)
	memcpy (out, buf, n * sizeof *out);
    }
  gomp_dsm_list_done (&gomp_dsm.notices, buf, n);
  /* Stack blocks that others hold: those changed since they were served
     (their twins, gomp_dsm_stwin_make) are announced and their copysets
     and twins forgotten; the others stay listed, compared again at the
     next release.  */
  refetch_n = 0;
  gomp_dsm_push_ncand = 0;
  uint32_t nsa = 0;
  for (uint32_t i = 0; i < ns; i++)
    {
      uint32_t b = sbuf[i];
      gomp_dsm_lock (b);
      if (gomp_dsm_htwin (b)
	  && __atomic_load_n (&gomp_dsm.copyset[b], __ATOMIC_ACQUIRE)
	  && memcmp (gomp_dsm_block_wview (b), gomp_dsm_twin (b),
		     gomp_dsm_block_len (b)) == 0)
	{
	  gomp_dsm_list_add (&gomp_dsm.stack_copied, b);
	  gomp_dsm_unlock (b);
	  continue;
	}
      uint64_t had = __atomic_exchange_n (&gomp_dsm.copyset[b], 0,
					  __ATOMIC_ACQ_REL);
      gomp_dsm_htwin_drop (b);
      gomp_dsm_unlock (b);
      if (had && refetch_n < REFETCH_MAX)
	{
	  refetch_block[refetch_n] = b;
	  refetch_nodes[refetch_n++] = had;
	}
      if (gomp_dsm_push_ncand < GOMP_DSM_PUSH_MAX)
	gomp_dsm_push_cand[gomp_dsm_push_ncand++] = b;
      out[n + nsa++] = b;
    }
  free (sbuf);
  ns = nsa;
  /* The written blocks in order, so that home blocks that become writable
     again do so in runs (one mprotect each).  */
  uint32_t nw = n;
  n = n ? gomp_dsm_sort_unique (out, n) : 0;
  gomp_dsm_report_written (out, n);
  if (ns)
    memmove (out + n, out + nw, ns * sizeof *out);
  /* This release counts from now on (or did since its first home
     snapshot): what a fetch is served from then on is labelled with it.
     A release with a snapshot announces that block.  */
  if (n + ns && !counted)
    __atomic_add_fetch (&gomp_dsm_released, 1, __ATOMIC_RELEASE);
  counted = false;
  /* Per announced block: ANN_SKIP, ANN_KEEP or a home block's next
     state.  */
  unsigned char *act = n ? malloc (n) : NULL;
  if (n && !act)
    gomp_dsm_fatal ("out of memory for write notices");
  for (uint32_t i = 0; i < n;)
    {
      uint32_t j = i;
      for (; j < n && (j == i || out[j] == out[j - 1] + 1); j++)
	{
	  uint32_t b = out[j];
	  gomp_dsm_lock (b);
	  act[j] = ANN_SKIP;
	  /* No mark left: a fetch served since we took the list did this
	     block's part (serve_run).  */
	  if (!gomp_dsm_unnotice (b, gen) || gomp_dsm.home[b] != gomp_dsm.rank)
	    continue;
	  /* Whoever cached B gets this notice: forget them.  A block with
	     a twin keeps it, writable (snapshot_home); any other is
	     write-protected, so that its next write makes a twin (another
	     node fetched it once, and will likely again).  */
	  __atomic_store_n (&gomp_dsm.copyset[b], 0, __ATOMIC_RELEASE);
	  if (gomp_dsm_htwin (b))
	    continue;
	  gomp_dsm_blk_rel[b] = __atomic_load_n (&gomp_dsm_released,
						 __ATOMIC_RELAXED);
	  act[j] = !gomp_dsm_stack_block (b) ? BS_HOME_RO : BS_HOME_RW;
	  if (act[j] == gomp_dsm_state (b))
	    act[j] = ANN_KEEP;
	}
      for (uint32_t k = i; k < j;)
	{
	  uint32_t e = k + 1;
	  while (e < j && act[e] == act[k])
	    e++;
	  if (act[k] != ANN_KEEP && act[k] != ANN_SKIP)
	    {
	      gomp_dsm_protect (out[k], e - k, act[k] == BS_HOME_RO
				? PROT_READ : PROT_READ | PROT_WRITE);
	      for (uint32_t x = k; x < e; x++)
		gomp_dsm_set_state (out[x], act[k]);
	    }
	  k = e;
	}
      for (uint32_t k = i; k < j; k++)
	gomp_dsm_unlock (out[k]);
      i = j;
    }
  free (act);
  if (ns)
    n = gomp_dsm_sort_unique (out, n + ns);
  DSM_STAT (notices_sent, n);
  if (nfrees)
    gomp_dsm_frees_send (frees, nfrees,
			 __atomic_load_n (&gomp_dsm_released,
					  __ATOMIC_RELAXED));
  pthread_mutex_unlock (&gomp_dsm_rel_mutex);
  DSM_STAT (release_ns, gomp_cl_now_ns () - t0);
  *notices = out;
  return (size_t) n * sizeof *out;
}

int
gomp_dsm_unreleased (uint32_t **blocks)
{
  *blocks = NULL;
  if (pthread_mutex_trylock (&gomp_dsm_rel_mutex) != 0)
    return -1;
  /* No release can take the list now; appenders only add to it.  */
  uint64_t cur = __atomic_load_n (&gomp_dsm.notices.cur, __ATOMIC_ACQUIRE);
  const uint32_t *buf = gomp_dsm.notices.buf[(cur >> 32) & 1];
  uint32_t n = (uint32_t) cur, k = 0;
  uint32_t *v = n ? malloc (n * sizeof *v) : NULL;
  if (n && !v)
    gomp_dsm_fatal ("out of memory for write notices");
  for (uint32_t i = 0; i < n; i++)
    {
      /* A slot holds its block + 1; 0: taken but not yet stored, the
	 appender is a write fault whose write has not happened yet.  */
      uint32_t b = __atomic_load_n (&buf[i], __ATOMIC_ACQUIRE) - 1;
      if (b < gomp_dsm.nblocks
	  && __atomic_load_n (&gomp_dsm.home[b], __ATOMIC_ACQUIRE)
	     == gomp_dsm.rank)
	v[k++] = b;
    }
  pthread_mutex_unlock (&gomp_dsm_rel_mutex);
  if (!k)
    {
      free (v);
      return 0;
    }
  *blocks = v;
  return (int) k;
}

bool
gomp_dsm_refetch_pending (void)
{
  for (uint32_t i = 0; i < refetch_n; i++)
    {
      uint64_t want = refetch_nodes[i];
      if ((__atomic_load_n (&gomp_dsm.copyset[refetch_block[i]],
			    __ATOMIC_ACQUIRE) & want) != want)
	return true;
    }
  return false;
}
