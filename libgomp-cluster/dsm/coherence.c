/* coherence.c -- home-based lazy release consistency with multiple writers.

   Release: every block this node wrote without being its home (state
   WRITE, in the dirty list) is compared with its twin and its diff -- the
   exact changed bytes -- sent to the home, batched per home; the release
   waits until every home has applied them.  The block stays writable
   meanwhile (no mprotect, no TLB shootdown): the comparison loads each
   word once and stores the changed ones into the twin, which thus holds
   exactly what was sent, and a word a local thread writes after its load
   is found at the next release.  The release's write notices are those
   blocks plus the home blocks this node wrote while another node cached
   them (a write fault on HOME_RO) or changed by an atomic.  After a release a home forgets the copysets of the blocks it
   announced: every node that cached them before receives the notice (the
   cluster forwards every blob until the next barrier, which gives every
   node all of them), and a later fetch protects the home's copy again.

   Stack blocks are never write-protected at their home: glibc runs code
   with every signal blocked (pthread_create writes to its caller's stack
   after clone), and a fault there would kill the process.  Instead every
   release announces the home's stack blocks that other nodes fetched
   since the previous one, as if they had been written.

   A block written with no change (the same values again) sends no diff
   and no notice; a written block stays writable with a fresh twin (it is
   likely written again soon) until KEEP_IDLE releases in a row find it
   unchanged, then it becomes READ (write-protected, then diffed again).
   The idle releases count one in KEEP_STEP (4): a fault costs as much
   as comparing the block at ~50 releases (12 us against 0.2-0.3 us with
   its share of the dirty list's sorting, IS at 2 x 1), so a block
   written once waits about as long in compares as a fault would cost
   before it stops being compared.  A block written again after that (a
   fault) is one that the program rewrites now and then with the same
   values, e.g. a bucket sort's keys of a bucket that did not change
   from one sort to the next: it stays writable longer each time this
   happens (one release in 8, 16, 32 counts).  With KEEP_IDLE releases
   in a row, IS at 2 x 1 (4 releases per sort) took ~500 write faults
   per sort and node, which doubled the time of its scatter.

   Acquire: every non-home block named by a notice is invalidated (made
   inaccessible in runs, one mprotect each); a block this node is writing
   at the same time (disjoint bytes, or a lock acquired while other local
   threads write) then sends its diff.  The
   invalidated blocks this node used since their last prefetch (fetched
   on a fault, or a prefetched run it opened) are fetched again at once
   (OMPC_DSM_PREFETCH): one message per home naming every run, while the
   homes are in the same synchronisation.  They arrive PREFETCHED, still
   inaccessible: the first access opens the whole run with no message,
   and marks it used; a prefetched block nobody touches before the next
   notice about it is not prefetched again.

   Updates in place (OMPC_DSM_EAGER): at a barrier's acquire no thread of
   the node runs program code, so a clean copy (READ) that the node keeps
   reading is fetched again into its writable view while it stays
   readable: no mprotect, no TLB shootdown, no fault afterwards.  The
   barrier returns only once every such block is back (or, when its home
   was busy, made inaccessible); the homes serve it as a prefetch, after
   every node's release of the barrier applied its diffs there.  Since a
   readable block shows no use, each has a budget (fault.c,
   gomp_dsm_mark_used): 2^L - 1 updates in place, L raised by each fault
   that finds it used, up to EAGER_LVL_MAX; then it is prefetched
   (inaccessible) once more, which either shows it still used or lets
   it go invalid (L back to 0).  A block written here (WRITE) is
   invalidated as before.

   Pushes (OMPC_DSM_EAGER too): a region's data block and the master's
   locals it points to lie on rank 0's stack, which its release announces
   whenever another node fetched them; every node reads them first thing
   in the region, and would fetch them from rank 0 while rank 0 already
   computes (its service thread then answers late, on a busy machine up
   to a scheduler slice).  So rank 0 sends the contents of the stack
   blocks its region-start release announced (at most GOMP_DSM_PUSH_MAX)
   along with the dispatch (gomp_dsm_push_pack), counting every other node
   in their copysets, and the other nodes install them as read-only copies
   instead of invalidating them (gomp_dsm_acquire_push); a block a node
   is writing itself is invalidated as usual.

   A home serves a fetch from its writable view under the block's lock;
   when a local thread holds that lock (it is asking the manager, or
   running an atomic), the request is deferred, never waited for: the
   service thread must not block.  */

#include "dsm-int.h"
#include "report.h"
#include <emmintrin.h>
#include <immintrin.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>

/* A release sends a home its diffs in batches of about DIFF_BATCH bytes
   as it encodes them, up to DIFF_FLIGHT batches not yet applied: the
   home applies one while this node encodes the next (IS at 2 x 1: ~6 MiB
   of diffs per sort from one node, in 4 MiB batches each waited for
   before the next was encoded).  */
#define DIFF_BATCH (1u << 20)
#define DIFF_FLIGHT 8
#define KEEP_IDLE 6		/* Counted releases a written block stays
				   writable unchanged.  */
#define KEEP_STEP 4		/* One release in KEEP_STEP << M_KEEP
				   counts.  */

static pthread_mutex_t rel_mutex = PTHREAD_MUTEX_INITIALIZER;
/* The stack blocks the last release announced because other nodes had
   fetched them (gomp_dsm_push_pack); with rel_mutex.  */
static uint32_t push_cand[GOMP_DSM_PUSH_MAX], push_ncand;
/* The stack blocks the last release announced, with the nodes that had
   fetched them (gomp_dsm_refetch_pending); with rel_mutex, read without
   it by the thread that released.  */
#define REFETCH_MAX 16
static uint32_t refetch_block[REFETCH_MAX], refetch_n;
static uint64_t refetch_nodes[REFETCH_MAX];

struct diff_buf
{
  char *p;
  size_t len, cap;
};

/* The diffs of one release or acquire: a buffer per home being filled,
   and the batches sent (a ring of up to DIFF_FLIGHT), each buffer kept
   until its home has answered.  */
