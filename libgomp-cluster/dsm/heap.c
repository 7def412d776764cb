/* heap.c -- the shared heap: one arena per node inside the segment.

   A node allocates only from its own arena, so allocation sends no
   message.  All bookkeeping is private to the arena's owner and never
   lives in shared memory (a header or a free-list link written into a
   block would be a DSM write): a map with one entry per 4 KiB unit of the
   arena, a sorted list of free extents, and 64 KiB chunks of equal-sized
   slots with a bitmap for small sizes (<= 32 KiB, 4 classes per power of
   two).  Freeing a block of another node's arena sends it a message
   (GOMP_CL_TAG_HEAP, no reply); asking the size of one (realloc,
   usable_size) is a call.  Memory homed at another node (touched there
   first) is handed out last (extent_alloc).  Pointers that libc
   allocated (outside the segment) go back to libc.  The arena's mutex is
   held only for bookkeeping, never while touching shared memory, so the
   service thread may take it.

   C11 orders a free before the allocation that reuses its memory: the
   writes another node made to a block before it freed it must not show
   through the new object.  Those writes reach their homes only with
   that node's release, and a home applies them for its own threads only
   when it acquires that release (stage.c).  So a node keeps the blocks
   it frees in other arenas until its next release: the release takes
   them when it starts and sends them, one message per owner, once its
   diffs are applied, with its number (gomp_dsm_frees_take,
   gomp_dsm_frees_send).  The owner marks their units stale and notes
   the release; when it hands stale memory out again, it first acquires
   the releases noted (gomp_dsm_catch_up: a pull from the nodes that
   freed it), as an allocation acquires the free before it.  */

#include "dsm-int.h"
#include <malloc.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>

#define UNIT 4096u
#define UNIT_SHIFT 12
#define CHUNK (64u * 1024)
#define CHUNK_UNITS (CHUNK / UNIT)
#define SMALL_MAX (32u * 1024)

/* Map entries: kind in the low 2 bits.  */
enum { K_NONE = 0, K_LARGE = 1, K_SMALL = 2, K_CONT = 3 };

struct chunk
{
  uint32_t cls, nfree, nslots, start;	/* Start unit.  */
  struct chunk *next, *prev;		/* The class's partial list.  */
  uint64_t bits[];			/* 1 = in use.  */
};

struct extent
{
  uint32_t start, len;			/* Units.  */
  struct extent *next;
};

enum heap_op { HEAP_FREE, HEAP_SIZE };
/* HEAP_SIZE: one pointer, answered with its size.  HEAP_FREE: N
   pointers, freed before the sender's release number LABEL; the other
   N - 1 follow.  */
struct heap_msg
{
  uint32_t op, n;
  uint64_t label;
  uint64_t ptr;
};

static pthread_mutex_t heap_mutex = PTHREAD_MUTEX_INITIALIZER;
static char *arena;
static uint32_t arena_units;
static uint64_t *map;			/* Per unit: kind | value << 2.  */
static struct chunk **chunks;		/* Per chunk-aligned unit / 16.  */
static struct extent *free_list;
static uint32_t class_size[64];
static int nclasses;
static struct chunk *partial[64];
static uint32_t high_water;		/* Units below were handed out once.  */
static uint32_t used_units;		/* Units handed out now.  */
/* A bit per unit: freed by another node since this node last handed it
   out (see the top of this file); per node, the last release it freed
   memory of this arena before.  */
static uint64_t *stale, *freed_label;
/* The blocks this node freed in other arenas since its last release
   began.  */
static pthread_mutex_t frees_mutex = PTHREAD_MUTEX_INITIALIZER;
static uint64_t *frees;
static size_t nfrees, frees_cap;

static int
size_class (size_t size)
{
  int lo = 0, hi = nclasses - 1;
  while (lo < hi)
    {
      int mid = (lo + hi) / 2;
      if (class_size[mid] >= size)
	hi = mid;
      else
	lo = mid + 1;
    }
  return lo;
}

/* The unit after the last of the N units at unit S that lies in a block
   whose home is another node, as far as this node knows; S when none
   does.  */
