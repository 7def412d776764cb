/* fetch.c -- fetching blocks from their homes for a fault: one run of
   blocks in one round trip, with the blocks after it when the node reads
   in sequence or one of many streams continues (fetch-ahead), for a
   scatter into many buckets, the runs of the next streams too, and, for
   a thread that walks the rows of a tile of a 2-D array (its faults a
   fixed stride apart) or walks downwards, the next rows or blocks.
   Runs go on into blocks whose home this node has not looked up yet
   (home_may_be).  Called by the fault handler with the block's lock
   held (fault.c), so everything here is signal-safe: the request goes
   with gomp_cl_call, whose wait polls MPI for the reply itself
   (transport/call.c, "Signal context").  */

#include "dsm-int.h"
#include "report.h"
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>

/* Blocks one fetch brings at most (FETCH_AHEAD_BYTES, but at least
   FETCH_AHEAD_MIN blocks).  The number doubles along a sequential
   streak, so what it takes beyond the streak's end is at most what the
   streak used; the cap only bounds one message.  A fetch that continues
   no streak (many streams at once) takes as many blocks ahead as the run
   of fetched blocks just before it (gomp_dsm_fetch).  */
#define FETCH_AHEAD_BYTES (512 * 1024)
#define FETCH_AHEAD_MIN 16
#define SCATTER_RUNS 32		/* Runs one fetch of a scatter may ask for.  */
#define FETCH_GAP_MAX 2		/* Blocks not fetched yet just below a
				   stream's fault (gomp_dsm_fetch).  */

/* The end of the last run of blocks fetched and the length of the
   current sequential streak (shared by the node's threads; races only
   make the guess worse).  */
static uint32_t last_end = UINT32_MAX, streak = 1;
/* Blocks fetched since the last release (of notice generation
   SCATTER_GEN) by write faults that continued no stream: a scatter into
   many buckets under way.  */
static uint32_t scatter_gen = UINT32_MAX, scatter_got;

/* Strided faults: a thread that reads or writes a tile of a larger 2-D
   array (a quadrant of a matrix, a plane of a 3-D grid) faults on the
   first block of each of the tile's rows, a fixed number of blocks
   apart, and the streams of several arrays walked together interleave
   (c[i][j] = a[i][j] + b[i][j]).  Per thread, the runs its last
   STRIDE_HIST faults fetched show a stride once two of them and the
   faulting block lie the same distance apart (D, at most STRIDE_MAX
   blocks either way, and more than the row) and were fetched in that
   order, evenly spaced in time (stride_regular), all three the start
   of a row (the block before not fetched by the thread: a row whose
   blocks came in several faults, 1, 1 and 2 blocks of a 4-block row,
   showed the distances between those instead, 7 or 11 for rows 8
   apart, strassen's thief); the fault then
   fetches, in the same round trip, as many rows ahead as the stride has
   shown (the rows of the history, then twice as many each time the
   fault lands where the last fetch ahead ended: a stream of
   STRIDE_STREAMS), each row as long as the row before it was, the
   blocks present here or busy left out.  A
   thread that walks blocks downwards (a backward copy) is a stride of -1
   with rows of one block, fetched as one run below the fault.  They
   arrive PREFETCHED: a thread that touches one opens its run with no
   message (fault.c), and an acquire drops those nobody used.  */
