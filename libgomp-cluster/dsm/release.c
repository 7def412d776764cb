/* release.c -- a node's release: the diffs of every block it wrote
   without being its home (the dirty list), how long a written block
   stays writable (KEEP_IDLE), the write notices (those blocks, the home
   blocks written while others cached them, the stack blocks others
   fetched), and what a pull asks of a node between releases
   (gomp_dsm_unreleased).  See coherence.c.  */

#include "dsm-int.h"
#include "report.h"
#include "config/linux/futex.h"
#include <limits.h>
#include <pthread.h>
#include <sched.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>

#define KEEP_IDLE 6		/* Counted releases a written block stays
				   writable unchanged.  */
#define KEEP_STEP 4		/* One release in KEEP_STEP << M_KEEP
				   counts.  */
#define ANN_SKIP 0xff		/* An announced block the release leaves
				   as it is.  */
#define ANN_KEEP 0xfe		/* A home block that keeps its state.  */
#define GATE_SPINS 200		/* Pauses before a gated fault sleeps.  */

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

/* The cut of a release.  What a home block holds when its release drops
   its twin is what other nodes are served from then on, labelled with
   that release; every write before it in program order must be in that
   release too.  Another thread of this node may go on writing while a
   release runs: a write to a non-home block that the diffs missed
   followed by a write to a home block the release then publishes would
   let a reader see the second without the first (a flag before its
   data).  So a release first write-protects the twinned home blocks
   (cut_home), then takes the diffs: a write to a home block after the
   cut faults, and a write fault on a home block waits at this gate
   until the release is over; it then opens the block for the next
   interval with a fresh twin.  CUT: a release is cutting or under way;
   GATE_IN: write faults on home blocks past the gate (the release waits
   for them before it looks at the notices).  */
static int cut, gate_in;
static __thread bool releasing;

void
gomp_dsm_gate_enter (void)
{
  if (releasing)
    return;
  for (;;)
    {
      __atomic_add_fetch (&gate_in, 1, __ATOMIC_SEQ_CST);
      if (!__atomic_load_n (&cut, __ATOMIC_SEQ_CST))
	return;
      __atomic_sub_fetch (&gate_in, 1, __ATOMIC_SEQ_CST);
      for (int spins = 0; __atomic_load_n (&cut, __ATOMIC_ACQUIRE);)
	if (spins++ < GATE_SPINS)
	  __builtin_ia32_pause ();
	else
	  gomp_futex_wait (&cut, 1);
    }
}

void
gomp_dsm_gate_leave (void)
{
  if (!releasing)
    __atomic_sub_fetch (&gate_in, 1, __ATOMIC_RELEASE);
}

/* Closes the gate and write-protects every home block written in this
   interval that has a twin (others fetched it), as HOME_RO: from now
   on a fetch of it gets its twin until the release drops that, and
   then the bytes written before this cut.  Called with
   gomp_dsm_rel_mutex held.  */
static void
cut_home (void)
{
  releasing = true;
  __atomic_store_n (&cut, 1, __ATOMIC_SEQ_CST);
  for (int spins = 0; __atomic_load_n (&gate_in, __ATOMIC_SEQ_CST);)
    if (spins++ < GATE_SPINS)
      __builtin_ia32_pause ();
    else
      sched_yield ();
  /* Every home block a fault noticed is in the list now (the gate is
     empty), and no fault adds one until the release is over.  */
  uint64_t cur = __atomic_load_n (&gomp_dsm.notices.cur, __ATOMIC_ACQUIRE);
  const uint32_t *buf = gomp_dsm.notices.buf[(cur >> 32) & 1];
  uint32_t n = (uint32_t) cur, k = 0;
  uint32_t *v = n ? malloc (n * sizeof *v) : NULL;
  if (n && !v)
    gomp_dsm_fatal ("out of memory for write notices");
  for (uint32_t i = 0; i < n; i++)
    {
      uint32_t b = __atomic_load_n (&buf[i], __ATOMIC_ACQUIRE) - 1;
      if (b < gomp_dsm.nblocks
	  && __atomic_load_n (&gomp_dsm.home[b], __ATOMIC_ACQUIRE)
	     == gomp_dsm.rank
	  && gomp_dsm_htwin (b) && !gomp_dsm_stack_block (b))
	v[k++] = b;
    }
  k = k ? gomp_dsm_sort_unique (v, k) : 0;
  for (uint32_t i = 0; i < k;)
    {
      /* A run of consecutive blocks still HOME_RW with a twin: one
	 mprotect.  */
      uint32_t j = i;
      gomp_dsm_lock (v[i]);
      if (gomp_dsm_state (v[i]) != BS_HOME_RW || !gomp_dsm_htwin (v[i]))
	{
	  gomp_dsm_unlock (v[i]);
	  i++;
	  continue;
	}
      while (j + 1 < k && v[j + 1] == v[j] + 1)
	{
	  gomp_dsm_lock (v[j + 1]);
	  if (gomp_dsm_state (v[j + 1]) == BS_HOME_RW
	      && gomp_dsm_htwin (v[j + 1]))
	    j++;
	  else
	    {
	      gomp_dsm_unlock (v[j + 1]);
	      break;
	    }
	}
      gomp_dsm_protect (v[i], j - i + 1, PROT_READ);
      for (uint32_t x = i; x <= j; x++)
	{
	  gomp_dsm_set_state (v[x], BS_HOME_RO);
	  gomp_dsm_unlock (v[x]);
	}
      i = j + 1;
    }
  free (v);
}