static uint32_t
units_foreign_end (uint32_t s, uint32_t n)
{
  const char *a = arena + ((size_t) s << UNIT_SHIFT);
  uint32_t first = gomp_dsm_block (a);
  uint32_t b = gomp_dsm_block (a + ((size_t) n << UNIT_SHIFT) - 1);
  for (; b + 1 > first; b--)
    {
      int16_t h = __atomic_load_n (&gomp_dsm.home[b], __ATOMIC_RELAXED);
      if (h >= 0 && h != gomp_dsm.rank)
	{
	  size_t end = gomp_dsm_block_addr (b) + gomp_dsm_block_len (b)
		       - arena;
	  return (uint32_t) ((end + UNIT - 1) >> UNIT_SHIFT);
	}
    }
  return s;
}

/* First fit of N units aligned to ALIGN units; UINT32_MAX if none.
   Unless ANY, only in memory homed here or nowhere yet, and fresh
   memory (never handed out) only while the arena's used part stays
   within twice what is handed out now.  */
static uint32_t
extent_alloc_1 (uint32_t n, uint32_t align, bool any)
{
  for (struct extent **pe = &free_list; *pe; pe = &(*pe)->next)
    {
      struct extent *e = *pe;
      uint32_t s = (e->start + align - 1) / align * align;
      /* Past the blocks homed elsewhere, then within the bound.  */
      for (uint32_t f; !any && (uint64_t) s + n <= e->start + e->len
		       && (f = units_foreign_end (s, n)) != s;)
	s = (f + align - 1) / align * align;
      if ((uint64_t) s + n > e->start + e->len
	  || (!any && (uint64_t) s + n > high_water
	      && (uint64_t) s + n > 2 * ((uint64_t) used_units + n)))
	continue;
      uint32_t end = e->start + e->len;
      if (s > e->start)
	{
	  /* Keep the prefix; the suffix becomes a new extent.  */
	  e->len = s - e->start;
	  if (s + n < end)
	    {
	      struct extent *t = malloc (sizeof *t);
	      if (!t)
		gomp_dsm_fatal ("out of memory");
	      t->start = s + n;
	      t->len = end - s - n;
	      t->next = e->next;
	      e->next = t;
	    }
	}
      else if (n < e->len)
	{
	  e->start += n;
	  e->len -= n;
	}
      else
	{
	  *pe = e->next;
	  free (e);
	}
      return s;
    }
  return UINT32_MAX;
}

/* First fit of N units aligned to ALIGN units; UINT32_MAX if none.  With
   first-touch homes, freed memory homed here or nowhere yet comes
   first: a block of this arena that another node touched first (a
   task's result, written on its thief) keeps that node as its home once
   freed, and every write of this node to it then costs a twin, a diff
   and a message (bench/apps' strassen at 2 x 1: rank 0 sent 46-62 MB of
   diffs to rank 1's homes, 2.5-18 MB once such memory came last).  Fresh
   memory goes before it only while the arena's used part stays within
   twice what is handed out: a program that allocates and frees in a
   loop would otherwise take the whole arena's worth of memory.  */
static uint32_t
extent_alloc (uint32_t n, uint32_t align)
{
  uint32_t s = UINT32_MAX;
  if (gomp_dsm.policy == HOME_FIRST_TOUCH)
    s = extent_alloc_1 (n, align, false);
  if (s == UINT32_MAX)
    s = extent_alloc_1 (n, align, true);
  if (s != UINT32_MAX)
    used_units += n;
  return s;
}

static void
extent_free (uint32_t start, uint32_t n)
{
  used_units -= n;
  struct extent **pe = &free_list, *prev = NULL;
  while (*pe && (*pe)->start < start)
    {
      prev = *pe;
      pe = &(*pe)->next;
    }
  struct extent *next = *pe;
  if (prev && prev->start + prev->len == start)
    {
      prev->len += n;
      if (next && prev->start + prev->len == next->start)
	{
	  prev->len += next->len;
	  prev->next = next->next;
	  free (next);
	}
      return;
    }
  if (next && start + n == next->start)
    {
      next->start = start;
      next->len += n;
      return;
    }
  struct extent *e = malloc (sizeof *e);
  if (!e)
    gomp_dsm_fatal ("out of memory");
  e->start = start;
  e->len = n;
  e->next = next;
  *pe = e;
}

