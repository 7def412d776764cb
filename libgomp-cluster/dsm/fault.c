/* fault.c -- block locks, write notice marks, fetches and the SIGSEGV
   handler.

   The handler runs for faults inside the DSM's areas only; every other
   fault goes to the handler that was installed before (UCX installs one;
   gomp_dsm_init runs after MPI_Init so that ours comes last).  It runs on
   the thread's alternate signal stack (SA_ONSTACK; gomp_dsm_thread_init),
   reads the access type from bit 1 of the x86-64 error code, takes the
   block's lock (so that one thread per node fetches a block however many
   fault on it) and makes the block accessible: it may ask the block's
   manager for its home (first touch) and fetch the block from its home
   with gomp_cl_call, whose wait polls MPI for the reply itself (or
   sleeps on a futex while another thread of the node drives MPI; see
   transport/call.c, "Signal context", for why MPI is safe there).
   Nothing else here calls MPI or takes a mutex, but the catch-up after
   a fetch (dsm.h, gomp_dsm_catch_up: a pull, cluster/pull.c).  A fault
   inside MPI (a thread whose stack is in the segment) is safe only when
   it needs no message: stacks are homed at their node and start
   writable there, and the service thread never holds a block lock while
   it calls MPI.  Code that runs with SIGSEGV blocked (glibc's
   pthread_create between its clone and its return, fork) dies on a protected block: stacks are therefore never
   protected at their home (release.c); the runtime's pthread_create
   interposer stores the thread id into shared memory itself.  A system
   call given an application-view address of a protected block fails with
   EFAULT instead of faulting: nothing in the module does that, and the
   runtime's interposers (libgomp-cluster/sys.h) hand the kernel private
   copies of the program's shared memory.  */

#include "dsm-int.h"
#include "report.h"
#include <errno.h>
#include <limits.h>
#include "config/linux/futex.h"
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <ucontext.h>
#include <unistd.h>

/* Blocks one fetch brings at most (FETCH_AHEAD_BYTES, but at least
   FETCH_AHEAD_MIN blocks), and home blocks one write fault opens at
   most.  Both double along a sequential streak, so what they take beyond
   the streak's end is at most what the streak used; the caps only bound
   one message and one mprotect.  A fetch that continues no streak (many
   streams at once) takes as many blocks ahead as the run of fetched
   blocks just before it (fetch).  */
#define FETCH_AHEAD_BYTES (512 * 1024)
#define FETCH_AHEAD_MIN 16
#define WRITE_AHEAD_MAX GOMP_DSM_GET_MAX
#define SCATTER_RUNS 32		/* Runs one fetch of a scatter may ask for.  */

/* How far below the faulting thread's stack pointer a fault on a guard
   page still counts as a stack overflow (a large frame is written from
   its bottom up); farther, it is a wild pointer.  */
#define STACK_OVERFLOW_REACH (256UL << 10)

static struct sigaction old_sa;
static int dsm_finished;

void
gomp_dsm_lock (uint32_t b)
{
  uint32_t *m = &gomp_dsm.meta[b];
  uint32_t v = __atomic_load_n (m, __ATOMIC_RELAXED);
  int spins = 0;
  for (;;)
    {
      if (!(v & M_LOCK))
	{
	  if (__atomic_compare_exchange_n (m, &v, v | M_LOCK, true,
					   __ATOMIC_ACQUIRE, __ATOMIC_RELAXED))
	    return;
	  continue;
	}
      if (spins++ < 100)
	{
	  __builtin_ia32_pause ();
	  v = __atomic_load_n (m, __ATOMIC_RELAXED);
	  continue;
	}
      if (!(v & M_WAITERS)
	  && !__atomic_compare_exchange_n (m, &v, v | M_WAITERS, true,
					   __ATOMIC_RELAXED, __ATOMIC_RELAXED))
	continue;
      gomp_futex_wait (m, v | M_WAITERS);
      v = __atomic_load_n (m, __ATOMIC_RELAXED);
    }
}

bool
gomp_dsm_trylock (uint32_t b)
{
  uint32_t *m = &gomp_dsm.meta[b];
  uint32_t v = __atomic_load_n (m, __ATOMIC_RELAXED);
  while (!(v & M_LOCK))
    if (__atomic_compare_exchange_n (m, &v, v | M_LOCK, true,
				     __ATOMIC_ACQUIRE, __ATOMIC_RELAXED))
      return true;
  return false;
}

void
gomp_dsm_unlock (uint32_t b)
{
  uint32_t v = __atomic_fetch_and (&gomp_dsm.meta[b], ~(M_LOCK | M_WAITERS),
				   __ATOMIC_RELEASE);
  if (v & M_WAITERS)
    gomp_futex_wake (&gomp_dsm.meta[b], INT_MAX);
}