struct diff_out
{
  struct diff_buf *d;
  unsigned head, n;
  char *p[DIFF_FLIGHT];
  struct gomp_cl_pending w[DIFF_FLIGHT];
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

/* LEB128 integers in the diffs.  */
static unsigned char *
put_varint (unsigned char *p, uint32_t v)
{
  while (v >= 128)
    {
      *p++ = (v & 127) | 128;
      v >>= 7;
    }
  *p++ = v;
  return p;
}

static const unsigned char *
get_varint (const unsigned char *p, const unsigned char *end, uint32_t *v)
{
  uint32_t x = 0;
  for (int s = 0; p < end && s < 35; s += 7)
    {
      unsigned c = *p++;
      x |= (uint32_t) (c & 127) << s;
      if (!(c & 128))
	{
	  *v = x;
	  return p;
	}
    }
  return NULL;
}

/* Set bits of an 8-bit value (no libgcc call without -mpopcnt).  */
static inline unsigned
pop8 (unsigned m)
{
  m = m - ((m >> 1) & 0x55);
  m = (m & 0x33) + ((m >> 2) & 0x33);
  return (m + (m >> 4)) & 0x0f;
}

/* Set bits of a 64-bit value.  */
static inline unsigned
pop64 (uint64_t x)
{
  x = x - ((x >> 1) & 0x5555555555555555ULL);
  x = (x & 0x3333333333333333ULL) + ((x >> 2) & 0x3333333333333333ULL);
  x = (x + (x >> 4)) & 0x0f0f0f0f0f0f0f0fULL;
  return (x * 0x0101010101010101ULL) >> 56;
}

/* Bit I: byte I of X is not 0.  */
static inline unsigned
nonzero_bytes (uint64_t x)
{
  const uint64_t lo7 = 0x7f7f7f7f7f7f7f7fULL;
  /* Bit 7 of each byte of NZ: that byte of X is not 0.  */
  uint64_t nz = (((x & lo7) + lo7) | x) & ~lo7;
  return (unsigned) (((nz >> 7) * 0x0102040810204080ULL) >> 56);
}

/* The change mask of a block, one bit per byte (bit I of MASK[K]: byte
   8K + I differs from the twin), for LEN bytes, a multiple of 8; returns
   the changed bytes and sets *RUNS to the number of runs of them and
   *WORDS to the number of changed 8-byte words.  16 bytes at a time
   (SSE2's byte compare gives the mask bits directly), the counts once
   per 64 bytes: word by word, with counts per word, took 1.5 us per
   block of dense small changes (IS's keys; a byte-wise scan several
   times more).  Every changed 16 bytes are stored into the twin as they
   were loaded (one load each, which reads each aligned 8-byte word
   once), so that afterwards the twin is a snapshot of the block and
   holds exactly the bytes the diff sends: a local thread that writes
   the block meanwhile (it stays writable) never loses a write -- one
   the snapshot missed still differs from the twin at the next
   release.  */
static size_t
diff_mask (const unsigned char *cur, unsigned char *twin, size_t len,
	   unsigned char *mask, size_t *runs, size_t *words)
{
  size_t changed = 0, starts = 0, nw = 0;
  unsigned carry = 0;
  /* Most blocks compared at a release did not change since the last one
     (they stay writable for several releases): one memcmp (vector
     loads) tells those apart at a fraction of the word loop's cost.
     Equal now is a snapshot too: a later write differs at the next
     release.  */
  if (memcmp (cur, twin, len) == 0)
    {
      *runs = *words = 0;
      return 0;
    }
  size_t k = 0;
  for (; k + 8 <= len / 8; k += 8)
    {
      uint64_t m64 = 0;
      for (int j = 0; j < 4; j++)
	{
	  __m128i a = _mm_loadu_si128 ((const __m128i *) (cur + 8 * k
							  + 16 * j));
	  __m128i t = _mm_loadu_si128 ((const __m128i *) (twin + 8 * k
							  + 16 * j));
	  uint64_t m = ~_mm_movemask_epi8 (_mm_cmpeq_epi8 (a, t)) & 0xffff;
	  if (m)
	    _mm_storeu_si128 ((__m128i *) (twin + 8 * k + 16 * j), a);
	  m64 |= m << (16 * j);
	}
      /* Byte J of M64 is the mask of word K + J.  */
      memcpy (mask + k, &m64, 8);
      if (m64)
	{
	  changed += pop64 (m64);
	  starts += pop64 (m64 & ~((m64 << 1) | carry));
	  nw += pop8 (nonzero_bytes (m64));
	}
      carry = m64 >> 63;
    }
  for (; k < len / 8; k++)
    {
      uint64_t a, b;
      a = __atomic_load_n ((const uint64_t *) (cur + 8 * k),
			   __ATOMIC_RELAXED);
      memcpy (&b, twin + 8 * k, 8);
      uint64_t x = a ^ b;
      unsigned m = 0;
      if (x)
	{
	  m = nonzero_bytes (x);
	  changed += pop8 (m);
	  starts += pop8 (m & ~((m << 1) | carry) & 0xff);
	  memcpy (twin + 8 * k, &a, 8);
	  nw++;
	}
      carry = m >> 7;
      mask[k] = m;
    }
  *runs = starts;
  *words = nw;
  return changed;
}

/* The first bit at or after POS (below N) of MASK that is set (WANT) or
   clear (!WANT); N when none.  */
static size_t
mask_next (const unsigned char *mask, size_t pos, size_t n, bool want)
{
  while (pos < n)
    {
      if (!(pos & 63) && pos + 64 <= n)
	{
	  uint64_t w;
	  memcpy (&w, mask + pos / 8, 8);
	  if (!want)
	    w = ~w;
	  if (!w)
	    {
	      pos += 64;
	      continue;
	    }
	  return pos + __builtin_ctzll (w);
	}
      unsigned m = mask[pos / 8];
      if (!want)
	m = ~m & 0xff;
      m >>= pos & 7;
      if (m)
	{
	  pos += __builtin_ctz (m);
	  return pos < n ? pos : n;
	}
      pos = (pos | 7) + 1;
    }
  return n;
}

/* The change mask (diff_mask), kept between calls; every caller holds
   rel_mutex.  */
static unsigned char *mask_buf;
static size_t mask_cap;

/* Appends the diff of block B (its writable view against its twin) to D
   and brings the twin up to date (diff_mask: a snapshot, taken without
   write-protecting the block); returns false when nothing changed (then
   nothing is appended).  A
   record is uint32 block, uint32 header (bits 31-30: the form; the rest:
   the body's length), then the body, in one of three forms:
   runs -- per run of changed bytes a LEB128 gap from the previous run's
   end, a LEB128 length and the bytes --, bitmap -- one bit per byte of
   the block, then the changed bytes in order (scattered small changes,
   such as a few integers whose high bytes stay the same) -- or words --
   the same bitmap, then each changed 8-byte word whole (dense scattered
   changes: the keys of a bucket sort moved by one place change the low
   bytes of every integer of the block).  Runs when they are few; then
   words, unless they would send more than four times the changed bytes:
   the bitmap form moves its bytes one at a time at both ends (IS at 2 x
   1: encode_diff and apply_diff 4-5 us per block of such keys, a third
   of the time in its releases, against under 1 us word by word, for
   1.8 times the bytes).  Byte-exact every way (the words form stores
   each word's masked bytes alone: apply_words_avx512, store_masked), so
   that writers of disjoint bytes of one block never overwrite each
   other at the home.  The bytes come from the twin, the snapshot.  */
#define DIFF_BITMAP (1u << 31)
#define DIFF_WORDS (1u << 30)
#define DIFF_LEN (DIFF_WORDS - 1)
static bool
encode_diff (uint32_t b, struct diff_buf *d)
{
  size_t len = gomp_dsm_block_len (b);
  const unsigned char *cur = (unsigned char *) gomp_dsm_block_wview (b);
  unsigned char *twin = (unsigned char *) gomp_dsm.twins
    + ((size_t) b << gomp_dsm.bshift);
  size_t map = len / 8, runs, nw;
  if (len % 8)
    gomp_dsm_fatal ("internal error: a block of %zu bytes", len);
  if (mask_cap < map)
    {
      free (mask_buf);
      if (!(mask_buf = malloc (map)))
	gomp_dsm_fatal ("out of memory for diffs");
      mask_cap = map;
    }
  unsigned char *mask = mask_buf;
  size_t changed = diff_mask (cur, twin, len, mask, &runs, &nw);
  if (!changed)
    return false;
  /* Runs cost at least 2 header bytes each.  */
  bool bitmap = map < 2 * runs;
  bool words = bitmap && 8 * nw <= 4 * changed;
  size_t max = words ? map + 8 * nw : bitmap ? map + changed
	       : changed + 10 * runs;
  if (d->cap - d->len < 8 + max)
    {
      d->cap = (d->cap + 8 + max) * 2;
      d->p = realloc (d->p, d->cap);
      if (!d->p)
	gomp_dsm_fatal ("out of memory for diffs");
    }
  unsigned char *out = (unsigned char *) d->p + d->len, *q = out + 8;
  if (words)
    {
      memcpy (q, mask, map);
      q += map;
      for (size_t k = 0; k < map; k++)
	if (mask[k])
	  {
	    memcpy (q, twin + 8 * k, 8);
	    q += 8;
	  }
    }
  else if (bitmap)
    {
      memcpy (q, mask, map);
      q += map;
      for (size_t k = 0; k < map; k++)
	for (unsigned m = mask[k]; m; m &= m - 1)
	  *q++ = twin[k * 8 + __builtin_ctz (m)];
    }
  else
    for (size_t pos = 0, prev = 0;;)
      {
	size_t s = mask_next (mask, pos, len, true);
	if (s == len)
	  break;
	pos = mask_next (mask, s, len, false);
	q = put_varint (q, s - prev);
	q = put_varint (q, pos - s);
	memcpy (q, twin + s, pos - s);
	q += pos - s;
	prev = pos;
      }
  size_t body = q - out - 8;
  uint32_t hdr = body | (words ? DIFF_WORDS : bitmap ? DIFF_BITMAP : 0);
  memcpy (out, &b, 4);
  memcpy (out + 4, &hdr, 4);
  d->len += 8 + body;
  DSM_STAT (diffs, 1);
  DSM_STAT (diff_bytes, 8 + body);
  gomp_dsm_report_diff (b, 8 + body);
  return true;
}

/* Stores at W the bytes of the 8 at V that mask M selects (bit I: byte
   I), and no other byte: a thread of the home may be writing the other
   bytes of the word meanwhile (its own ints, beside another node's), and
   a read-modify-write of the word would undo that write (home-writes.c
   lost one in ~100 runs at 2 x 1).  Whole 4- and 2-byte pieces go as
   one store each.  */
static inline void
store_masked (char *w, const unsigned char *v, unsigned m)
{
  for (int h = 0; h < 8; h += 4)
    {
      if (((m >> h) & 0xf) == 0xf)
	{
	  memcpy (w + h, v + h, 4);
	  continue;
	}
      for (int q = h; q < h + 4; q += 2)
	switch ((m >> q) & 3)
	  {
	  case 3:
	    memcpy (w + q, v + q, 2);
	    break;
	  case 1:
	    w[q] = v[q];
	    break;
	  case 2:
	    w[q + 1] = v[q + 1];
	    break;
	  }
    }
}

/* Whether the processor has AVX-512BW's byte-masked stores
   (gomp_dsm_coherence_init).  */
static bool have_avx512bw;

/* The words form applied 8 words at a time with AVX-512: the words
   present (those whose mask byte is not 0) expanded into place, then
   stored under the 64 mask bits, a store that leaves every other byte
   alone (a byte at a time took ~12 ns a word of IS's keys, whose changed
   bytes come in irregular pairs).  W: the block, MAP its words, MASK
   their masks, DATA the words present up to END.  Returns where the
   data of words from MAP & ~7 on starts, NULL when the body is short.  */
__attribute__ ((target ("avx512f,avx512bw")))
static const unsigned char *
apply_words_avx512 (char *w, size_t map, const unsigned char *mask,
		    const unsigned char *data, const unsigned char *end)
{
  for (size_t k = 0; k + 8 <= map; k += 8)
    {
      uint64_t m64;
      memcpy (&m64, mask + k, 8);
      if (!m64)
	continue;
      __mmask8 present = nonzero_bytes (m64);
      size_t n = 8 * (size_t) pop8 (present);
      if ((size_t) (end - data) < n)
	return NULL;
      __m512i v = _mm512_maskz_expandloadu_epi64 (present, data);
      _mm512_mask_storeu_epi8 (w + 8 * k, m64, v);
      data += n;
    }
  return data;
}

/* Applies one block's diff body [P, END) in form FORM (the header's
   DIFF_BITMAP or DIFF_WORDS bit, or 0) to the writable view W of BLEN
   bytes; false when it is malformed.  */
static bool
apply_diff (char *w, size_t blen, uint32_t form, const unsigned char *p,
	    const unsigned char *end)
{
  if (form == DIFF_WORDS)
    {
      size_t map = blen / 8;
      if ((size_t) (end - p) < map || blen % 8)
	return false;
      const unsigned char *data = p + map;
      size_t k = 0;
      if (have_avx512bw)
	{
	  if (!(data = apply_words_avx512 (w, map, p, data, end)))
	    return false;
	  k = map & ~(size_t) 7;
	}
      for (; k < map; k++)
	if (p[k])
	  {
	    if ((size_t) (end - data) < 8)
	      return false;
	    if (p[k] == 0xff)
	      memcpy (w + 8 * k, data, 8);
	    else
	      store_masked (w + 8 * k, data, p[k]);
	    data += 8;
	  }
      return data == end;
    }
  if (form == DIFF_BITMAP)
    {
      size_t map = (blen + 7) / 8;
      if ((size_t) (end - p) < map)
	return false;
      const unsigned char *data = p + map;
      for (size_t k = 0; k < map; k++)
	for (unsigned m = p[k]; m; m &= m - 1)
	  {
	    size_t i = k * 8 + __builtin_ctz (m);
	    if (data >= end || i >= blen)
	      return false;
	    w[i] = *data++;
	  }
      return data == end;
    }
  size_t pos = 0;
  while (p < end)
    {
      uint32_t gap, n;
      if (!(p = get_varint (p, end, &gap)) || !(p = get_varint (p, end, &n))
	  || (size_t) (end - p) < n || pos + gap + n > blen)
	return false;
      pos += gap;
      memcpy (w + pos, p, n);
      p += n;
      pos += n;
    }
  return true;
}

/* Starts O empty, with a buffer per home.  */
static void
diff_out_init (struct diff_out *o)
{
  o->head = o->n = 0;
  if (!(o->d = calloc (gomp_dsm.nodes, sizeof *o->d)))
    gomp_dsm_fatal ("out of memory");
}

/* Waits until the home of the oldest batch of O has applied it, serving
   other nodes meanwhile (never in signal context; the caller holds
   rel_mutex and locks of non-home blocks only, which no handler waits
   for).  */
static void
diff_wait_oldest (struct diff_out *o)
{
  gomp_cl_call_wait_serving (&o->w[o->head]);
  free (o->p[o->head]);
  o->head = (o->head + 1) % DIFF_FLIGHT;
  o->n--;
}

/* Sends home H the diffs gathered for it (not waiting for them to be
   applied, unless DIFF_FLIGHT batches are out: then for the oldest);
   its buffer starts afresh.  A home applies one node's batches in the
   order they were posted (one tag; the transport sends its queue in
   order, MPI does not overtake, and diff_handler never defers), so a
   block diffed twice in a release (flush_dirty's second pass) gets its
   later bytes last.  */
static void
diff_post (struct diff_out *o, int h)
{
  if (o->n == DIFF_FLIGHT)
    diff_wait_oldest (o);
  unsigned s = (o->head + o->n++) % DIFF_FLIGHT;
  o->p[s] = o->d[h].p;
  gomp_cl_call_async (h, GOMP_CL_TAG_DIFF, o->d[h].p, o->d[h].len, NULL, 0,
		      &o->w[s]);
  o->d[h].p = NULL;
  o->d[h].len = o->d[h].cap = 0;
}

/* Adds the diff of block B (locked, WRITE) to O when B changed since its
   twin, and returns whether it did; a home's batch goes once it is
   DIFF_BATCH long.  */
static bool
diff_add (struct diff_out *o, uint32_t b)
{
  int h = gomp_dsm.home[b];
  bool changed = encode_diff (b, &o->d[h]);
  if (o->d[h].len >= DIFF_BATCH)
    diff_post (o, h);
  return changed;
}

/* Sends every home the rest of its diffs and waits until all of them
   are applied; frees O's buffers.  */
static void
diff_finish (struct diff_out *o)
{
  for (int h = 0; h < gomp_dsm.nodes; h++)
    if (o->d[h].len)
      diff_post (o, h);
  while (o->n)
    diff_wait_oldest (o);
  for (int h = 0; h < gomp_dsm.nodes; h++)
    free (o->d[h].p);
  free (o->d);
}

static void
diff_handler (int src, const void *msg, size_t len, uint64_t token)
{
  const unsigned char *p = msg, *end = p + len;
  while (p < end)
    {
      uint32_t b, hdr;
      if (end - p < 8)
	gomp_dsm_fatal ("corrupt diff from rank %d (%zu bytes left)", src,
			(size_t) (end - p));
      memcpy (&b, p, 4);
      memcpy (&hdr, p + 4, 4);
      p += 8;
      size_t body = hdr & DIFF_LEN;
      uint32_t form = hdr & ~DIFF_LEN;
      if (b >= gomp_dsm.nblocks || body > (size_t) (end - p)
	  || form == (DIFF_WORDS | DIFF_BITMAP)
	  || !apply_diff (gomp_dsm_block_wview (b), gomp_dsm_block_len (b),
			  form, p, p + body))
	gomp_dsm_fatal ("corrupt diff from rank %d (block %u)", src, b);
      gomp_dsm_migrate_wrote (b, src);
      p += body;
    }
  gomp_cl_reply (src, token, NULL, 0);
}

/* True when the home of B (locked) is another node: a barrier handed B
   to this node and the requester applied that hand-off first
   (migrate.c); the request waits until this node has applied it too.
   Anything else is an error, which ends the job once the request has
   waited GOMP_DSM_MOVE_WAIT seconds.  */
#define GOMP_DSM_MOVE_WAIT 60
static bool
moving_here (int src, uint32_t b)
{
  static uint32_t wait_b = UINT32_MAX;
  static long wait_since;
  int16_t h = __atomic_load_n (&gomp_dsm.home[b], __ATOMIC_ACQUIRE);
  if (h < 0 || h == gomp_dsm.rank)
    return false;
  long now = gomp_cl_now_ns ();
  if (wait_b != b)
    {
      wait_b = b;
      wait_since = now;
    }
  else if (now - wait_since > GOMP_DSM_MOVE_WAIT * 1000000000L)
    gomp_dsm_fatal ("rank %d asked for block %u, whose home is %d", src, b,
		    h);
  return true;
}

/* Locks block B and up to N-1 blocks after it that are homed here and
   not busy, copies them to OUT (room for N blocks; no copy when OUT is
   NULL) and records SRC in their copysets; returns how many (0 when B
   itself is busy).  Blocks that start being cached are write-protected in
   runs (one mprotect per run, not per block).  Service thread.  */
static uint32_t
serve_run (int src, uint32_t b, uint32_t n, char *out)
{
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
	  /* Written in the last interval, and the release that announces
	     it is under way (it took the notices, and will reach C
	     later): do its part for C now, so that it does not make C
	     writable again after we protect it for this requester.  */
	  if (gomp_dsm_unnotice (c, (__atomic_load_n (&gomp_dsm.notices.cur,
						      __ATOMIC_ACQUIRE)
				     >> 32) - 1))
	    __atomic_store_n (&gomp_dsm.copyset[c], 0, __ATOMIC_RELEASE);
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
	    protect = true;
	  if (!__atomic_fetch_or (&gomp_dsm.copyset[c], 1ULL << src,
				  __ATOMIC_ACQ_REL) && stack)
	    gomp_dsm_list_add (&gomp_dsm.stack_copied, c);
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
  if (out)
    memcpy (out, gomp_dsm_block_wview (b), (size_t) k * bs);
  /* The caller sends after this unlocks: a local thread inside MPI (which
     holds MPI's own lock) may be faulting on one of these blocks.  */
  for (uint32_t i = 0; i < k; i++)
    gomp_dsm_unlock (b + i);
  return k;
}

/* A page request: one run (uint32 block, uint32 count; a fault's fetch)
   is answered with the blocks, deferred while the first is busy; several
   runs (a prefetch: the pairs one after the other) with one uint32 count
   per run, then every block asked for, in order, of which only the first
   COUNT of each run are served (the others' bytes mean nothing; a busy
   run counts 0): the shape of the reply is known before it arrives, so
   the requester receives it straight into its blocks.  The blocks are
   sent straight from the writable view (gomp_cl_reply_iov: MPI reads
   them after serve_run unlocked them, and copies them only when the
   request did not ask for a direct reply: a home thread that writes one
   of them meanwhile has taken its fault and made its notice first, so
   the requester drops the copy at its next acquire that needs it; diffs
   applied meanwhile are from releases whose notices reach it later).  */
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
      if (req[2 * r + 1] > GOMP_DSM_GET_MAX - total)
	gomp_dsm_fatal ("bad block request from rank %d (%u blocks)", src,
			req[2 * r + 1]);
      total += req[2 * r + 1];
    }
  if (nruns == 1)
    {
      /* A stack block no thread's stack holds: an empty reply tells the
	 requester that it holds nothing (wild.c).  */
      if (req[0] < gomp_dsm.nblocks && !gomp_dsm_servable (req[0]))
	{
	  gomp_cl_reply (src, token, NULL, 0);
	  return;
	}
      uint32_t k = serve_run (src, req[0], req[1], NULL);
      if (k == 0)
	gomp_cl_defer ();
      else
	{
	  struct gomp_cl_iov iov = { gomp_dsm_block_wview (req[0]),
				     (size_t) k
				     * gomp_dsm_block_len (req[0]) };
	  gomp_cl_reply_iov (src, token, &iov, 1, false);
	}
      DSM_STAT (serve_ns, gomp_cl_now_ns () - t0);
      return;
    }
  uint32_t *counts = malloc (nruns * 4);
  struct gomp_cl_iov *iov = malloc ((nruns + 1) * sizeof *iov);
  if (!counts || !iov)
    gomp_dsm_fatal ("out of memory");
  iov[0].base = counts;
  iov[0].len = nruns * 4;
  for (uint32_t r = 0; r < nruns; r++)
    {
      uint32_t b = req[2 * r], n = req[2 * r + 1];
      size_t bs = gomp_dsm_block_len (b);
      counts[r] = serve_run (src, b, n, NULL);
      /* Every block of the run must lie in one writable view (as the
	 requester found them: whole blocks, consecutive addresses).  */
      if (n > 1
	  && (bs != gomp_dsm.bsize
	      || gomp_dsm_block_len (b + n - 1) != bs
	      || gomp_dsm_block_wview (b + n - 1)
		 != gomp_dsm_block_wview (b) + (size_t) (n - 1) * bs))
	gomp_dsm_fatal ("bad block request from rank %d (%u, %u)", src, b,
			n);
      iov[r + 1].base = gomp_dsm_block_wview (b);
      iov[r + 1].len = (size_t) n * bs;
    }
  gomp_cl_reply_iov (src, token, iov, nruns + 1, true);
  free (iov);
  DSM_STAT (serve_ns, gomp_cl_now_ns () - t0);
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
   stale, no notice.  Called with rel_mutex held.  */
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
  struct diff_out out;
  diff_out_init (&out);
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
      bool changed = diff_add (&out, b);
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
	  if (diff_add (&out, b))
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
  diff_finish (&out);
  free (v);
}