static void __attribute__ ((noreturn))
exhausted (size_t size)
{
  gomp_dsm_fatal ("the shared heap of this node is exhausted (%zu bytes "
		  "asked, arena of %zu bytes); raise OMPC_SEGMENT_SIZE (now "
		  "%zu, split between the nodes' heaps)", size,
		  gomp_dsm.arena_size, gomp_dsm.arena_size * gomp_dsm.nodes);
}

/* Called with heap_mutex held.  */
static void *
alloc_large (size_t size, uint32_t align_units)
{
  uint64_t n64 = (size + UNIT - 1) >> UNIT_SHIFT;
  if (n64 >= arena_units)
    exhausted (size);
  uint32_t n = n64, s = extent_alloc (n, align_units);
  if (s == UINT32_MAX)
    exhausted (size);
  map[s] = K_LARGE | (uint64_t) n << 2;
  if (s + n > high_water)
    __atomic_store_n (&high_water, s + n, __ATOMIC_RELEASE);
  for (uint32_t i = 1; i < n; i++)
    map[s + i] = K_CONT;
  return arena + ((size_t) s << UNIT_SHIFT);
}

static void *
alloc_small (int c)
{
  struct chunk *ch = partial[c];
  if (!ch)
    {
      uint32_t s = extent_alloc (CHUNK_UNITS, CHUNK_UNITS);
      if (s == UINT32_MAX)
	exhausted (class_size[c]);
      uint32_t nslots = CHUNK / class_size[c];
      ch = calloc (1, sizeof *ch + (nslots + 63) / 64 * 8);
      if (!ch)
	gomp_dsm_fatal ("out of memory");
      ch->cls = c;
      ch->nslots = ch->nfree = nslots;
      ch->start = s;
      for (uint32_t i = 0; i < CHUNK_UNITS; i++)
	map[s + i] = K_SMALL | (uint64_t) s << 2;
      if (s + CHUNK_UNITS > high_water)
	__atomic_store_n (&high_water, s + CHUNK_UNITS, __ATOMIC_RELEASE);
      chunks[s / CHUNK_UNITS] = ch;
      partial[c] = ch;
    }
  uint32_t slot = 0;
  for (uint32_t w = 0;; w++)
    if (~ch->bits[w])
      {
	slot = w * 64 + __builtin_ctzll (~ch->bits[w]);
	ch->bits[w] |= 1ULL << (slot & 63);
	break;
      }
  if (--ch->nfree == 0)
    {
      partial[c] = ch->next;
      if (ch->next)
	ch->next->prev = NULL;
      ch->next = ch->prev = NULL;
    }
  return arena + ((size_t) ch->start << UNIT_SHIFT)
    + (size_t) slot * class_size[c];
}

/* Marks the units of [OFF, OFF + LEN) (bytes into the arena) stale.
   With heap_mutex.  */
static void
stale_mark (size_t off, size_t len)
{
  for (size_t u = off >> UNIT_SHIFT; u <= (off + len - 1) >> UNIT_SHIFT; u++)
    stale[u / 64] |= 1ULL << (u % 64);
}

/* Clears the stale marks of the units of [P, P + LEN), this node's
   memory being handed out, and returns whether there were any: then the
   releases that the frees came after are needed (gomp_dsm_need).  With
   heap_mutex.  */
static bool
stale_take (const void *p, size_t len)
{
  size_t off = (const char *) p - arena;
  bool any = false;
  for (size_t u = off >> UNIT_SHIFT; u <= (off + len - 1) >> UNIT_SHIFT; u++)
    if (stale[u / 64] & (1ULL << (u % 64)))
      {
	stale[u / 64] &= ~(1ULL << (u % 64));
	any = true;
      }
  if (any)
    for (int r = 0; r < gomp_dsm.nodes; r++)
      if (r != gomp_dsm.rank)
	gomp_dsm_need_one (r, freed_label[r]);
  return any;
}

/* Memory P is handed out, WAS_STALE: freed by another node since it was
   last handed out here (heap_mutex released): the releases those frees
   came after are acquired first.  */