void
gomp_dsm_set_state (uint32_t b, uint32_t state)
{
  uint32_t v = __atomic_load_n (&gomp_dsm.meta[b], __ATOMIC_RELAXED);
  while (!__atomic_compare_exchange_n (&gomp_dsm.meta[b], &v,
				       (v & ~M_STATE) | state, true,
				       __ATOMIC_RELEASE, __ATOMIC_RELAXED))
    ;
}

static uint32_t
notice_gen (void)
{
  return (__atomic_load_n (&gomp_dsm.notices.cur, __ATOMIC_ACQUIRE) >> 32)
    & (M_GEN >> M_GEN_SHIFT);
}

/* Adds B to this node's write notices, once per list generation.  If a
   release takes the list between our reading of the generation and the
   append, B lands in the newer list while its mark names the older one:
   a later call appends it again (a harmless duplicate), never misses it.  */
void
gomp_dsm_notice (uint32_t b)
{
  uint32_t g = notice_gen () << M_GEN_SHIFT;
  uint32_t v = __atomic_load_n (&gomp_dsm.meta[b], __ATOMIC_ACQUIRE);
  do
    if ((v & M_NOTICED) && (v & M_GEN) == g)
      return;
  while (!__atomic_compare_exchange_n (&gomp_dsm.meta[b], &v,
				       (v & ~M_GEN) | M_NOTICED | g, true,
				       __ATOMIC_ACQ_REL, __ATOMIC_ACQUIRE));
  gomp_dsm_list_add (&gomp_dsm.notices, b);
  if (__atomic_load_n (&gomp_dsm.home[b], __ATOMIC_RELAXED) == gomp_dsm.rank)
    gomp_dsm_migrate_wrote (b, gomp_dsm.rank);
}

bool
gomp_dsm_noticed (uint32_t b)
{
  uint32_t v = __atomic_load_n (&gomp_dsm.meta[b], __ATOMIC_ACQUIRE);
  return (v & M_NOTICED) && (v & M_GEN) == notice_gen () << M_GEN_SHIFT;
}

/* Clears the mark unless it names the generation after GEN: a mark of
   an older generation is stale too (a notice that landed in a newer
   list than its mark says, see gomp_dsm_notice), and must not survive
   until the 8-bit generation comes round again and makes an unwritten
   block look written.  */
bool
gomp_dsm_unnotice (uint32_t b, uint32_t gen)
{
  uint32_t next = ((gen + 1) << M_GEN_SHIFT) & M_GEN;
  uint32_t v = __atomic_load_n (&gomp_dsm.meta[b], __ATOMIC_ACQUIRE);
  while ((v & M_NOTICED) && (v & M_GEN) != next)
    if (__atomic_compare_exchange_n (&gomp_dsm.meta[b], &v, v & ~M_NOTICED,
				     true, __ATOMIC_ACQ_REL, __ATOMIC_ACQUIRE))
      return true;
  return false;
}

void
gomp_dsm_mark_used (uint32_t b)
{
  uint32_t v = __atomic_load_n (&gomp_dsm.meta[b], __ATOMIC_RELAXED), nv;
  do
    {
      uint32_t lvl = (v & M_LVL) >> M_LVL_SHIFT;
      if (lvl < EAGER_LVL_MAX)
	lvl++;
      nv = (v & ~(M_LVL | M_LEFT)) | M_USED | (lvl << M_LVL_SHIFT)
	   | (((1u << lvl) - 1) << M_LEFT_SHIFT);
    }
  while (!__atomic_compare_exchange_n (&gomp_dsm.meta[b], &v, nv, true,
				       __ATOMIC_ACQ_REL, __ATOMIC_RELAXED));
}

/* The end of the last run of blocks fetched and the length of the
   current sequential streak (shared by the node's threads; races only
   make the guess worse).  The same for write faults on home blocks that
   others cache.  */
static uint32_t last_end = UINT32_MAX, streak = 1;
static uint32_t home_last = UINT32_MAX - 1, home_streak = 1;
/* Blocks fetched since the last release (of notice generation
   SCATTER_GEN) by write faults that continued no stream: a scatter into
   many buckets under way.  */
static uint32_t scatter_gen = UINT32_MAX, scatter_got;

/* The blocks a scatter's fetch asks for besides B's run: runs of blocks
   after it that are invalid here, not busy and of the same home H,
   skipping the blocks held already, until WANT blocks in all (B's run
   of N0 included), SCATTER_RUNS runs or GOMP_DSM_GET_MAX blocks from B.
   Fills RUN (pairs: first, count; RUN[0..1] is B's run) with them
   locked; returns the number of runs.  */