/* Opens the gate again.  */
static void
uncut_home (void)
{
  __atomic_store_n (&cut, 0, __ATOMIC_SEQ_CST);
  gomp_futex_wake (&cut, INT_MAX);
  releasing = false;
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
  n = gomp_dsm_sort_unique (v, n);
  struct diff_out out;
  gomp_dsm_diff_out_init (&out);
  for (uint32_t i = 0; i < n; i++)
    gomp_dsm_lock (v[i]);
  /* This release's number (low bits): the idle releases of a block
     count one in KEEP_STEP << M_KEEP.  */
  uint32_t gen = __atomic_load_n (&gomp_dsm.notices.cur, __ATOMIC_ACQUIRE)
		 >> 32;
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
      uint32_t keep = (m & M_KEEP) >> M_KEEP_SHIFT;
      uint32_t idle = changed ? 0 : ((m & M_IDLE) >> M_IDLE_SHIFT)
				    + !(gen & ((KEEP_STEP << keep) - 1));
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
  for (uint32_t i = 0; i < nr;)
    {
      uint32_t j = i;
      while (j + 1 < nr && v[j + 1] == v[j] + 1)
	j++;
      gomp_dsm_protect (v[i], j - i + 1, PROT_READ);
      for (uint32_t k = i; k <= j; k++)
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
	  gomp_dsm_unlock (b);
	}
      i = j + 1;
    }
  gomp_dsm_diff_finish (&out);
  free (v);
}

size_t
gomp_dsm_release (void **notices)
{
  long t0 = gomp_cl_now_ns ();
  pthread_mutex_lock (&gomp_dsm_rel_mutex);
  cut_home ();
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
  refetch_n = 0;
  for (uint32_t i = 0; i < ns; i++)
    {
      gomp_dsm_lock (sbuf[i]);
      uint64_t had = __atomic_exchange_n (&gomp_dsm.copyset[sbuf[i]], 0,
					  __ATOMIC_ACQ_REL);
      gomp_dsm_unlock (sbuf[i]);
      if (had && refetch_n < REFETCH_MAX)
	{
	  refetch_block[refetch_n] = sbuf[i];
	  refetch_nodes[refetch_n++] = had;
	}
      out[n + i] = sbuf[i];
    }
  gomp_dsm_push_ncand = 0;
  for (uint32_t i = 0; i < ns && gomp_dsm_push_ncand < GOMP_DSM_PUSH_MAX; i++)
    gomp_dsm_push_cand[gomp_dsm_push_ncand++] = sbuf[i];
  gomp_dsm_list_done (&gomp_dsm.stack_copied, sbuf, ns);
  /* The written blocks in order, so that home blocks that become writable
     again do so in runs (one mprotect each).  */
  uint32_t nw = n;
  n = n ? gomp_dsm_sort_unique (out, n) : 0;
  gomp_dsm_report_written (out, n);
  if (ns)
    memmove (out + n, out + nw, ns * sizeof *out);
  /* This release counts from now on, before any of its home twins is
     dropped: what a fetch is served from then on is labelled with it.  */
  if (n + ns)
    __atomic_add_fetch (&gomp_dsm_released, 1, __ATOMIC_RELEASE);
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
	  /* Whoever cached B gets this notice: forget them.  It stays
	     write-protected (another node fetched it once, and will
	     likely again), so that a write of the next interval makes a
	     twin first and is not served before its release.  */
	  __atomic_store_n (&gomp_dsm.copyset[b], 0, __ATOMIC_RELEASE);
	  act[j] = !gomp_dsm_stack_block (b) ? BS_HOME_RO : BS_HOME_RW;
	  if (act[j] == gomp_dsm_state (b))
	    act[j] = ANN_KEEP;
	}
      for (uint32_t k = i; k < j;)
	{
	  uint32_t e = k + 1;
	  while (e < j && act[e] == act[k])
	    e++;
	  if (act[k] == ANN_KEEP)
	    for (uint32_t x = k; x < e; x++)
	      gomp_dsm_htwin_drop (out[x]);
	  else if (act[k] != ANN_SKIP)
	    {
	      /* The protection first: a write of the next interval then
		 waits for the block's lock and makes a fresh twin.  */
	      gomp_dsm_protect (out[k], e - k, act[k] == BS_HOME_RO
				? PROT_READ : PROT_READ | PROT_WRITE);
	      for (uint32_t x = k; x < e; x++)
		{
		  gomp_dsm_set_state (out[x], act[k]);
		  gomp_dsm_htwin_drop (out[x]);
		}
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
  uncut_home ();
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