static void *
handed_out (void *p, bool was_stale)
{
  if (was_stale && gomp_dsm_catch_up)
    gomp_dsm_catch_up (false);
  return p;
}

/* Like glibc's, the heap refuses (NULL) a size above PTRDIFF_MAX: no
   object can be that large, and the unit arithmetic below would wrap.  */
static inline bool
too_large (size_t size)
{
  return size > PTRDIFF_MAX;
}

void *
gomp_dsm_malloc (size_t size)
{
  void *p;
  if (too_large (size))
    return NULL;
  if (size == 0)
    size = 1;
  pthread_mutex_lock (&heap_mutex);
  if (size <= SMALL_MAX)
    p = alloc_small (size_class (size));
  else
    p = alloc_large (size, 1);
  bool was_stale = stale_take (p, size);
  pthread_mutex_unlock (&heap_mutex);
  return handed_out (p, was_stale);
}

void *
gomp_dsm_calloc (size_t n, size_t size)
{
  size_t bytes;
  if (__builtin_mul_overflow (n, size, &bytes) || too_large (bytes))
    return NULL;
  if (bytes <= SMALL_MAX)
    {
      void *p = gomp_dsm_malloc (bytes);
      memset (p, 0, bytes);
      return p;
    }
  pthread_mutex_lock (&heap_mutex);
  uint32_t old_hw = high_water;
  char *p = alloc_large (bytes, 1);
  bool was_stale = stale_take (p, bytes);
  pthread_mutex_unlock (&heap_mutex);
  handed_out (p, was_stale);
  /* Only the part below the old high-water mark was used before.  */
  char *hw = arena + ((size_t) old_hw << UNIT_SHIFT);
  if (p < hw)
    memset (p, 0, (p + bytes < hw ? p + bytes : hw) - p);
  return p;
}

void *
gomp_dsm_memalign (size_t align, size_t size)
{
  void *p;
  if (align <= 16)
    return gomp_dsm_malloc (size);
  if ((align & (align - 1)) || too_large (size))
    return NULL;
  if (size == 0)
    size = 1;
  pthread_mutex_lock (&heap_mutex);
  if (align <= UNIT && size <= SMALL_MAX)
    {
      /* Power-of-two classes are aligned to their size in a chunk.  */
      size_t s = size < align ? align : size;
      s = (size_t) 1 << (64 - __builtin_clzl (s - 1));
      p = alloc_small (size_class (s));
    }
  else
    p = alloc_large (size, align <= UNIT ? 1 : align >> UNIT_SHIFT);
  bool was_stale = stale_take (p, size);
  pthread_mutex_unlock (&heap_mutex);
  return handed_out (p, was_stale);
}

static int
owner (const void *p)
{
  size_t off = (const char *) p - gomp_dsm.heap_base;
  if ((const char *) p < gomp_dsm.heap_base
      || off >= gomp_dsm.arena_size * gomp_dsm.nodes)
    return -1;
  return off / gomp_dsm.arena_size;
}

/* Frees P of this node's arena, or returns its usable size (SIZE_ONLY).
   REMOTE: another node freed it (its units become stale).  Takes
   heap_mutex.  */