static uint32_t
scatter_runs (uint32_t b, uint32_t n0, int h, uint32_t want, uint32_t *run)
{
  size_t bs = gomp_dsm.bsize;
  char *a = gomp_dsm_block_addr (b);
  uint32_t nr = 1, total = n0;
  run[0] = b;
  run[1] = n0;
  for (uint32_t c = b + n0; total < want && c < gomp_dsm.nblocks
       && c - b < GOMP_DSM_GET_MAX; c++)
    {
      if (gomp_dsm_block_addr (c) != a + (size_t) (c - b) * bs
	  || gomp_dsm_block_len (c) != bs
	  || __atomic_load_n (&gomp_dsm.home[c], __ATOMIC_ACQUIRE) != h)
	break;
      if (gomp_dsm_state (c) != BS_INVALID || !gomp_dsm_trylock (c))
	continue;
      if (gomp_dsm_state (c) != BS_INVALID)
	{
	  gomp_dsm_unlock (c);
	  continue;
	}
      if (run[2 * nr - 2] + run[2 * nr - 1] == c)
	run[2 * nr - 1]++;
      else if (nr < SCATTER_RUNS)
	{
	  run[2 * nr] = c;
	  run[2 * nr + 1] = 1;
	  nr++;
	}
      else
	{
	  gomp_dsm_unlock (c);
	  break;
	}
      total++;
    }
  return nr;
}

/* This thread's fault fetched a block (whose label may ask for a
   catch-up, dsm.h), or found one it must catch up for first.  */
static __thread bool fault_fetched;

const uint64_t *gomp_dsm_seen;

/* True when a label this node received is newer than what it acquired
   from that node (dsm.h).  Signal-safe.  */
static bool
behind (void)
{
  if (!gomp_dsm_seen || !gomp_dsm_catch_up)
    return false;
  for (int r = 0; r < gomp_dsm.nodes; r++)
    if (r != gomp_dsm.rank
	&& __atomic_load_n (&gomp_dsm_need[r], __ATOMIC_ACQUIRE)
	   > __atomic_load_n (&gomp_dsm_seen[r], __ATOMIC_ACQUIRE))
      return true;
  return false;
}

/* Installs the blocks of a scatter's fetch beyond B's run (their data in
   the writable view): each becomes writable with its twin, as the blocks
   after B do in gomp_dsm_make_access, and is unlocked.  When the reply's
   label is newer than what this node acquired, they stay inaccessible
   (PREFETCHED) as B's run does, until a thread that touches them caught
   up: opened now, another thread could read a flag in one of them before
   the invalidation of the data the flag guards.  */
static void
scatter_install (uint32_t c, uint32_t n)
{
  size_t bs = gomp_dsm.bsize;
  if (!gomp_dsm_in_catch_up && !gomp_dsm_stack_block (c) && behind ())
    {
      for (uint32_t i = 0; i < n; i++)
	{
	  gomp_dsm_mark_cached (c + i);
	  gomp_dsm_set_state (c + i, BS_PREFETCHED);
	  gomp_dsm_unlock (c + i);
	}
      return;
    }
  for (uint32_t i = 0; i < n; i++)
    {
      memcpy (gomp_dsm.twins + ((size_t) (c + i) << gomp_dsm.bshift),
	      gomp_dsm_block_wview (c + i), bs);
      gomp_dsm_list_add (&gomp_dsm.dirty, c + i);
      gomp_dsm_mark_cached (c + i);
    }
  gomp_dsm_protect (c, n, PROT_READ | PROT_WRITE);
  for (uint32_t i = 0; i < n; i++)
    {
      gomp_dsm_set_state (c + i, BS_WRITE);
      gomp_dsm_unlock (c + i);
    }
}

/* Fetches B from its home H (the caller holds B's lock) into the writable
   view, with the blocks after it when the node is reading sequentially
   (fetch-ahead: up to FETCH_AHEAD_BYTES of blocks of the same home that are
   invalid here and not busy, in one round trip) or B continues a run of
   blocks it holds (one of many streams); WRITE: for a write fault.
   Returns the number of
   blocks fetched; the caller must unlock blocks B+1 and up (they are
   locked and still INVALID).  */

