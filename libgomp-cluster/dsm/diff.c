/* diff.c -- the diffs: what changed in a block since its twin, encoded
   (encode_diff: runs, bitmap or words), sent to the homes in batches
   (gomp_dsm_diff_out_*: several in flight per release) and applied at
   the home (diff_handler, GOMP_CL_TAG_DIFF).  Also the sorting of block
   lists that every part of the protocol uses.  The protocol that uses
   them is described in coherence.c.  */

#include "dsm-int.h"
#include "report.h"
#include <emmintrin.h>
#include <immintrin.h>
#include <stdlib.h>
#include <string.h>

/* A release sends a home its diffs in batches of about DIFF_BATCH bytes
   as it encodes them, up to DIFF_FLIGHT batches not yet applied: the
   home applies one while this node encodes the next (IS at 2 x 1: ~6 MiB
   of diffs per sort from one node, in 4 MiB batches each waited for
   before the next was encoded).  */
#define DIFF_BATCH (1u << 20)

int
gomp_dsm_cmp_u32 (const void *a, const void *b)
{
  uint32_t x = *(const uint32_t *) a, y = *(const uint32_t *) b;
  return x < y ? -1 : x > y;
}

/* Sorts and removes duplicates; returns the new count.  */
uint32_t
gomp_dsm_sort_unique (uint32_t *v, uint32_t n)
{
  uint32_t k = 0;
  qsort (v, n, sizeof *v, gomp_dsm_cmp_u32);
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
   gomp_dsm_rel_mutex.  */
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
  if (d->cap - d->len < 16 + max)
    {
      d->cap = (d->cap + 16 + max) * 2;
      d->p = realloc (d->p, d->cap);
      if (!d->p)
	gomp_dsm_fatal ("out of memory for diffs");
    }
  if (d->len == 0)
    {
      /* A batch starts with the release that will announce it.  */
      uint64_t label = gomp_dsm_diff_next ();
      memcpy (d->p, &label, 8);
      d->len = 8;
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
bool
gomp_dsm_apply_diff (char *w, size_t blen, uint32_t form, const unsigned char *p,
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
void
gomp_dsm_diff_out_init (struct diff_out *o)
{
  o->head = o->n = 0;
  if (!(o->d = calloc (gomp_dsm.nodes, sizeof *o->d)))
    gomp_dsm_fatal ("out of memory");
}

/* Waits until the home of the oldest batch of O has applied it, serving
   other nodes meanwhile (never in signal context; the caller holds
   gomp_dsm_rel_mutex and locks of non-home blocks only, which no handler waits
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
   order, MPI does not overtake, and diff_handler keeps a deferred
   batch's place: later ones from the same node wait for it), so a
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
bool
gomp_dsm_diff_add (struct diff_out *o, uint32_t b)
{
  int h = gomp_dsm.home[b];
  bool changed = encode_diff (b, &o->d[h]);
  if (o->d[h].len >= DIFF_BATCH)
    diff_post (o, h);
  return changed;
}

/* Sends every home the rest of its diffs and waits until all of them
   are applied; frees O's buffers.  */
void
gomp_dsm_diff_finish (struct diff_out *o)
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

/* Where a deferred diff message resumes: a block busy at its home (a
   local thread holds its lock, e.g. making its twin) defers the rest of
   the message; the blocks before it are applied already.  */
#define RESUME_MAX GOMP_DSM_MAX_NODES	/* One a node: later batches of
					   a node wait without one.  */
static struct
{
  int src;
  uint64_t token, label;
  size_t off;
} resume[RESUME_MAX];
static int nresume;

uint64_t *gomp_dsm_diff_label;

/* Applies a batch of diffs at their home, each block under its lock
   (never waited for: a busy block defers the rest), to its home twin too
   when it has one.  Service thread or a serving waiter.  */
static void
diff_handler (int src, const void *msg, size_t len, uint64_t token)
{
  const unsigned char *p = msg, *end = p + len;
  int ri;
  for (ri = 0; ri < nresume; ri++)
    if (resume[ri].src == src)
      break;
  if (ri < nresume && resume[ri].token != token)
    {
      /* An earlier batch from SRC waits: this one goes after it.  */
      gomp_cl_defer ();
      return;
    }
  uint64_t label;
  if (ri < nresume)
    {
      p += resume[ri].off;
      label = resume[ri].label;
      resume[ri] = resume[--nresume];
    }
  else
    {
      if (len < 8)
	gomp_dsm_fatal ("corrupt diff from rank %d (%zu bytes)", src, len);
      memcpy (&label, p, 8);
      p += 8;
      if (label > gomp_dsm_diff_label[src])
	__atomic_store_n (&gomp_dsm_diff_label[src], label, __ATOMIC_RELEASE);
    }
  while (p < end)
    {
      uint32_t b, hdr;
      if (end - p < 8)
	gomp_dsm_fatal ("corrupt diff from rank %d (%zu bytes left)", src,
			(size_t) (end - p));
      memcpy (&b, p, 4);
      memcpy (&hdr, p + 4, 4);
      size_t body = hdr & DIFF_LEN;
      uint32_t form = hdr & ~DIFF_LEN;
      if (b >= gomp_dsm.nblocks || body > (size_t) (end - p - 8)
	  || form == (DIFF_WORDS | DIFF_BITMAP))
	gomp_dsm_fatal ("corrupt diff from rank %d (block %u)", src, b);
      if (!gomp_dsm_trylock (b))
	{
	  if (nresume == RESUME_MAX)
	    gomp_dsm_fatal ("too many diffs waiting for busy blocks");
	  resume[nresume].src = src;
	  resume[nresume].token = token;
	  resume[nresume].label = label;
	  resume[nresume++].off = p - (const unsigned char *) msg;
	  gomp_cl_defer ();
	  return;
	}
      p += 8;
      gomp_dsm_stage_add (b, src, label, form, p, body);
      gomp_dsm_unlock (b);
      p += body;
    }
  gomp_cl_reply (src, token, NULL, 0);
}

void
gomp_dsm_diff_init (void)
{
  gomp_cl_register (GOMP_CL_TAG_DIFF, diff_handler);
  __builtin_cpu_init ();
  have_avx512bw = __builtin_cpu_supports ("avx512f")
		  && __builtin_cpu_supports ("avx512bw");
}