size_t
gomp_dsm_release (void **notices)
{
  long t0 = gomp_cl_now_ns ();
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
  push_ncand = 0;
  for (uint32_t i = 0; i < ns && push_ncand < GOMP_DSM_PUSH_MAX; i++)
    push_cand[push_ncand++] = sbuf[i];
  gomp_dsm_list_done (&gomp_dsm.stack_copied, sbuf, ns);
  /* The written blocks in order, so that home blocks that become writable
     again do so in runs (one mprotect each).  */
  uint32_t nw = n;
  n = n ? sort_unique (out, n) : 0;
  gomp_dsm_report_written (out, n);
  if (ns)
    memmove (out + n, out + nw, ns * sizeof *out);
  for (uint32_t i = 0; i < n;)
    {
      uint32_t j = i, rw = 0;
      for (; j < n && (j == i || out[j] == out[j - 1] + 1); j++)
	{
	  uint32_t b = out[j];
	  gomp_dsm_lock (b);
	  /* No mark left: a fetch served since we took the list did this
	     block's part (serve_run).  */
	  bool home = gomp_dsm_unnotice (b, gen)
		      && gomp_dsm.home[b] == gomp_dsm.rank;
	  if (home)
	    /* Whoever cached B gets this notice: forget them.  */
	    __atomic_store_n (&gomp_dsm.copyset[b], 0, __ATOMIC_RELEASE);
	  if (home && gomp_dsm_state (b) == BS_HOME_RO)
	    {
	      rw++;
	      continue;
	    }
	  if (rw)
	    {
	      gomp_dsm_protect (out[j - 1] - rw + 1, rw,
				PROT_READ | PROT_WRITE);
	      for (uint32_t k = j - rw; k < j; k++)
		gomp_dsm_set_state (out[k], BS_HOME_RW);
	      rw = 0;
	    }
	}
      if (rw)
	{
	  gomp_dsm_protect (out[j - 1] - rw + 1, rw, PROT_READ | PROT_WRITE);
	  for (uint32_t k = j - rw; k < j; k++)
	    gomp_dsm_set_state (out[k], BS_HOME_RW);
	}
      for (uint32_t k = i; k < j; k++)
	gomp_dsm_unlock (out[k]);
      i = j;
    }
  if (ns)
    n = sort_unique (out, n + ns);
  DSM_STAT (notices_sent, n);
  pthread_mutex_unlock (&rel_mutex);
  DSM_STAT (release_ns, gomp_cl_now_ns () - t0);
  *notices = out;
  return (size_t) n * sizeof *out;
}