static uint32_t
fetch (uint32_t b, int h, size_t len, bool write)
{
  fault_fetched = true;
  size_t bs = gomp_dsm.bsize;
  uint32_t want = 1, n = 1;
  bool guess = false;		/* Fetching ahead of one of many streams.  */
  uint32_t max = FETCH_AHEAD_BYTES >> gomp_dsm.bshift;
  if (max < FETCH_AHEAD_MIN)
    max = FETCH_AHEAD_MIN;
  char *a = gomp_dsm_block_addr (b);
  if (b == __atomic_load_n (&last_end, __ATOMIC_RELAXED) + 1)
    want = __atomic_load_n (&streak, __ATOMIC_RELAXED) * 2;
  else if (len == bs)
    {
      /* Many streams at once (a scatter into many buckets, each filled
	 in order; the faults of the streams interleave, so LAST_END sees
	 none of them): the blocks just before B that this node fetched
	 and still holds show how far the stream that reached B has come.
	 Fetch as far ahead as that, so that again what is taken beyond
	 the stream's end is at most what it used.  */
      uint32_t behind = 0;
      while (behind < max && behind < b)
	{
	  uint32_t c = b - 1 - behind;
	  uint32_t m = __atomic_load_n (&gomp_dsm.meta[c], __ATOMIC_RELAXED);
	  uint32_t st = m & M_STATE;
	  if ((st != BS_READ && st != BS_WRITE) || !(m & M_CACHED)
	      || gomp_dsm_block_len (c) != bs
	      || gomp_dsm_block_addr (c) != a - (size_t) (behind + 1) * bs
	      || __atomic_load_n (&gomp_dsm.home[c], __ATOMIC_RELAXED) != h)
	    break;
	  behind++;
	}
      want = behind;
      guess = true;
      /* The streams of a scatter start with nothing fetched behind
	 them, and each would then take a few faults to come up to
	 speed (IS at 2 x 1, the first sort: ~1400 fetches for 2048
	 blocks, each a round trip to a home that is busy scattering
	 too).  A scatter under way since the last release has shown
	 how much it writes: fetch as far ahead as it fetched, which
	 takes the blocks of the next streams too; they count as used
	 only once written.  */
      if (write && __atomic_load_n (&scatter_gen, __ATOMIC_RELAXED)
		   == notice_gen ())
	{
	  uint32_t s = __atomic_load_n (&scatter_got, __ATOMIC_RELAXED);
	  if (want < s)
	    want = s;
	}
    }
  if (want > max)
    want = max;
  if (len != bs)
    want = 1;
  for (uint32_t c = b + 1; n < want && c < gomp_dsm.nblocks; c++, n++)
    if (gomp_dsm_block_addr (c) != a + (size_t) n * bs
	|| gomp_dsm_block_len (c) != bs
	|| __atomic_load_n (&gomp_dsm.home[c], __ATOMIC_ACQUIRE) != h
	|| gomp_dsm_state (c) != BS_INVALID || !gomp_dsm_trylock (c))
      break;
    else if (gomp_dsm_state (c) != BS_INVALID)
      {
	gomp_dsm_unlock (c);
	break;
      }
  /* A scatter's fetch takes the blocks it wants past the ones held
     already (the first faults of its streams fetched islands, and a run
     would stop at the first): a few large requests instead of one per
     gap, each a round trip to a home that is busy scattering too (IS
     at 2 x 1, the first sort: ~85 requests of 24 blocks on average,
     ~400 us each).  */
  uint32_t run[2 * SCATTER_RUNS], nr = 1;
  if (guess && write && n < want)
    nr = scatter_runs (b, n, h, want, run);
  size_t got;
  char *reply = NULL;
  if (nr > 1)
    {
      uint32_t total = 0;
      for (uint32_t r = 0; r < nr; r++)
	total += run[2 * r + 1];
      size_t max = 4 * nr + GOMP_DSM_LABEL_LEN + (size_t) total * bs;
      if (!(reply = malloc (max)))
	gomp_dsm_fatal_sig ("out of memory for a fetch", 0);
      size_t rlen = gomp_cl_call (h, GOMP_CL_TAG_PAGE_GET, run, 8 * nr,
				  reply, max);
      size_t off = 4 * nr + GOMP_DSM_LABEL_LEN;
      got = 0;
      if (rlen < off)
	gomp_dsm_fatal_sig ("internal error: bad reply to a fetch", 0);
      gomp_dsm_need_label (reply + 4 * nr);
      for (uint32_t r = 0; r < nr; r++)
	{
	  /* The reply has room for every block asked for (serve.c,
	     page_get_handler): the first K of the run are served.  */
	  uint32_t k;
	  memcpy (&k, reply + 4 * r, 4);
	  if (k > run[2 * r + 1] || off + (size_t) run[2 * r + 1] * bs > rlen)
	    gomp_dsm_fatal_sig ("internal error: bad reply to a fetch", 0);
	  memcpy (gomp_dsm_block_wview (run[2 * r]), reply + off,
		  (size_t) k * bs);
	  off += (size_t) run[2 * r + 1] * bs;
	  if (r == 0)
	    got = k;
	  else
	    {
	      if (k)
		scatter_install (run[2 * r], k);
	      for (uint32_t i = k; i < run[2 * r + 1]; i++)
		gomp_dsm_unlock (run[2 * r] + i);
	      DSM_STAT (fetches, k);
	      DSM_STAT (fetch_bytes, (size_t) k * bs);
	      gomp_dsm_report_fetch (run[2 * r], k);
	    }
	}
      free (reply);
      if (got == 0)
	{
	  /* B was busy at the home: ask for it alone, which waits.  */
	  for (uint32_t i = 1; i < n; i++)
	    gomp_dsm_unlock (b + i);
	  n = 1;
	}
    }
  if (nr == 1 || got == 0)
    {
      /* Installed through the writable view while the application view
	 is still inaccessible.  */
      uint32_t req[2] = { b, n };
      struct gomp_cl_pending w;
      uint64_t tail[GOMP_DSM_MAX_NODES];
      gomp_cl_call_async_tail (h, GOMP_CL_TAG_PAGE_GET, req, sizeof req,
			       gomp_dsm_block_wview (b), n * len, tail,
			       sizeof tail, &w);
      got = gomp_cl_call_wait (&w);
      if (got == 0)
	{
	  /* The home says B holds nothing (wild.c).  */
	  for (uint32_t i = 1; i < n; i++)
	    gomp_dsm_unlock (b + i);
	  return 0;
	}
      /* The label follows the blocks: past the room when every block
	 came, else in the room of the first block that did not (locked
	 and invalid here: its bytes mean nothing).  */
      size_t ll = GOMP_DSM_LABEL_LEN;
      if (got < ll)
	gomp_dsm_fatal_sig ("internal error: short page from the home", 0);
      got -= ll;
      gomp_dsm_need_label (got + ll <= n * len
			   ? (void *) (gomp_dsm_block_wview (b) + got)
			   : (void *) tail);
      if (got < len || (n > 1 && got % bs))
	gomp_dsm_fatal_sig ("internal error: short page from the home", 0);
      got = n > 1 ? got / bs : 1;
    }
  for (uint32_t i = got; i < n; i++)
    gomp_dsm_unlock (b + i);
  __atomic_store_n (&streak, got < want ? 1 : (want > 1 ? want : 1),
		    __ATOMIC_RELAXED);
  __atomic_store_n (&last_end, b + got - 1, __ATOMIC_RELAXED);
  if (guess && write)
    {
      uint32_t g = notice_gen ();
      if (__atomic_exchange_n (&scatter_gen, g, __ATOMIC_RELAXED) != g)
	__atomic_store_n (&scatter_got, got, __ATOMIC_RELAXED);
      else
	__atomic_add_fetch (&scatter_got, got, __ATOMIC_RELAXED);
    }
  DSM_STAT (fetches, got);
  DSM_STAT (fetch_bytes, got * len);
  gomp_dsm_report_fetch (b, got);
  /* Blocks fetched ahead of one of many streams of writes count as used
     (to be prefetched again at the acquire that invalidates them) only
     once a release finds them written (release.c): the guess takes
     a few blocks past the end of each stream, which the next stream's
     owner writes.  Reads cannot be seen later: fetched for a read, they
     count at once.  */
  for (uint32_t i = 0; i < got; i++)
    {
      gomp_dsm_mark_cached (b + i);
      if (!(i && guess && write))
	gomp_dsm_mark_used (b + i);
    }
  return got;
}