#define STRIDE_HIST 16
#define STRIDE_STREAMS 4
#define STRIDE_MAX 4096
struct stride_run
{
  uint32_t first, n;
};
struct stride_stream
{
  uint32_t next, rows, len;
  int32_t d;
};
static __thread struct stride_run stride_hist[STRIDE_HIST];
static __thread unsigned stride_nhist;
static __thread struct stride_stream stride_streams[STRIDE_STREAMS];
static __thread unsigned stride_victim;
/* Whether block C may be fetched from H: H is its home, or this node
   does not know its home yet (first touch; not a stack block) and H may
   be.  A home serves only its own blocks (serve.c: a run stops at the
   first that is not, a run that starts with one is not served, see
   GOMP_DSM_GET_GUESS) and the reply teaches the requester their home
   (learn_homes).  Only a request of several runs goes on into them: the
   home sends none of a run's blocks it does not serve, and they keep
   what they hold (one may be this node's, untouched, whose first touch
   takes it as it is); a fetch of one run gets the label in the room of
   its first block not served, so it stops before them.  The homes of first-touch blocks are known only by
   manager group (home.c, MANAGER_GROUP blocks, the groups' managers
   alternating between the nodes): a thief reading a quadrant of
   its creator's matrix, its rows 4 blocks apart, had its stride
   fetches cut at every group it had not looked up, each stream
   starting over (bench/apps' strassen at 2 x 1 with stealing: ~7
   blocks per fetch).  */
static bool
home_may_be (uint32_t c, int h)
{
  int16_t k = __atomic_load_n (&gomp_dsm.home[c], __ATOMIC_ACQUIRE);
  return k == h || (k == -1 && gomp_dsm.policy == HOME_FIRST_TOUCH
		    && !gomp_dsm_stack_block (c));
}

/* Locks block C and returns true if it is a whole block at address A,
   of home H (or maybe, home_may_be), invalid here and not busy: one more
   block for a run.  */
static bool
lock_invalid (uint32_t c, const char *a, int h)
{
  if (gomp_dsm_block_addr (c) != a
      || gomp_dsm_block_len (c) != gomp_dsm.bsize
      || !home_may_be (c, h)
      || gomp_dsm_state (c) != BS_INVALID || !gomp_dsm_trylock (c))
    return false;
  if (gomp_dsm_state (c) != BS_INVALID)
    {
      gomp_dsm_unlock (c);
      return false;
    }
  return true;
}

/* Extends the run of N blocks from B (locked, or none when N is 0) by the
   blocks after it, up to WANT in all (lock_invalid); returns the run's
   length, its new blocks locked.  */
static uint32_t
lock_run (uint32_t b, uint32_t n, uint32_t want, int h)
{
  char *a = gomp_dsm_block_addr (b);
  while (n < want && b + n < gomp_dsm.nblocks
	 && lock_invalid (b + n, a + (size_t) n * gomp_dsm.bsize, h))
    n++;
  return n;
}

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

/* How many blocks just below B - SKIP this node holds (fetched, READ or
   WRITE), of home H, at most MAX.  */
static uint32_t
held_below (uint32_t b, uint32_t skip, int h, uint32_t max)
{
  size_t bs = gomp_dsm.bsize;
  char *a = gomp_dsm_block_addr (b);
  uint32_t behind = 0;
  while (behind < max && skip + behind < b)
    {
      uint32_t c = b - 1 - skip - behind;
      uint32_t m = __atomic_load_n (&gomp_dsm.meta[c], __ATOMIC_RELAXED);
      uint32_t st = m & M_STATE;
      if ((st != BS_READ && st != BS_WRITE) || !(m & M_CACHED)
	  || gomp_dsm_block_len (c) != bs
	  || gomp_dsm_block_addr (c) != a - (size_t) (skip + behind + 1) * bs
	  || __atomic_load_n (&gomp_dsm.home[c], __ATOMIC_RELAXED) != h)
	break;
      behind++;
    }
  return behind;
}

/* Installs N blocks from C fetched ahead (their data in the writable
   view) as PREFETCHED, and unlocks them: the first access opens them
   with no message (fault.c), and an acquire drops those nobody used.  */
static void
install_prefetched (uint32_t c, uint32_t n)
{
  for (uint32_t i = 0; i < n; i++)
    {
      gomp_dsm_mark_cached (c + i);
      gomp_dsm_set_state (c + i, BS_PREFETCHED);
      gomp_dsm_unlock (c + i);
    }
}