static size_t
local_op (void *p, bool size_only, bool remote)
{
  size_t off = (char *) p - arena, r = 0;
  uint32_t u = off >> UNIT_SHIFT;
  pthread_mutex_lock (&heap_mutex);
  uint64_t e = map[u];
  if ((e & 3) == K_LARGE && !(off & (UNIT - 1)))
    {
      uint32_t n = e >> 2;
      r = (size_t) n << UNIT_SHIFT;
      if (!size_only)
	{
	  for (uint32_t i = 0; i < n; i++)
	    map[u + i] = K_NONE;
	  extent_free (u, n);
	  if (remote)
	    stale_mark (off, r);
	}
    }
  else if ((e & 3) == K_SMALL)
    {
      struct chunk *ch = chunks[(e >> 2) / CHUNK_UNITS];
      size_t coff = off - ((size_t) ch->start << UNIT_SHIFT);
      uint32_t cs = class_size[ch->cls], slot = coff / cs;
      if (coff % cs || slot >= ch->nslots
	  || !(ch->bits[slot / 64] & (1ULL << (slot & 63))))
	goto bad;
      r = cs;
      if (!size_only)
	{
	  if (remote)
	    stale_mark (off, cs);
	  ch->bits[slot / 64] &= ~(1ULL << (slot & 63));
	  if (ch->nfree++ == 0)
	    {
	      ch->next = partial[ch->cls];
	      if (ch->next)
		ch->next->prev = ch;
	      partial[ch->cls] = ch;
	    }
	  if (ch->nfree == ch->nslots && (ch->next || ch->prev))
	    {
	      /* Give an empty chunk back, unless it is the class's only
		 one.  */
	      if (ch->prev)
		ch->prev->next = ch->next;
	      else
		partial[ch->cls] = ch->next;
	      if (ch->next)
		ch->next->prev = ch->prev;
	      for (uint32_t i = 0; i < CHUNK_UNITS; i++)
		map[ch->start + i] = K_NONE;
	      chunks[ch->start / CHUNK_UNITS] = NULL;
	      extent_free (ch->start, CHUNK_UNITS);
	      free (ch);
	    }
	}
    }
  else
    goto bad;
  pthread_mutex_unlock (&heap_mutex);
  return r;
 bad:
  pthread_mutex_unlock (&heap_mutex);
  gomp_dsm_fatal ("%s(%p): not a block of the shared heap (freed twice, or "
		  "never allocated)", size_only ? "malloc_usable_size" : "free",
		  p);
}

static void
heap_handler (int src, const void *msg, size_t len, uint64_t token)
{
  struct heap_msg m;
  if (len < sizeof m)
    gomp_dsm_fatal ("a bad heap request arrived from rank %d", src);
  memcpy (&m, msg, sizeof m);
  if (m.n < 1 || len != sizeof m + (size_t) (m.n - 1) * 8
      || (m.op != HEAP_FREE && m.n != 1))
    gomp_dsm_fatal ("a bad heap request arrived from rank %d", src);
  if (m.op == HEAP_FREE)
    {
      pthread_mutex_lock (&heap_mutex);
      if (m.label > freed_label[src])
	freed_label[src] = m.label;
      pthread_mutex_unlock (&heap_mutex);
    }
  for (uint32_t i = 0; i < m.n; i++)
    {
      uint64_t a = m.ptr;
      if (i)
	memcpy (&a, (const char *) msg + sizeof m + (i - 1) * 8, 8);
      void *p = (void *) (uintptr_t) a;
      if (owner (p) != gomp_dsm.rank)
	gomp_dsm_fatal ("rank %d sent a heap request for %p, not in this "
			"node's arena", src, p);
      if (m.op == HEAP_FREE)
	local_op (p, false, true);
      else
	{
	  uint64_t s = local_op (p, true, false);
	  gomp_cl_reply (src, token, &s, sizeof s);
	}
    }
}

size_t
gomp_dsm_frees_take (uint64_t **taken)
{
  pthread_mutex_lock (&frees_mutex);
  size_t n = nfrees;
  *taken = frees;
  frees = NULL;
  nfrees = frees_cap = 0;
  pthread_mutex_unlock (&frees_mutex);
  return n;
}

void
gomp_dsm_frees_send (uint64_t *taken, size_t n, uint64_t label)
{
  /* One message per owner (a few if very many).  */
  for (int o = 0; n && o < gomp_dsm.nodes; o++)
    {
      size_t k = 0;
      for (size_t j = 0; j < n; j++)
	if (owner ((void *) (uintptr_t) taken[j]) == o)
	  k++;
      for (size_t j = 0, s = 0; s < k;)
	{
	  uint32_t c = k - s < 65536 ? k - s : 65536;
	  size_t len = sizeof (struct heap_msg) + (size_t) (c - 1) * 8;
	  struct heap_msg *m = malloc (len);
	  if (!m)
	    gomp_dsm_fatal ("out of memory");
	  m->op = HEAP_FREE;
	  m->n = c;
	  m->label = label;
	  uint64_t *rest = (uint64_t *) (m + 1);
	  for (uint32_t i = 0; i < c; j++)
	    if (owner ((void *) (uintptr_t) taken[j]) == o)
	      {
		if (i == 0)
		  m->ptr = taken[j];
		else
		  memcpy (rest + i - 1, &taken[j], 8);
		i++;
	      }
	  gomp_cl_send (o, GOMP_CL_TAG_HEAP, m, len);
	  free (m);
	  s += c;
	}
    }
  free (taken);
}