/* A fault on a PREFETCHED block B (the caller holds its lock): this node
   uses what the last acquire prefetched, so the whole run of PREFETCHED
   blocks around B becomes readable in one mprotect, with no message, and
   counts as used (the next acquire that invalidates it prefetches it
   again).  */
static void
open_prefetched (uint32_t b, bool write)
{
  uint32_t lo = b, hi = b;
  size_t bs = gomp_dsm.bsize;
  if (gomp_dsm_block_len (b) == bs)
    {
      while (lo > 0 && b - lo < GOMP_DSM_GET_MAX
	     && gomp_dsm_block_len (lo - 1) == bs
	     && gomp_dsm_block_addr (lo - 1) + bs == gomp_dsm_block_addr (lo)
	     && gomp_dsm_state (lo - 1) == BS_PREFETCHED
	     && gomp_dsm_trylock (lo - 1))
	if (gomp_dsm_state (lo - 1) == BS_PREFETCHED)
	  lo--;
	else
	  {
	    gomp_dsm_unlock (lo - 1);
	    break;
	  }
      while (hi + 1 < gomp_dsm.nblocks && hi - b < GOMP_DSM_GET_MAX
	     && gomp_dsm_block_len (hi + 1) == bs
	     && gomp_dsm_block_addr (hi) + bs == gomp_dsm_block_addr (hi + 1)
	     && gomp_dsm_state (hi + 1) == BS_PREFETCHED
	     && gomp_dsm_trylock (hi + 1))
	if (gomp_dsm_state (hi + 1) == BS_PREFETCHED)
	  hi++;
	else
	  {
	    gomp_dsm_unlock (hi + 1);
	    break;
	  }
    }
  /* Opened by a write: the run was used, and is prefetched, because this
     node wrote it; expect the same writes again and make every block of
     it writable with its twin now (a twin costs less than a fault, and a
     block left unchanged sends no diff and no notice).  */
  uint32_t state = write ? BS_WRITE : BS_READ;
  for (uint32_t c = lo; write && c <= hi; c++)
    {
      memcpy (gomp_dsm.twins + ((size_t) c << gomp_dsm.bshift),
	      gomp_dsm_block_wview (c), gomp_dsm_block_len (c));
      gomp_dsm_list_add (&gomp_dsm.dirty, c);
    }
  gomp_dsm_protect (lo, hi - lo + 1,
		    write ? PROT_READ | PROT_WRITE : PROT_READ);
  for (uint32_t c = lo; c <= hi; c++)
    {
      gomp_dsm_mark_used (c);
      gomp_dsm_set_state (c, state);
      if (c != b)
	gomp_dsm_unlock (c);
    }
  DSM_STAT (prefetch_opens, 1);
}