/* Blocks C to C + N - 1 came from H: their home, where this node did
   not know it (home_may_be).  */
static void
learn_homes (uint32_t c, uint32_t n, int h)
{
  for (uint32_t i = 0; i < n; i++)
    {
      int16_t k = -1;
      __atomic_compare_exchange_n (&gomp_dsm.home[c + i], &k, (int16_t) h,
				   false, __ATOMIC_RELEASE, __ATOMIC_RELAXED);
    }
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
  if (!gomp_dsm_in_catch_up && !gomp_dsm_stack_block (c)
      && gomp_dsm_behind ())
    {
      install_prefetched (c, n);
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

/* How many faults ago this thread's last fetch of block C was (1: the
   last fault), or 0 when none of its recent faults fetched it.  */
static unsigned
stride_age (int64_t c)
{
  unsigned n = stride_nhist < STRIDE_HIST ? stride_nhist : STRIDE_HIST;
  for (unsigned k = 1; k <= n; k++)
    {
      const struct stride_run *h
	= &stride_hist[(stride_nhist - k) % STRIDE_HIST];
      if (c >= h->first && c < (int64_t) h->first + h->n)
	return k;
    }
  return 0;
}

static bool
stride_seen (int64_t c)
{
  return stride_age (c) != 0;
}

/* Whether blocks fetched A1 and A2 faults ago (0: not lately), and the
   block faulting now, are steps of one walk: in that order, and as many
   faults apart (give or take one), as a loop that walks one or a few
   arrays in step makes them.  Faults at random over a few blocks often
   hold three a stride apart, seldom so evenly spaced.  */
static bool
stride_regular (unsigned a1, unsigned a2)
{
  return a1 && a1 <= STRIDE_HIST / 2 && a2 > a1
	 && a2 - a1 + 1 >= a1 && a2 - a1 <= a1 + 1;
}

/* The stride of this thread's faults that B continues: fills *D, the
   rows to fetch ahead (*ROWS) and their length (*LEN), and returns the
   stream it continues (NULL: a new one) -- or returns NULL with *ROWS
   0 when B continues none.  */
static struct stride_stream *
stride_of (uint32_t b, int32_t *d, uint32_t *rows, uint32_t *len)
{
  *rows = 0;
  for (unsigned i = 0; i < STRIDE_STREAMS; i++)
    {
      struct stride_stream *st = &stride_streams[i];
      if (st->rows && st->next == b)
	{
	  *d = st->d;
	  *len = st->len;
	  *rows = 2 * st->rows;
	  return st;
	}
    }
  /* Downwards in sequence (a backward copy: glibc's memcpy copies
     backwards when source and destination are a multiple of 4 KiB
     apart): the blocks below B, one "row" each.  */
  if (b > 0 && stride_regular (stride_age ((int64_t) b + 1),
			       stride_age ((int64_t) b + 2))
      && !stride_seen ((int64_t) b - 1))
    {
      uint32_t r = 2;
      while (r < GOMP_DSM_GET_MAX && stride_seen ((int64_t) b + r + 1))
	r++;
      *d = -1;
      *len = 1;
      *rows = r;
      return NULL;
    }
  /* B goes on with a row this thread is reading: no row starts here.  */
  if (b > 0 && stride_seen ((int64_t) b - 1))
    return NULL;
  unsigned n = stride_nhist < STRIDE_HIST ? stride_nhist : STRIDE_HIST;
  for (unsigned k = 1; k <= n; k++)
    {
      /* The most recent first.  */
      int64_t p = stride_hist[(stride_nhist - k) % STRIDE_HIST].first;
      int64_t dd = (int64_t) b - p;
      if (dd == 0 || dd > STRIDE_MAX || dd < -STRIDE_MAX
	  || stride_seen (p - 1)
	  || !stride_regular (stride_age (p), stride_age (p - dd)))
	continue;
      /* The row before B: the blocks from P this thread fetched.  */
      uint32_t l = 1;
      while (l < (dd > 0 ? dd : -dd) && stride_seen (p + l))
	l++;
      if (l >= (dd > 0 ? dd : -dd))
	continue;		/* Sequential: fetch-ahead's case.  */
      uint32_t r = 2;
      while (r < 2 * STRIDE_HIST && stride_seen (p - (int64_t) r * dd))
	r++;
      *d = (int32_t) dd;
      *len = l;
      *rows = r;
      return NULL;
    }
  return NULL;
}

/* The runs of the rows after B's (B's run of N0 is RUN[0..1]): row K
   starts at B + K * D and is LEN blocks long, for K = 1 .. ROWS, each
   cut at the first block that is not a whole block of home H invalid
   here, in its row's order in memory, and lockable; no more than
   SCATTER_RUNS runs or GOMP_DSM_GET_MAX blocks in all.  Returns the
   number of runs, their blocks locked, and in *LAST the last row with
   blocks asked for (0: none).  */
static uint32_t
stride_runs (uint32_t b, uint32_t n0, int h, int32_t d, uint32_t rows,
	     uint32_t len, uint32_t *run, uint32_t *last)
{
  size_t bs = gomp_dsm.bsize;
  uint32_t nr = 1, total = n0;
  run[0] = b;
  run[1] = n0;
  *last = 0;
  if (d == -1)
    {
      /* One run: the ROWS blocks below B, as far as they qualify.  */
      char *a = gomp_dsm_block_addr (b);
      uint32_t m = 0;
      while (m < rows && m < b && total + m < GOMP_DSM_GET_MAX
	     && lock_invalid (b - 1 - m, a - (size_t) (m + 1) * bs, h))
	m++;
      if (m)
	{
	  run[2] = b - m;
	  run[3] = m;
	  if (__atomic_load_n (&gomp_dsm.home[b - m], __ATOMIC_ACQUIRE) != h)
	    run[3] |= GOMP_DSM_GET_GUESS;
	  nr = 2;
	  *last = m;
	}
      return nr;
    }
  for (uint32_t k = 1; k <= rows && nr < SCATTER_RUNS; k++)
    {
      int64_t f = (int64_t) b + (int64_t) k * d;
      if (f < 0 || f >= gomp_dsm.nblocks)
	break;
      uint32_t first = (uint32_t) f;
      uint32_t m = lock_run (first, 0, len < GOMP_DSM_GET_MAX - total
					? len : GOMP_DSM_GET_MAX - total, h);
      if (m)
	{
	  *last = k;
	  run[2 * nr] = first;
	  run[2 * nr + 1] = m;
	  if (__atomic_load_n (&gomp_dsm.home[first], __ATOMIC_ACQUIRE) != h)
	    run[2 * nr + 1] |= GOMP_DSM_GET_GUESS;
	  nr++;
	  total += m;
	}
      if (total >= GOMP_DSM_GET_MAX)
	break;
    }
  return nr;
}

/* Fetches B from its home H (the caller holds B's lock) into the writable
   view, with the blocks after it when the node is reading sequentially
   (fetch-ahead: up to FETCH_AHEAD_BYTES of blocks of the same home that are
   invalid here and not busy, in one round trip) or B continues a run of
   blocks it holds (one of many streams); WRITE: for a write fault.
   Returns the number of blocks fetched (0: the home says B holds
   nothing); the caller must unlock blocks B+1 and up (they are locked
   and still INVALID).  */
uint32_t
gomp_dsm_fetch (uint32_t b, int h, size_t len, bool write)
{
  size_t bs = gomp_dsm.bsize;
  uint32_t want = 1, n = 1, gap = 0;
  bool guess = false;		/* Fetching ahead of one of many streams.  */
  uint32_t max = FETCH_AHEAD_BYTES >> gomp_dsm.bshift;
  if (max < FETCH_AHEAD_MIN)
    max = FETCH_AHEAD_MIN;
  char *a = gomp_dsm_block_addr (b);
  bool seq = b == __atomic_load_n (&last_end, __ATOMIC_RELAXED) + 1;
  if (seq)
    want = __atomic_load_n (&streak, __ATOMIC_RELAXED) * 2;
  else if (len == bs)
    {
      /* Many streams at once (a scatter into many buckets, each filled
	 in order; the faults of the streams interleave, so LAST_END sees
	 none of them): the blocks just before B that this node fetched
	 and still holds show how far the stream that reached B has come.
	 Fetch as far ahead as that, so that again what is taken beyond
	 the stream's end is at most what it used.  */
      uint32_t behind = held_below (b, 0, h, max);
      /* Two streams one block apart (the rows of two neighbouring
	 tiles, A11 + A12: each row one block, the tiles' rows
	 alternating) fault in turns, each just past the other's last
	 block: the blocks below the one or two not fetched yet show the
	 way too, and those come along (GAP, a run of their own).  */
      if (!behind)
	for (uint32_t g = 1; g <= FETCH_GAP_MAX && g < b; g++)
	  {
	    uint32_t c = b - g;
	    if (gomp_dsm_block_len (c) != bs
		|| gomp_dsm_block_addr (c) != a - (size_t) g * bs
		|| __atomic_load_n (&gomp_dsm.home[c], __ATOMIC_RELAXED) != h)
	      break;
	    if (gomp_dsm_state (c) != BS_INVALID)
	      {
		behind = held_below (b, g - 1, h, max);
		if (behind)
		  gap = g - 1;
		break;
	      }
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
		   == gomp_dsm_notice_gen ())
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
  n = lock_run (b, n, want, h);
  /* A scatter's fetch takes the blocks it wants past the ones held
     already (the first faults of its streams fetched islands, and a run
     would stop at the first): a few large requests instead of one per
     gap, each a round trip to a home that is busy scattering too (IS
     at 2 x 1, the first sort: ~85 requests of 24 blocks on average,
     ~400 us each).  */
  uint32_t run[2 * SCATTER_RUNS], nr = 1;
  if (guess && write && n < want)
    nr = scatter_runs (b, n, h, want, run);
  if (gap && nr == 1)
    {
      uint32_t g = 0;
      while (g < gap && lock_invalid (b - gap + g, a - (size_t) (gap - g) * bs,
				      h))
	g++;
      if (g == gap)
	{
	  run[0] = b;
	  run[1] = n;
	  run[2] = b - gap;
	  run[3] = gap;
	  nr = 2;
	}
      else
	while (g)
	  gomp_dsm_unlock (b - gap + --g);
    }
  /* A stride: B's row as long as the row before it, and the rows
     after it.  */
  struct stride_stream *sst = NULL;
  int32_t sd = 0;
  uint32_t srows = 0, slen = 0, slast = 0;
  if (nr == 1 && !seq && len == bs)
    sst = stride_of (b, &sd, &srows, &slen);
  if (sd == -1 && srows > max)
    srows = max;
  if (srows)
    {
      n = lock_run (b, n, slen, h);
      nr = stride_runs (b, n, h, sd, srows, slen, run, &slast);
    }
  size_t got;
  if (nr > 1)
    {
      /* The reply straight into the writable views of the runs' blocks
	 (one message per run, after one with the counts and the label:
	 serve.c, page_get_handler), not through a buffer: a thief's
	 stride fetches of hundreds of blocks were copied twice more.
	 Only the blocks served come: the others keep what they hold.  */
      struct gomp_cl_iov iov[1 + SCATTER_RUNS];
      uint32_t hdr[SCATTER_RUNS + 2 * GOMP_DSM_MAX_NODES];
      iov[0].base = hdr;
      iov[0].len = 4 * nr + GOMP_DSM_LABEL_LEN;
      for (uint32_t r = 0; r < nr; r++)
	{
	  iov[r + 1].base = gomp_dsm_block_wview (run[2 * r]);
	  iov[r + 1].len = (size_t) (run[2 * r + 1] & ~GOMP_DSM_GET_GUESS)
			   * bs;
	}
      struct gomp_cl_pending w;
      gomp_cl_call_async_iov (h, GOMP_CL_TAG_PAGE_GET, run, 8 * nr, iov,
			      (int) nr + 1, &w);
      for (uint32_t r = 0; r < nr; r++)
	gomp_dsm_populate (iov[r + 1].base, iov[r + 1].len);
      size_t rlen = gomp_cl_call_wait (&w), sum = iov[0].len;
      got = 0;
      if (rlen < iov[0].len)
	gomp_dsm_fatal_sig ("internal error: bad reply to a fetch", 0);
      gomp_dsm_need_label (hdr + nr);
      for (uint32_t r = 0; r < nr; r++)
	{
	  /* The first K of the run are served.  */
	  uint32_t k = hdr[r], m = run[2 * r + 1] & ~GOMP_DSM_GET_GUESS;
	  if (k > m)
	    gomp_dsm_fatal_sig ("internal error: bad reply to a fetch", 0);
	  sum += (size_t) k * bs;
	  learn_homes (run[2 * r], k, h);
	  if (r == 0)
	    got = k;
	  else
	    {
	      if (k)
		{
		  if (srows || !write)
		    install_prefetched (run[2 * r], k);
		  else
		    scatter_install (run[2 * r], k);
		}
	      for (uint32_t i = k; i < m; i++)
		gomp_dsm_unlock (run[2 * r] + i);
	      DSM_STAT (fetches, k);
	      DSM_STAT (fetch_bytes, (size_t) k * bs);
	      gomp_dsm_report_fetch (run[2 * r], k);
	    }
	}
      if (rlen != sum)
	gomp_dsm_fatal_sig ("internal error: bad reply to a fetch", 0);
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
	 is still inaccessible.  The label comes in the room of the
	 first block not served: none of them may be a block whose home
	 this node does not know (home_may_be), which may be its own,
	 untouched, and its first touch would take the label for data
	 (GCC's uns-outer-4.c at 2 x 2 summed a 1 into a zero array).  */
      for (uint32_t i = 1; i < n; i++)
	if (__atomic_load_n (&gomp_dsm.home[b + i], __ATOMIC_ACQUIRE) != h)
	  {
	    for (uint32_t j = i; j < n; j++)
	      gomp_dsm_unlock (b + j);
	    n = i;
	    break;
	  }
      uint32_t req[2] = { b, n };
      struct gomp_cl_pending w;
      uint64_t tail[GOMP_DSM_MAX_NODES];
      gomp_cl_call_async_tail (h, GOMP_CL_TAG_PAGE_GET, req, sizeof req,
			       gomp_dsm_block_wview (b), n * len, tail,
			       sizeof tail, &w);
      /* While the request travels (the service thread, woken by the
	 push, usually sends it): MPI's copy into pages never mapped here
	 would fault on each.  */
      gomp_dsm_populate (gomp_dsm_block_wview (b), n * len);
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
  stride_hist[stride_nhist++ % STRIDE_HIST] = (struct stride_run) { b, got };
  if (srows && slast)
    {
      if (!sst)
	sst = &stride_streams[stride_victim++ % STRIDE_STREAMS];
      sst->d = sd;
      sst->len = slen;
      sst->rows = sd == -1 || srows < SCATTER_RUNS ? srows : SCATTER_RUNS;
      sst->next = (uint32_t) ((int64_t) b + (int64_t) (slast + 1) * sd);
    }
  __atomic_store_n (&streak, got < want ? 1 : (want > 1 ? want : 1),
		    __ATOMIC_RELAXED);
  __atomic_store_n (&last_end, b + got - 1, __ATOMIC_RELAXED);
  if (guess && write)
    {
      uint32_t g = gomp_dsm_notice_gen ();
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