int
gomp_dsm_unreleased (uint32_t **blocks)
{
  *blocks = NULL;
  if (pthread_mutex_trylock (&rel_mutex) != 0)
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
  pthread_mutex_unlock (&rel_mutex);
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

/* One prefetch message to a home: its runs and the reply.  */
struct prefetch_msg
{
  int home;
  uint32_t nruns, nblocks;
  uint32_t *req;		/* Pairs: first block, count.  */
  uint32_t *counts;		/* Blocks served per run (several runs).  */
  struct gomp_cl_iov *iov;	/* Where the reply goes.  */
  struct gomp_cl_pending w;
};

/* What becomes of block B, locked and fetched again by prefetch, once
   the reply is in: GOT says whether it arrived.  A block prefetched
   (inaccessible) becomes PREFETCHED, or INVALID when it did not arrive;
   a block updated in place (M_INPLACE, still READ and readable) stays
   READ with one update less in its budget, or is made inaccessible and
   INVALID when it did not arrive.  */
static void
prefetch_done (uint32_t b, bool got)
{
  uint32_t x = __atomic_load_n (&gomp_dsm.meta[b], __ATOMIC_RELAXED), nx;
  bool in_place = x & M_INPLACE;
  if (in_place && !got)
    gomp_dsm_protect (b, 1, PROT_NONE);
  do
    {
      nx = x & ~(M_STATE | M_USED | M_INPLACE);
      if (in_place && got)
	nx = (nx & ~M_LEFT) | M_USED | BS_READ
	     | ((x & M_LEFT) - (1u << M_LEFT_SHIFT));
      else
	nx |= got ? BS_PREFETCHED : BS_INVALID;
    }
  while (!__atomic_compare_exchange_n (&gomp_dsm.meta[b], &x, nx, true,
				       __ATOMIC_RELEASE, __ATOMIC_RELAXED));
  if (got && in_place)
    DSM_STAT (eager_updates, 1);
  else if (got)
    DSM_STAT (prefetches, 1);
}

/* Fetches again the locked blocks V[0..N) (sorted; clean copies made
   inaccessible, whose data is stale, and blocks updated in place): per
   home one message naming every run of consecutive blocks (more messages
   only past GOMP_DSM_GET_MAX blocks), all homes at once; prefetch_done
   says what each becomes.  Prefetching at the acquire rather than at the
   next faults moves the same bytes in far fewer messages, while the home
   is in the same synchronisation and not computing.  The wait serves the
   other nodes' requests (their prefetches of the same acquire) itself,
   without waking the service thread.  */
static void
prefetch (uint32_t *v, uint32_t n)
{
  int nodes = gomp_dsm.nodes;
  size_t bs = gomp_dsm.bsize;
  /* Runs first: RUN[I] = (first, count, home).  */
  uint32_t (*run)[3] = malloc (n * sizeof *run), nrun = 0;
  if (!run)
    gomp_dsm_fatal ("out of memory");
  for (uint32_t i = 0; i < n;)
    {
      uint32_t j = i + 1;
      int h = gomp_dsm.home[v[i]];
      if (gomp_dsm_block_len (v[i]) == bs)
	while (j < n && j - i < GOMP_DSM_GET_MAX && v[j] == v[j - 1] + 1
	       && gomp_dsm.home[v[j]] == h
	       && gomp_dsm_block_len (v[j]) == bs
	       && gomp_dsm_block_addr (v[j])
		  == gomp_dsm_block_addr (v[j - 1]) + bs
	       && gomp_dsm_block_wview (v[j])
		  == gomp_dsm_block_wview (v[j - 1]) + bs)
	  j++;
      run[nrun][0] = v[i];
      run[nrun][1] = j - i;
      run[nrun][2] = h;
      nrun++;
      i = j;
    }
  /* Messages: per home, runs in order until GOMP_DSM_GET_MAX blocks.  */
  struct prefetch_msg *m = calloc (nrun, sizeof *m);
  uint32_t *reqs = malloc (nrun * 2 * sizeof *reqs), nmsg = 0, used = 0;
  if (!m || !reqs)
    gomp_dsm_fatal ("out of memory");
  for (int h = 0; h < nodes; h++)
    {
      struct prefetch_msg *cur = NULL;
      for (uint32_t r = 0; r < nrun; r++)
	{
	  if ((int) run[r][2] != h)
	    continue;
	  if (!cur || cur->nblocks + run[r][1] > GOMP_DSM_GET_MAX)
	    {
	      cur = &m[nmsg++];
	      cur->home = h;
	      cur->req = reqs + used;
	    }
	  cur->req[2 * cur->nruns] = run[r][0];
	  cur->req[2 * cur->nruns + 1] = run[r][1];
	  cur->nruns++;
	  cur->nblocks += run[r][1];
	  used += 2;
	}
    }
  /* Every reply straight into the writable views of its blocks (the
     blocks are locked, and inaccessible or, in place, not read by
     anyone: bytes of blocks the home did not serve do no harm).  */
  for (uint32_t i = 0; i < nmsg; i++)
    {
      struct prefetch_msg *p = &m[i];
      uint32_t several = p->nruns > 1;
      p->iov = malloc ((p->nruns + several) * sizeof *p->iov);
      p->counts = several ? malloc (4 * p->nruns) : NULL;
      if (!p->iov || (several && !p->counts))
	gomp_dsm_fatal ("out of memory");
      if (several)
	{
	  p->iov[0].base = p->counts;
	  p->iov[0].len = 4 * p->nruns;
	}
      for (uint32_t r = 0; r < p->nruns; r++)
	{
	  p->iov[r + several].base = gomp_dsm_block_wview (p->req[2 * r]);
	  p->iov[r + several].len = (size_t) p->req[2 * r + 1]
				    * gomp_dsm_block_len (p->req[2 * r]);
	}
      gomp_cl_call_async_iov (p->home, GOMP_CL_TAG_PAGE_GET, p->req,
			      8 * p->nruns, p->iov, p->nruns + several,
			      &p->w);
    }
  for (uint32_t i = 0; i < nmsg; i++)
    {
      struct prefetch_msg *p = &m[i];
      size_t len = gomp_cl_call_wait_serving (&p->w), full = 0;
      for (uint32_t r = 0; r < p->nruns + (p->nruns > 1); r++)
	full += p->iov[r].len;
      if (p->nruns > 1 && len != full)
	gomp_dsm_fatal ("internal error: bad prefetch reply");
      for (uint32_t r = 0; r < p->nruns; r++)
	{
	  uint32_t b = p->req[2 * r], want = p->req[2 * r + 1], got;
	  size_t blen = gomp_dsm_block_len (b);
	  got = p->nruns == 1 ? len / blen : p->counts[r];
	  if (got > want)
	    got = want;
	  for (uint32_t i = 0; i < want; i++)
	    prefetch_done (b + i, i < got);
	  DSM_STAT (fetch_bytes, got * blen);
	  gomp_dsm_report_fetch (b, got);
	}
      free (p->counts);
      free (p->iov);
    }
  free (m);
  free (reqs);
  free (run);
}

/* Invalidates the sorted, unique non-home blocks V[0..N); with PREFETCH,
   fetches again those this node used since their last prefetch.  With
   IN_PLACE (no thread of the node runs program code meanwhile: see
   gomp_dsm_acquire), a clean block (READ) in use whose eager budget is
   not spent is updated in place instead: fetched again into its writable
   view while it stays readable, with no protection change, no fault and
   no TLB shootdown here.  Nothing can read it half-written, and it is
   back (or made inaccessible) before this returns.  A block written here
   (WRITE) is invalidated as always: its twin and dirty list say what this
   node changed.  */
static void
invalidate (uint32_t *v, uint32_t n, bool want_prefetch, bool in_place)
{
  struct diff_out out = { .d = NULL };
  uint32_t k = 0, ne = 0;
  /* Lock before looking at the state: a block being fetched right now
     (INVALID, locked by the fetching thread) may bring data older than
     the notice, so wait for it and invalidate it too.  */
  for (uint32_t i = 0; i < n; i++)
    {
      gomp_dsm_lock (v[i]);
      uint32_t st = gomp_dsm_state (v[i]);
      if (st == BS_READ || st == BS_WRITE || st == BS_PREFETCHED)
	{
	  uint32_t m = __atomic_load_n (&gomp_dsm.meta[v[i]],
					__ATOMIC_RELAXED);
	  if (in_place && st == BS_READ && (m & M_USED) && (m & M_LEFT))
	    {
	      __atomic_fetch_or (&gomp_dsm.meta[v[i]], M_INPLACE,
				 __ATOMIC_RELAXED);
	      ne++;
	    }
	  v[k++] = v[i];
	}
      else
	gomp_dsm_unlock (v[i]);
    }
  n = k;
  gomp_dsm_report_invals (v, n);
  /* Inaccessible first, in runs (PREFETCHED blocks are already: including
     them only makes the runs longer; blocks updated in place end a run),
     then the diffs of the blocks written here too (disjoint bytes): our
     bytes must reach the home.  */
  for (uint32_t i = 0; i < n;)
    {
      if (__atomic_load_n (&gomp_dsm.meta[v[i]], __ATOMIC_RELAXED)
	  & M_INPLACE)
	{
	  i++;
	  continue;
	}
      uint32_t j = i;
      while (j + 1 < n && v[j + 1] == v[j] + 1
	     && !(__atomic_load_n (&gomp_dsm.meta[v[j + 1]], __ATOMIC_RELAXED)
		  & M_INPLACE))
	j++;
      gomp_dsm_protect (v[i], j - i + 1, PROT_NONE);
      i = j + 1;
    }
  for (uint32_t i = 0; i < n; i++)
    if (gomp_dsm_state (v[i]) == BS_WRITE)
      {
	if (!out.d)
	  diff_out_init (&out);
	if (diff_add (&out, v[i]))
	  {
	    gomp_dsm_notice (v[i]);
	    __atomic_fetch_or (&gomp_dsm.meta[v[i]], M_USED,
			       __ATOMIC_RELAXED);
	  }
	gomp_dsm_set_state (v[i], BS_READ);
      }
  if (out.d)
    diff_finish (&out);
  /* Every block of V is inaccessible now, but those updated in place.  */
  uint32_t np = 0;
  for (uint32_t i = 0; i < n; i++)
    {
      uint32_t b = v[i];
      uint32_t m = __atomic_load_n (&gomp_dsm.meta[b], __ATOMIC_RELAXED);
      if ((m & M_INPLACE) || (want_prefetch && (m & M_USED)))
	v[np++] = b;		/* Stays locked until it arrives.  */
      else
	{
	  /* Not used since its last prefetch: its next use starts from
	     the lowest eager level.  */
	  while (!__atomic_compare_exchange_n
		 (&gomp_dsm.meta[b], &m,
		  (m & ~(M_STATE | M_LVL | M_LEFT))
		  | ((m & M_USED) ? (m & (M_LVL | M_LEFT)) : 0) | BS_INVALID,
		  true, __ATOMIC_RELEASE, __ATOMIC_RELAXED))
	    ;
	  gomp_dsm_unlock (b);
	}
    }
  DSM_STAT (invalidations, n - ne);
  if (np)
    {
      long t0 = gomp_cl_now_ns ();
      prefetch (v, np);
      DSM_STAT (prefetch_ns, gomp_cl_now_ns () - t0);
      for (uint32_t i = 0; i < np; i++)
	gomp_dsm_unlock (v[i]);
    }
}

size_t
gomp_dsm_push_pack (void **push)
{
  size_t bs = gomp_dsm.bsize;
  uint64_t others = gomp_dsm.nodes >= 64 ? ~0ULL
		    : (1ULL << gomp_dsm.nodes) - 1;
  others &= ~(1ULL << gomp_dsm.rank);
  *push = NULL;
  pthread_mutex_lock (&rel_mutex);
  uint32_t n = gomp_dsm.eager ? push_ncand : 0;
  char *buf = n ? malloc (4 + (size_t) n * (4 + bs)) : NULL;
  if (n && !buf)
    gomp_dsm_fatal ("out of memory");
  uint32_t k = 0;
  for (uint32_t i = 0; i < n; i++)
    {
      uint32_t b = push_cand[i];
      gomp_dsm_lock (b);
      if (gomp_dsm_state (b) == BS_HOME_RW && gomp_dsm_stack_block (b)
	  && gomp_dsm_block_len (b) == bs
	  && gomp_dsm.home[b] == gomp_dsm.rank)
	{
	  memcpy (buf + 4 + 4 * (size_t) n + (size_t) k * bs,
		  gomp_dsm_block_wview (b), bs);
	  memcpy (buf + 4 + 4 * k, &b, 4);
	  k++;
	  /* Every other node holds it now: the next release announces
	     it.  */
	  if (!__atomic_fetch_or (&gomp_dsm.copyset[b], others,
				  __ATOMIC_ACQ_REL))
	    gomp_dsm_list_add (&gomp_dsm.stack_copied, b);
	}
      gomp_dsm_unlock (b);
    }
  push_ncand = 0;
  pthread_mutex_unlock (&rel_mutex);
  if (!k)
    {
      free (buf);
      return 0;
    }
  /* Blocks first, then the data; N slots were kept for the blocks.  */
  memcpy (buf, &k, 4);
  if (k < n)
    memmove (buf + 4 + 4 * (size_t) k, buf + 4 + 4 * (size_t) n,
	     (size_t) k * bs);
  *push = buf;
  return 4 + (size_t) k * (4 + bs);
}

/* Installs block B of node ORIGIN with the contents DATA as a read-only
   copy (a fetch whose answer came with the region's start); false when
   this node is writing it (WRITE): it is then invalidated as usual.  */
static bool
install_pushed (uint32_t b, int origin, const char *data)
{
  size_t bs = gomp_dsm.bsize;
  if (b >= gomp_dsm.nblocks || !gomp_dsm_stack_block (b)
      || gomp_dsm_block_len (b) != bs)
    gomp_dsm_fatal ("corrupt pushed block %u from rank %d", b, origin);
  gomp_dsm_lock (b);
  if (gomp_dsm_home (b) != origin)
    gomp_dsm_fatal ("rank %d pushed block %u, whose home is %d", origin, b,
		    gomp_dsm.home[b]);
  uint32_t st = gomp_dsm_state (b);
  if (st == BS_WRITE || st == BS_UNMANAGED)
    {
      gomp_dsm_unlock (b);
      return false;
    }
  if (st == BS_READ)
    gomp_dsm_protect (b, 1, PROT_NONE);
  memcpy (gomp_dsm_block_wview (b), data, bs);
  gomp_dsm_protect (b, 1, PROT_READ);
  gomp_dsm_set_state (b, BS_READ);
  if (!(__atomic_fetch_or (&gomp_dsm.meta[b], M_CACHED, __ATOMIC_ACQ_REL)
	& M_CACHED))
    gomp_dsm.cached[__atomic_fetch_add (&gomp_dsm.ncached, 1,
					__ATOMIC_ACQ_REL)] = b;
  /* Every node reads a region's data block: keep it updated.  */
  gomp_dsm_mark_used (b);
  gomp_dsm_unlock (b);
  DSM_STAT (pushed, 1);
  gomp_dsm_report_fetch (b, 1);
  DSM_STAT (fetch_bytes, bs);
  return true;
}

/* gomp_dsm_acquire and gomp_dsm_acquire_push: the blocks pushed are
   installed first, then left out of the invalidation.  */
static void
acquire (const void *const *notices, const size_t *lens, int nodes,
	 bool quiescent, const void *push, size_t push_len, int origin)
{
  long t0 = gomp_cl_now_ns ();
  size_t total = 0;
  uint32_t *done = NULL, ndone = 0;
  if (push_len)
    {
      uint32_t np;
      if (push_len < 4 || origin < 0 || origin >= gomp_dsm.nodes
	  || origin == gomp_dsm.rank)
	gomp_dsm_fatal ("corrupt pushed blocks (%zu bytes)", push_len);
      memcpy (&np, push, 4);
      if (np > GOMP_DSM_PUSH_MAX
	  || push_len != 4 + (size_t) np * (4 + gomp_dsm.bsize))
	gomp_dsm_fatal ("corrupt pushed blocks (%u in %zu bytes)", np,
			push_len);
      if (!(done = malloc ((np ? np : 1) * sizeof *done)))
	gomp_dsm_fatal ("out of memory");
      pthread_mutex_lock (&rel_mutex);
      for (uint32_t i = 0; i < np; i++)
	{
	  uint32_t b;
	  memcpy (&b, (const char *) push + 4 + 4 * i, 4);
	  if (install_pushed (b, origin, (const char *) push + 4 + 4 * np
				       + (size_t) i * gomp_dsm.bsize))
	    done[ndone++] = b;
	}
      pthread_mutex_unlock (&rel_mutex);
      ndone = sort_unique (done, ndone);
    }
  for (int i = 0; i < nodes; i++)
    if (i != gomp_dsm.rank && notices[i])
      total += lens[i] / 4;
  if (!total)
    {
      free (done);
      return;
    }
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
	      != gomp_dsm.rank
	      && !(ndone && bsearch (&b, done, ndone, sizeof *done, cmp_u32)))
	    v[n++] = b;
	}
  free (done);
  n = sort_unique (v, n);
  pthread_mutex_lock (&rel_mutex);
  invalidate (v, n, gomp_dsm.prefetch, quiescent && gomp_dsm.eager);
  pthread_mutex_unlock (&rel_mutex);
  free (v);
  DSM_STAT (acquire_ns, gomp_cl_now_ns () - t0);
}

void
gomp_dsm_acquire (const void *const *notices, const size_t *lens, int nodes,
		  bool quiescent)
{
  acquire (notices, lens, nodes, quiescent, NULL, 0, -1);
}

void
gomp_dsm_acquire_push (const void *const *notices, const size_t *lens,
		       int nodes, const void *push, size_t push_len,
		       int origin)
{
  acquire (notices, lens, nodes, false, push, push_len, origin);
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
  invalidate (v, n, false, false);
  pthread_mutex_unlock (&rel_mutex);
  free (v);
}

void
gomp_dsm_coherence_init (void)
{
  gomp_cl_register (GOMP_CL_TAG_PAGE_GET, page_get_handler);
  gomp_cl_register (GOMP_CL_TAG_DIFF, diff_handler);
  gomp_dsm_migrate_register ();
  __builtin_cpu_init ();
  have_avx512bw = __builtin_cpu_supports ("avx512f")
		  && __builtin_cpu_supports ("avx512bw");
}