bool
gomp_dsm_make_access (uint32_t b, bool write)
{
  uint32_t st = gomp_dsm_state (b);
  if (st == BS_HOME_RW || st == BS_WRITE
      || (!write && (st == BS_READ || st == BS_HOME_RO)))
    return true;
  int h = gomp_dsm_home (b);
  if (h < 0)
    return false;
  if (h == gomp_dsm.rank)
    {
      uint32_t n = 1;
      if (st == BS_HOME_RO)
	{
	  /* Others cache it: this write must reach them as a notice.  A
	     node writing its home blocks in sequence (a loop over its part
	     of an array) opens the cached blocks after it at once, each
	     with its notice: fewer faults and mprotects for a few notices
	     that may turn out unneeded.  */
	  DSM_STAT (home_faults, 1);
	  uint32_t want = 1;
	  if (b == __atomic_load_n (&home_last, __ATOMIC_RELAXED) + 1)
	    {
	      want = __atomic_load_n (&home_streak, __ATOMIC_RELAXED) * 2;
	      if (want > WRITE_AHEAD_MAX)
		want = WRITE_AHEAD_MAX;
	    }
	  size_t len = gomp_dsm_block_len (b);
	  char *a = gomp_dsm_block_addr (b);
	  for (uint32_t c = b + 1; n < want && c < gomp_dsm.nblocks; c++, n++)
	    if (gomp_dsm_block_addr (c) != a + (size_t) n * len
		|| gomp_dsm_block_len (c) != len
		|| __atomic_load_n (&gomp_dsm.home[c], __ATOMIC_ACQUIRE)
		   != gomp_dsm.rank
		|| gomp_dsm_state (c) != BS_HOME_RO || !gomp_dsm_trylock (c))
	      break;
	    else if (gomp_dsm_state (c) != BS_HOME_RO)
	      {
		gomp_dsm_unlock (c);
		break;
	      }
	  for (uint32_t i = 0; i < n; i++)
	    {
	      gomp_dsm_htwin_make (b + i);
	      gomp_dsm_notice (b + i);
	    }
	  __atomic_store_n (&home_streak, n < want ? 1 : want, __ATOMIC_RELAXED);
	  __atomic_store_n (&home_last, b + n - 1, __ATOMIC_RELAXED);
	}
      else if (st != BS_INVALID)
	gomp_dsm_fatal_sig ("internal error: bad state of a home block", 0);
      /* A first touch: the untouched blocks after it that are homed here
	 too (claimed in sequence) become accessible with it.  */
      if (st == BS_INVALID)
	{
	  size_t len = gomp_dsm_block_len (b);
	  char *a = gomp_dsm_block_addr (b);
	  for (uint32_t c = b + 1; n < MANAGER_GROUP && c < gomp_dsm.nblocks;
	       c++, n++)
	    if (gomp_dsm_block_addr (c) != a + (size_t) n * len
		|| gomp_dsm_block_len (c) != len
		|| (gomp_dsm.policy == HOME_FIRST_TOUCH
		    ? __atomic_load_n (&gomp_dsm.home[c], __ATOMIC_ACQUIRE)
		    : gomp_dsm_home (c)) != gomp_dsm.rank
		|| gomp_dsm_state (c) != BS_INVALID || !gomp_dsm_trylock (c))
	      break;
	    else if (gomp_dsm_state (c) != BS_INVALID)
	      {
		gomp_dsm_unlock (c);
		break;
	      }
	}
      gomp_dsm_protect (b, n, PROT_READ | PROT_WRITE);
      for (uint32_t i = 0; i < n; i++)
	gomp_dsm_set_state (b + i, BS_HOME_RW);
      if (n > 1)
	gomp_dsm_touch_extend (b, b + n - 1);
      for (uint32_t i = 1; i < n; i++)
	gomp_dsm_unlock (b + i);
      return true;
    }
  size_t len = gomp_dsm_block_len (b);
  if (st == BS_PREFETCHED)
    {
      /* Prefetched by another thread's acquire, or fetched by a fault,
	 with a label this node has not caught up with yet (the label is
	 recorded before the block becomes PREFETCHED): this thread
	 catches up first, and the access faults again.  */
      if (!gomp_dsm_in_catch_up && !gomp_dsm_stack_block (b) && behind ())
	{
	  fault_fetched = true;
	  return true;
	}
      open_prefetched (b, write);
      return true;
    }
  else if (st == BS_INVALID)
    {
      uint32_t got = fetch (b, h, len, write);
      if (got == 0)
	return false;
      if (!gomp_dsm_in_catch_up && !gomp_dsm_stack_block (b) && behind ())
	{
	  /* Newer than what this node acquired: inaccessible, as if
	     prefetched, until this thread caught up (the fault handler);
	     the access then faults again and opens them.  Another thread
	     that touches them first catches up itself (above): made
	     readable now, they could show it a flag before the
	     invalidation of its data.  */
	  for (uint32_t i = 0; i < got; i++)
	    {
	      gomp_dsm_set_state (b + i, BS_PREFETCHED);
	      if (i)
		gomp_dsm_unlock (b + i);
	    }
	  return true;
	}
      if (!write)
	{
	  gomp_dsm_protect (b, got, PROT_READ);
	  for (uint32_t i = 0; i < got; i++)
	    gomp_dsm_set_state (b + i, BS_READ);
	  for (uint32_t i = 1; i < got; i++)
	    gomp_dsm_unlock (b + i);
	  return true;
	}
      if (got > 1)
	{
	  /* Fetched ahead for a write (a sequential one, or a scatter):
	     the blocks after B will most likely be written too, so they
	     all become writable with their twins now, as a prefetched
	     run opened by a write does; a block left unchanged sends no
	     diff, and counts as used only once a release finds it
	     changed (release.c).  IS at 2 x 1, first sort: ~2000 write
	     faults less per node.  */
	  for (uint32_t i = 0; i < got; i++)
	    {
	      memcpy (gomp_dsm.twins + ((size_t) (b + i) << gomp_dsm.bshift),
		      gomp_dsm_block_wview (b + i), len);
	      gomp_dsm_list_add (&gomp_dsm.dirty, b + i);
	    }
	  gomp_dsm_protect (b, got, PROT_READ | PROT_WRITE);
	  for (uint32_t i = 0; i < got; i++)
	    {
	      gomp_dsm_set_state (b + i, BS_WRITE);
	      if (i)
		gomp_dsm_unlock (b + i);
	    }
	  return true;
	}
    }
  /* First write since the last release: keep a twin for the diff.  A
     block that went READ for being left unchanged (M_EXPIRED) is
     written again: keep it writable longer next time (release.c).  */
  if (st == BS_READ)
    {
      uint32_t v = __atomic_load_n (&gomp_dsm.meta[b], __ATOMIC_RELAXED), nv;
      do
	{
	  nv = (v | M_USED) & ~M_EXPIRED;
	  if ((v & M_EXPIRED) && (v & M_KEEP) >> M_KEEP_SHIFT < KEEP_MAX)
	    nv += 1u << M_KEEP_SHIFT;
	}
      while (!__atomic_compare_exchange_n (&gomp_dsm.meta[b], &v, nv, true,
					   __ATOMIC_RELAXED,
					   __ATOMIC_RELAXED));
    }
  memcpy (gomp_dsm.twins + ((size_t) b << gomp_dsm.bshift),
	  gomp_dsm_block_wview (b), len);
  gomp_dsm_list_add (&gomp_dsm.dirty, b);
  gomp_dsm_protect (b, 1, PROT_READ | PROT_WRITE);
  gomp_dsm_set_state (b, BS_WRITE);
  return true;
}