void
gomp_dsm_free (void *p)
{
  if (!p)
    return;
  int o = owner (p);
  if (o < 0)
    {
      if (gomp_dsm_contains (p))
	gomp_dsm_fatal ("free(%p): not a heap block", p);
      free (p);
      return;
    }
  if (o == gomp_dsm.rank)
    {
      local_op (p, false, false);
      return;
    }
  /* Sent by this node's next release (see the top of this file).  */
  pthread_mutex_lock (&frees_mutex);
  if (nfrees == frees_cap)
    {
      size_t cap = frees_cap ? 2 * frees_cap : 64;
      uint64_t *q = realloc (frees, cap * sizeof *q);
      if (!q)
	gomp_dsm_fatal ("out of memory");
      frees = q;
      frees_cap = cap;
    }
  frees[nfrees++] = (uintptr_t) p;
  pthread_mutex_unlock (&frees_mutex);
  DSM_STAT (remote_frees, 1);
}

size_t
gomp_dsm_usable_size (void *p)
{
  if (!p)
    return 0;
  int o = owner (p);
  if (o < 0)
    return malloc_usable_size (p);
  if (o == gomp_dsm.rank)
    return local_op (p, true, false);
  struct heap_msg m = { HEAP_SIZE, 1, 0, (uintptr_t) p };
  uint64_t s = 0;
  gomp_cl_call (o, GOMP_CL_TAG_HEAP, &m, sizeof m, &s, sizeof s);
  return s;
}

void *
gomp_dsm_realloc (void *p, size_t size)
{
  if (!p)
    return gomp_dsm_malloc (size);
  if (owner (p) < 0)
    return realloc (p, size);
  size_t old = gomp_dsm_usable_size (p);
  if (size <= old && size >= old / 2)
    return p;
  void *n = gomp_dsm_malloc (size);
  memcpy (n, p, old < size ? old : size);
  gomp_dsm_free (p);
  return n;
}

size_t
gomp_dsm_heap_high (void)
{
  return (size_t) __atomic_load_n (&high_water, __ATOMIC_ACQUIRE)
	 << UNIT_SHIFT;
}

void
gomp_dsm_heap_init (void)
{
  int c = 0;
  for (uint32_t s = 16; s <= 128; s += 16)
    class_size[c++] = s;
  for (uint32_t p = 128; p < SMALL_MAX; p *= 2)
    for (uint32_t k = 1; k <= 4; k++)
      class_size[c++] = p + k * (p / 4);
  nclasses = c;
  arena = gomp_dsm.heap_base + gomp_dsm.rank * gomp_dsm.arena_size;
  arena_units = gomp_dsm.arena_size >> UNIT_SHIFT;
  void *m = mmap (NULL, (size_t) arena_units * 8, PROT_READ | PROT_WRITE,
		  MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
  void *st = mmap (NULL, ((size_t) arena_units + 63) / 64 * 8,
		   PROT_READ | PROT_WRITE,
		   MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
  chunks = calloc (arena_units / CHUNK_UNITS + 1, sizeof *chunks);
  if (m == MAP_FAILED || st == MAP_FAILED || !chunks)
    gomp_dsm_fatal ("out of memory for the heap's map");
  stale = st;
  if (!(freed_label = calloc (gomp_dsm.nodes, sizeof *freed_label)))
    gomp_dsm_fatal ("out of memory");
  map = m;
  free_list = malloc (sizeof *free_list);
  if (!free_list)
    gomp_dsm_fatal ("out of memory");
  free_list->start = 0;
  free_list->len = arena_units;
  free_list->next = NULL;
  gomp_cl_register (GOMP_CL_TAG_HEAP, heap_handler);
}