static void
chain (int sig, siginfo_t *si, void *ctx)
{
  if (old_sa.sa_flags & SA_SIGINFO)
    old_sa.sa_sigaction (sig, si, ctx);
  else if (old_sa.sa_handler == SIG_DFL || old_sa.sa_handler == SIG_IGN)
    {
      /* Let the fault happen again with the default action.  */
      struct sigaction d;
      memset (&d, 0, sizeof d);
      sigemptyset (&d.sa_mask);
      d.sa_handler = SIG_DFL;
      sigaction (SIGSEGV, &d, NULL);
    }
  else
    old_sa.sa_handler (sig);
}

/* dsm.h; read by gomp_dsm_protect and below.  */
int gomp_dsm_stack_prot;

void (*gomp_dsm_catch_up) (bool in_fault);
/* A fault inside the catch-up (its acquire touches no program memory,
   but a prefetch reply might): no catch-up again.  */
__thread bool gomp_dsm_in_catch_up;

static void
fault_handler (int sig, siginfo_t *si, void *ctx)
{
  int saved = errno;
  uint32_t b = gomp_dsm_block (si->si_addr);
  ucontext_t *uc = ctx;
  if (b != UINT32_MAX && gomp_dsm_state (b) == BS_UNMANAGED)
    {
      /* A guard page (private stack tops never fault): an overflow when
	 the faulting thread's stack pointer is next to the address.  */
      uintptr_t a = (uintptr_t) si->si_addr;
      uintptr_t sp = uc->uc_mcontext.gregs[REG_RSP];
      if (a < sp + 4096 && a + STACK_OVERFLOW_REACH >= sp)
	gomp_dsm_fatal_sig ("a thread overflowed its stack in the shared "
			    "segment (it hit the guard page); raise "
			    "OMP_STACKSIZE or the stack limit", 0);
      gomp_dsm_wild (si->si_addr);
    }
  if (b == UINT32_MAX)
    {
      chain (sig, si, ctx);
      errno = saved;
      return;
    }
  if (__atomic_load_n (&dsm_finished, __ATOMIC_ACQUIRE))
    {
      /* After the shutdown (an exit handler, a destructor): no messages
	 any more; give the node's local copy rather than hang.  */
      if (__atomic_exchange_n (&dsm_finished, 2, __ATOMIC_ACQ_REL) == 1)
	gomp_cl_say ("ompcluster: warning: shared memory touched after the "
		     "cluster shut down; its contents may be stale\n");
      gomp_dsm_protect (b, 1, PROT_READ | PROT_WRITE);
      errno = saved;
      return;
    }
  /* Bit 4 of the error code: an instruction fetch, which no protection
     the DSM gives allows outside an executable stack area.  */
  if ((uc->uc_mcontext.gregs[REG_ERR] & 16)
      && !(gomp_dsm_stack_prot && gomp_dsm_stack_block (b)))
    gomp_dsm_fatal_sig ("not supported: code executed from the shared "
			"segment (a nested function's trampoline on a "
			"thread stack, in a program linked without an "
			"executable stack: drop -z noexecstack)", 0);
  bool write = (uc->uc_mcontext.gregs[REG_ERR] & 2) != 0;
  if (write)
    DSM_STAT (write_faults, 1);
  else
    DSM_STAT (read_faults, 1);
  gomp_dsm_report_fault (b, write);
  /* The first touch of a block on this node: what this node knows
     holds nothing is a wild access; what another node knows, its
     answer tells (make_access).  */
  if (__atomic_load_n (&gomp_dsm.home[b], __ATOMIC_ACQUIRE) < 0
      && !gomp_dsm_allocated_here (b))
    gomp_dsm_wild (si->si_addr);
  fault_fetched = false;
  gomp_dsm_lock (b);
  bool ok = gomp_dsm_make_access (b, write);
  gomp_dsm_unlock (b);
  if (!ok)
    gomp_dsm_wild (si->si_addr);
  /* What the fetch brought may be newer than what this node acquired
     from its home (dsm.h): acquire that first.  Should B be invalidated
     by it, the access faults again.  Only after a fetch: a fault that
     needs no message (one inside MPI, on a stack) sends none.  */
  if (fault_fetched && gomp_dsm_catch_up && !gomp_dsm_in_catch_up)
    {
      fault_fetched = false;
      gomp_dsm_in_catch_up = true;
      gomp_dsm_catch_up (true);
      gomp_dsm_in_catch_up = false;
    }
  errno = saved;
}

/* Called by gomp_dsm_fini, after the transport stopped.  */
void
gomp_dsm_fault_fini (void)
{
  __atomic_store_n (&dsm_finished, 1, __ATOMIC_RELEASE);
}

void
gomp_dsm_fault_init (void)
{
  struct sigaction sa;
  memset (&sa, 0, sizeof sa);
  sigemptyset (&sa.sa_mask);
  sa.sa_sigaction = fault_handler;
  sa.sa_flags = SA_SIGINFO | SA_ONSTACK | SA_RESTART;
  if (sigaction (SIGSEGV, &sa, &old_sa) != 0)
    gomp_dsm_fatal ("cannot install the SIGSEGV handler: %s",
		    strerror (errno));
  gomp_dsm_home_init ();
}
