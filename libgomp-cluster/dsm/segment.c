/* segment.c -- the shared memory's layout: the executable's shared region
   remapped in place, the segment at a fixed address (heap arenas, then
   stacks), the per-block metadata, stacks and errors.

   The segment is address space reserved at the same place on every rank
   (MAP_NORESERVE, one memfd): only the pages a node touches cost memory.
   Its stack part is therefore large (OMPC_STACK_AREA per node, 4G: some
   500 threads of 8 MiB), and no metadata of a block is written before the
   block is used, but for its home (2 bytes a block, set to "unknown" at
   start: 2 MiB per node for the default stack area).  Every stack costs
   the kernel about three memory maps (guard, shared part, private top;
   vm.max_map_count is 65530 by default), and a signal stack one more.

   Settings (struct gomp_dsm_config, dsm.h; the runtime's env_ompc.c
   parses the variables and holds the defaults):
     OMPC_SEGMENT_SIZE  the shared heap, split between the nodes' arenas;
			the same on every node.
     OMPC_STACK_AREA    each node's part of the segment for its thread
			stacks; the same on every node.
     OMPC_DSM_BLOCK     the coherence unit, a power of two; larger blocks
			keep fewer memory maps (vm.max_map_count) at the
			price of more false sharing.
     OMPC_DSM_HOME      first-touch | block | cyclic: where a block's
			home is; block splits every area (globals, each
			arena, each node's stacks) into NODES equal parts,
			cyclic deals blocks round-robin.
     OMPC_DSM_PREFETCH  an acquire that invalidates blocks this node used
			since their last prefetch fetches them again at
			once, one message per run of a home's blocks
			(acquire.c).
     OMPC_DSM_EAGER     a barrier's acquire updates in place, still
			readable, the clean blocks this node keeps reading,
			instead of invalidating them, and rank 0 pushes its
			stack blocks others read with a region's start
			(acquire.c, push.c).
     OMPC_DSM_MIGRATE   under first touch, a block that one other node
			writes more often than its home and the others
			moves its home there at a barrier (migrate.c).  */

#include "dsm-int.h"
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/mman.h>
#include <unistd.h>

#define SEG_BASE ((char *) 0x100000000000UL)
#define ALTSTACK_SIZE (64 * 1024)

/* The plugin's region (lib/ompcluster.ld); NULL without it.  */
extern char __ompc_shared_start[] __attribute__ ((weak));
extern char __ompc_shared_end[] __attribute__ ((weak));

struct gomp_dsm gomp_dsm;

static size_t stack_used;		/* In this node's stack part.  */
static unsigned stack_count;		/* Stacks allocated there.  */
static pthread_mutex_t stack_mutex = PTHREAD_MUTEX_INITIALIZER;
/* The guard block of each stack, in the order they were allocated (by
   address), STACK_COUNT of them in room for GUARDS_CAP; under
   STACK_MUTEX.  */
static uint32_t *guards;
static unsigned guards_cap;

void
gomp_dsm_fatal (const char *fmt, ...)
{
  char text[1024];
  va_list ap;
  va_start (ap, fmt);
  vsnprintf (text, sizeof text, fmt, ap);
  va_end (ap);
  gomp_cl_say ("ompcluster: rank %d: dsm: %s\n", gomp_dsm.rank, text);
  gomp_cl_abort_job (1);
}

void
gomp_dsm_fatal_sig (const char *msg, int err)
{
  if (err)
    gomp_cl_say ("ompcluster: rank %d: dsm: %s (errno %d)\n", gomp_dsm.rank,
		 msg, err);
  else
    gomp_cl_say ("ompcluster: rank %d: dsm: %s\n", gomp_dsm.rank, msg);
  abort ();
}

uint32_t
gomp_dsm_block (const void *addr)
{
  const char *a = addr;
  for (int i = 1; i >= 0; i--)
    {
      struct gomp_dsm_area *ar = &gomp_dsm.area[i];
      if (a >= ar->base && a < ar->base + ar->size)
	return ar->first + (uint32_t) ((size_t) (a - ar->base)
				       >> gomp_dsm.bshift);
    }
  return UINT32_MAX;
}

static struct gomp_dsm_area *
area_of (uint32_t b)
{
  return b >= gomp_dsm.area[1].first ? &gomp_dsm.area[1] : &gomp_dsm.area[0];
}

char *
gomp_dsm_block_addr (uint32_t b)
{
  struct gomp_dsm_area *ar = area_of (b);
  return ar->base + ((size_t) (b - ar->first) << gomp_dsm.bshift);
}

char *
gomp_dsm_block_wview (uint32_t b)
{
  struct gomp_dsm_area *ar = area_of (b);
  return ar->wview + ((size_t) (b - ar->first) << gomp_dsm.bshift);
}

size_t
gomp_dsm_block_len (uint32_t b)
{
  struct gomp_dsm_area *ar = area_of (b);
  size_t off = (size_t) (b - ar->first) << gomp_dsm.bshift;
  size_t len = ar->size - off;
  return len < gomp_dsm.bsize ? len : gomp_dsm.bsize;
}

bool
gomp_dsm_stack_block (uint32_t b)
{
  return b >= gomp_dsm.area[1].first
    && gomp_dsm_block_addr (b) >= gomp_dsm.stack_base;
}

bool
gomp_dsm_contains (const void *addr)
{
  return gomp_dsm_block (addr) != UINT32_MAX;
}

/* Whether unmanaged block B is the guard of one of this node's stacks
   (else it is part of a stack's private top).  */
static bool
stack_guard (uint32_t b)
{
  pthread_mutex_lock (&stack_mutex);
  unsigned lo = 0, hi = stack_count;
  while (lo < hi)
    {
      unsigned mid = lo + (hi - lo) / 2;
      if (guards[mid] < b)
	lo = mid + 1;
      else
	hi = mid;
    }
  bool found = lo < stack_count && guards[lo] == b;
  pthread_mutex_unlock (&stack_mutex);
  return found;
}

int
gomp_dsm_addr_kind (const void *addr)
{
  const char *a = addr;
  uint32_t b = gomp_dsm_block (addr);
  if (b != UINT32_MAX)
    {
      if (gomp_dsm_state (b) != BS_UNMANAGED)
	return GOMP_DSM_ADDR_SHARED;
      return stack_guard (b) ? GOMP_DSM_ADDR_GUARD : GOMP_DSM_ADDR_PRIVATE;
    }
  for (int i = 0; i < 2; i++)
    {
      struct gomp_dsm_area *ar = &gomp_dsm.area[i];
      if (ar->wview && a >= ar->wview && a < ar->wview + ar->size)
	return GOMP_DSM_ADDR_VIEW;
    }
  return GOMP_DSM_ADDR_OUTSIDE;
}

void
gomp_dsm_protect (uint32_t b, uint32_t n, int prot)
{
  /* Runs of block numbers may cross from the globals to the segment.  */
  uint32_t f1 = gomp_dsm.area[1].first;
  if (b < f1 && b + n > f1)
    {
      gomp_dsm_protect (b, f1 - b, prot);
      gomp_dsm_protect (f1, b + n - f1, prot);
      return;
    }
  char *a = gomp_dsm_block_addr (b);
  size_t len = gomp_dsm_block_addr (b + n - 1) - a
    + gomp_dsm_block_len (b + n - 1);
  if (prot != PROT_NONE && gomp_dsm_stack_block (b + n - 1))
    prot |= gomp_dsm_stack_prot;
  if (mprotect (a, len, prot) == 0)
    return;
  int err = errno;
  gomp_cl_say ("ompcluster: rank %d: dsm: mprotect of blocks %u to %u "
	       "failed\n", gomp_dsm.rank, b, b + n - 1);
  errno = err;
  if (errno == ENOMEM)
    gomp_dsm_fatal_sig ("mprotect failed with ENOMEM: the DSM needs more "
			"memory maps than vm.max_map_count allows; raise it "
			"(sysctl -w vm.max_map_count=1048576) or use larger "
			"blocks (OMPC_DSM_BLOCK=16384 or 65536)", 0);
  gomp_dsm_fatal_sig ("mprotect failed", errno);
}

/* Pages a node touches for the first time cost a fault each; mapped in
   one call they cost far less (on the project's virtual machines, whose
   every fault and page-table change traps: 10 us a page touched, 0.7 us
   a page populated in bulk).  Used where a run of blocks is about to be
   touched page by page for the first time: the twins of the blocks a
   home serves (serve.c) and the writable view a fetch receives into
   (fetch.c).  Pages already mapped cost a walk of the page table.
   Kernels before Linux 5.14 do not know the advice: gomp_dsm_init asks
   once, on a page of its own, and turns this off; otherwise a range the
   kernel cannot map now is left to its faults (errors are ignored: one
   refused range must not turn it off for every other).  */
#ifndef MADV_POPULATE_WRITE
#define MADV_POPULATE_WRITE 23
#endif

static uintptr_t populate_page;	/* The page size; 0: not supported (set
				   once, by gomp_dsm_init).  */

void
gomp_dsm_populate (void *addr, size_t len)
{
  uintptr_t pg = populate_page;
  if (len == 0 || pg == 0)
    return;
  uintptr_t a = (uintptr_t) addr & -pg;
  size_t l = ((uintptr_t) addr + len - a + pg - 1) & -pg;
  int err = errno;
  madvise ((void *) a, l, MADV_POPULATE_WRITE);
  errno = err;
}

/* Whether the kernel maps pages on MADV_POPULATE_WRITE: tried on one
   page of PG bytes mapped for the purpose.  */
static bool
populate_supported (long pg)
{
  void *p = mmap (NULL, pg, PROT_READ | PROT_WRITE,
		  MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
  if (p == MAP_FAILED)
    return false;
  bool ok = madvise (p, pg, MADV_POPULATE_WRITE) == 0;
  munmap (p, pg);
  return ok;
}

static void *
map_anon (size_t size, const char *what)
{
  void *p = mmap (NULL, size, PROT_READ | PROT_WRITE,
		  MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
  if (p == MAP_FAILED)
    gomp_dsm_fatal ("cannot map %zu bytes for %s: %s", size, what,
		    strerror (errno));
  return p;
}

void
gomp_dsm_list_init (struct gomp_dsm_list *l, uint32_t cap)
{
  l->cur = 0;
  l->cap = cap;
  /* A slot holds its block number plus one, 0 while empty: the buffers
     are as large as the block count (the stack areas make that millions)
     and so cost memory only where lists were long.  */
  for (int i = 0; i < 2; i++)
    l->buf[i] = map_anon ((size_t) cap * 4, "a block list");
}

void
gomp_dsm_list_add (struct gomp_dsm_list *l, uint32_t b)
{
  uint64_t old = __atomic_fetch_add (&l->cur, 1, __ATOMIC_ACQ_REL);
  uint32_t pos = (uint32_t) old;
  if (pos >= l->cap)
    gomp_dsm_fatal_sig ("internal error: a block list overflowed", 0);
  __atomic_store_n (&l->buf[(old >> 32) & 1][pos], b + 1, __ATOMIC_RELEASE);
}

uint32_t *
gomp_dsm_list_take (struct gomp_dsm_list *l, uint32_t *n)
{
  uint64_t cur = __atomic_load_n (&l->cur, __ATOMIC_ACQUIRE);
  uint64_t old = __atomic_exchange_n (&l->cur, ((cur >> 32) + 1) << 32,
				      __ATOMIC_ACQ_REL);
  uint32_t *buf = l->buf[(old >> 32) & 1];
  *n = (uint32_t) old;
  /* Appenders that took a slot may not have stored yet.  The caller
     reads block numbers.  */
  for (uint32_t i = 0; i < *n; i++)
    {
      uint32_t v;
      while ((v = __atomic_load_n (&buf[i], __ATOMIC_ACQUIRE)) == 0)
	__builtin_ia32_pause ();
      buf[i] = v - 1;
    }
  return buf;
}

void
gomp_dsm_list_done (struct gomp_dsm_list *l, uint32_t *buf, uint32_t n)
{
  /* Not even an empty memset: a list's buffer may be an untouched page,
     and glibc's AVX-512 memset stores zero bytes there with a masked
     store, which costs a microcode assist (~130 ns here): five empty
     lists per release made a barrier between two nodes twice as slow.  */
  if (n)
    memset (buf, 0, (size_t) n * 4);
}

/* Copies the executable's shared region into a memfd and maps it back in
   place (MAP_SHARED), plus the writable view.  In anonymous parts (the
   NOBITS data and touched pages), only resident non-zero pages are
   copied; file-backed pages are always copied.  */
static void
remap_globals (void)
{
  char *s = __ompc_shared_start, *e = __ompc_shared_end;
  struct gomp_dsm_area *ar = &gomp_dsm.area[0];
  long pg = sysconf (_SC_PAGESIZE);
  if (!s || !e || e <= s)
    return;
  if (((uintptr_t) s | (uintptr_t) e) & (pg - 1))
    gomp_dsm_fatal ("the shared region %p-%p is not page aligned; link with "
		    "the ompcluster linker fragment (use ompcc)", s, e);
  size_t size = e - s;
  int fd = memfd_create ("ompc-globals", MFD_CLOEXEC);
  if (fd < 0 || ftruncate (fd, size) != 0)
    gomp_dsm_fatal ("cannot create the memory of the shared region: %s",
		    strerror (errno));
  /* File-backed ranges from /proc/self/maps.  */
  FILE *f = fopen ("/proc/self/maps", "r");
  char line[512];
  while (f && fgets (line, sizeof line, f))
    {
      unsigned long lo, hi, inode;
      char perms[8];
      if (sscanf (line, "%lx-%lx %7s %*s %*s %lu", &lo, &hi, perms, &inode)
	  != 4)
	continue;
      if (hi <= (uintptr_t) s || lo >= (uintptr_t) e)
	continue;
      if (lo < (uintptr_t) s)
	lo = (uintptr_t) s;
      if (hi > (uintptr_t) e)
	hi = (uintptr_t) e;
      size_t npg = (hi - lo) / pg;
      unsigned char *vec = malloc (npg ? npg : 1);
      if (!vec || mincore ((void *) lo, hi - lo, vec) != 0)
	gomp_dsm_fatal ("mincore on the shared region failed");
      for (size_t i = 0; i < npg; i++)
	{
	  char *p = (char *) lo + i * pg;
	  if (inode == 0 && !(vec[i] & 1))
	    continue;
	  bool zero = true;
	  for (long k = 0; k < pg; k += 8)
	    if (*(uint64_t *) (p + k))
	      {
		zero = false;
		break;
	      }
	  if (!zero && pwrite (fd, p, pg, p - s) != pg)
	    gomp_dsm_fatal ("cannot copy the shared region: %s",
			    strerror (errno));
	}
      free (vec);
    }
  if (f)
    fclose (f);
  ar->wview = mmap (NULL, size, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
  if (ar->wview == MAP_FAILED
      || mmap (s, size, PROT_NONE, MAP_SHARED | MAP_FIXED, fd, 0) != s)
    gomp_dsm_fatal ("cannot remap the shared region: %s", strerror (errno));
  close (fd);
  ar->base = s;
  ar->size = size;
}

/* Maps the segment: HEAP bytes of arenas, then each node's STACKS bytes
   of stack area.  */
static void
map_segment (size_t heap, size_t stacks)
{
  size_t size = heap + stacks * gomp_dsm.nodes;
  int fd = memfd_create ("ompc-segment", MFD_CLOEXEC);
  if (fd < 0 || ftruncate (fd, size) != 0)
    gomp_dsm_fatal ("cannot create the shared segment of %zu bytes "
		    "(OMPC_SEGMENT_SIZE and OMPC_STACK_AREA): %s", size,
		    strerror (errno));
  char *p = mmap (SEG_BASE, size, PROT_NONE,
		  MAP_SHARED | MAP_FIXED_NOREPLACE | MAP_NORESERVE, fd, 0);
  if (p != SEG_BASE)
    gomp_dsm_fatal ("cannot map the shared segment at %p (%zu bytes, "
		    "OMPC_SEGMENT_SIZE and OMPC_STACK_AREA): %s; something "
		    "else uses those addresses", SEG_BASE, size,
		    p == MAP_FAILED ? strerror (errno) : "placed elsewhere");
  char *w = mmap (NULL, size, PROT_READ | PROT_WRITE,
		  MAP_SHARED | MAP_NORESERVE, fd, 0);
  if (w == MAP_FAILED)
    gomp_dsm_fatal ("cannot map the shared segment's second view: %s",
		    strerror (errno));
  close (fd);
  gomp_dsm.seg_base = p;
  gomp_dsm.seg_size = size;
  gomp_dsm.area[1].base = p;
  gomp_dsm.area[1].wview = w;
  gomp_dsm.area[1].size = size;
  gomp_dsm.arena_size = heap / gomp_dsm.nodes;
  gomp_dsm.stack_part = stacks;
  gomp_dsm.heap_base = p;
  gomp_dsm.stack_base = p + heap;
}

void
gomp_dsm_thread_init (void)
{
  stack_t ss, old;
  if (sigaltstack (NULL, &old) == 0 && !(old.ss_flags & SS_DISABLE))
    return;
  ss.ss_sp = mmap (NULL, ALTSTACK_SIZE, PROT_READ | PROT_WRITE,
		   MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
  if (ss.ss_sp == MAP_FAILED)
    gomp_dsm_fatal ("cannot map a signal stack: %s", strerror (errno));
  ss.ss_size = ALTSTACK_SIZE;
  ss.ss_flags = 0;
  if (sigaltstack (&ss, NULL) != 0)
    gomp_dsm_fatal ("sigaltstack failed: %s", strerror (errno));
}

/* A stack whose top PRIV bytes (rounded up to a block) are private.  */
static void *
stack_alloc (size_t size, size_t priv)
{
  size_t bs = gomp_dsm.bsize;
  priv = (priv + bs - 1) & ~(bs - 1);
  size = (size + bs - 1) & ~(bs - 1);
  if (size < priv + bs)
    size = priv + bs;
  pthread_mutex_lock (&stack_mutex);
  size_t off = stack_used;
  if (off + bs + size > gomp_dsm.stack_part)
    gomp_dsm_fatal ("the stack area of this node is full: %u thread "
		    "stacks use %zu of its %zu bytes and one more needs %zu; "
		    "raise OMPC_STACK_AREA (each node's, now %zu MiB: address "
		    "space, only what threads touch costs memory) or lower "
		    "OMP_STACKSIZE (%zu bytes per thread with its guard and "
		    "private top)", stack_count, stack_used,
		    gomp_dsm.stack_part, size + bs, gomp_dsm.stack_part >> 20,
		    size + bs);
  char *guard = gomp_dsm.stack_base + gomp_dsm.rank * gomp_dsm.stack_part
    + off;
  if (stack_count == guards_cap)
    {
      unsigned cap = guards_cap ? 2 * guards_cap : 64;
      uint32_t *g = realloc (guards, cap * sizeof *g);
      if (g == NULL)
	gomp_dsm_fatal ("out of memory for a thread stack's record");
      guards = g;
      guards_cap = cap;
    }
  guards[stack_count] = gomp_dsm_block (guard);
  __atomic_store_n (&stack_used, stack_used + bs + size, __ATOMIC_RELEASE);
  stack_count++;
  pthread_mutex_unlock (&stack_mutex);
  char *stack = guard + bs, *top = stack + size - priv;
  uint32_t b;
  if (mmap (guard, bs, PROT_NONE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_FIXED,
	    -1, 0) != guard
      || (priv && mmap (top, priv, PROT_READ | PROT_WRITE,
			MAP_PRIVATE | MAP_ANONYMOUS | MAP_FIXED, -1, 0) != top))
    gomp_dsm_fatal ("cannot map a stack's private parts: %s",
		    strerror (errno));
  gomp_dsm_set_state (gomp_dsm_block (guard), BS_UNMANAGED);
  /* The shared part is homed here and writable at once.  */
  if (top > stack)
    {
      uint32_t first = gomp_dsm_block (stack), last = gomp_dsm_block (top - 1);
      for (b = first; b <= last; b++)
	{
	  gomp_dsm.home[b] = gomp_dsm.rank;
	  gomp_dsm_set_state (b, BS_HOME_RW);
	}
      gomp_dsm_protect (first, last - first + 1, PROT_READ | PROT_WRITE);
    }
  if (priv)
    for (b = gomp_dsm_block (top); b <= gomp_dsm_block (top + priv - 1); b++)
      gomp_dsm_set_state (b, BS_UNMANAGED);
  return stack;
}

size_t
gomp_dsm_stack_used (void)
{
  return __atomic_load_n (&stack_used, __ATOMIC_ACQUIRE);
}

void *
gomp_dsm_stack_alloc (size_t size)
{
  return stack_alloc (size, 0);
}

void *
gomp_dsm_pthread_stack_alloc (size_t size)
{
  return stack_alloc (size, GOMP_DSM_STACK_PRIVATE);
}

/* fork() from a thread running on a stack of the segment would give the
   child the parent's stack and data (MAP_SHARED): both would write the
   same frames.  Refuse loudly.  (system() and popen() use posix_spawn,
   which runs no fork handlers and is safe.)  */
static void
refuse_fork (void)
{
  char here;
  if (gomp_dsm_contains (&here))
    gomp_dsm_fatal ("fork() is not supported in a program running on "
		    "several nodes (the child would share the parent's "
		    "memory); use posix_spawn, system or popen");
}

void
gomp_dsm_init (int rank, int nodes, const struct gomp_dsm_config *cfg)
{
  long pg = sysconf (_SC_PAGESIZE);
  populate_page = populate_supported (pg) ? pg : 0;
  gomp_dsm.rank = rank;
  gomp_dsm.nodes = nodes;
  if (nodes > GOMP_DSM_MAX_NODES)
    gomp_dsm_fatal ("at most %d nodes are supported (%d asked)",
		    GOMP_DSM_MAX_NODES, nodes);
  gomp_dsm.bsize = cfg->block ? cfg->block : (size_t) pg;
  if (gomp_dsm.bsize < (size_t) pg || (gomp_dsm.bsize & (gomp_dsm.bsize - 1))
      || gomp_dsm.bsize > (1 << 24))
    gomp_dsm_fatal ("OMPC_DSM_BLOCK=%zu must be a power of two between the "
		    "page size (%ld) and 16M", gomp_dsm.bsize, pg);
  gomp_dsm.bshift = __builtin_ctzl (gomp_dsm.bsize);
  size_t heap = cfg->segment_size;
  if (heap < ((size_t) 64 << 20) || heap > ((size_t) 16 << 40))
    gomp_dsm_fatal ("OMPC_SEGMENT_SIZE=%zu must be between 64M and 16T",
		    heap);
  size_t stacks = cfg->stack_area;
  if (stacks < ((size_t) 64 << 20) || stacks > ((size_t) 1 << 40))
    gomp_dsm_fatal ("OMPC_STACK_AREA=%zu must be between 64M and 1T",
		    stacks);
  /* Every arena and stack area is a multiple of 64 KiB and of the
     block.  */
  size_t unit = gomp_dsm.bsize > 65536 ? gomp_dsm.bsize : 65536;
  heap = heap / nodes / unit * unit * nodes;
  stacks = stacks / unit * unit;
  gomp_dsm.policy = cfg->home;
  gomp_dsm.prefetch = cfg->prefetch;
  gomp_dsm.eager = cfg->eager;
  bool migrate = cfg->migrate;

  remap_globals ();
  if ((heap + stacks * nodes) >> gomp_dsm.bshift >= UINT32_MAX / 4)
    gomp_dsm_fatal ("too many DSM blocks: OMPC_SEGMENT_SIZE plus %d times "
		    "OMPC_STACK_AREA is %zu GiB; lower them or raise "
		    "OMPC_DSM_BLOCK", nodes, (heap + stacks * nodes) >> 30);
  map_segment (heap, stacks);
  struct gomp_dsm_area *a0 = &gomp_dsm.area[0], *a1 = &gomp_dsm.area[1];
  a0->first = 0;
  a0->nblocks = (a0->size + gomp_dsm.bsize - 1) >> gomp_dsm.bshift;
  a1->first = a0->nblocks;
  a1->nblocks = a1->size >> gomp_dsm.bshift;
  if ((uint64_t) a0->nblocks + a1->nblocks >= UINT32_MAX / 2)
    gomp_dsm_fatal ("too many DSM blocks: raise OMPC_DSM_BLOCK or lower "
		    "OMPC_SEGMENT_SIZE or OMPC_STACK_AREA");
  gomp_dsm.nblocks = a0->nblocks + a1->nblocks;
  a0->part = (a0->nblocks + nodes - 1) / nodes;
  size_t nb = gomp_dsm.nblocks;
  gomp_dsm.meta = map_anon (nb * 4, "block states");
  gomp_dsm.home = map_anon (nb * 2, "block homes");
  memset (gomp_dsm.home, 0xff, nb * 2);
  gomp_dsm.copyset = map_anon (nb * 8, "copysets");
  gomp_dsm.twins = map_anon (nb << gomp_dsm.bshift, "twins");
  gomp_dsm.expired = map_anon (nb * 2, "block expiries");
  gomp_dsm_stage_init ();
  gomp_dsm_need = calloc (nodes, sizeof *gomp_dsm_need);
  gomp_dsm_diff_label = calloc (nodes, sizeof *gomp_dsm_diff_label);
  gomp_dsm_blk_rel = calloc (nb, sizeof *gomp_dsm_blk_rel);
  if (!gomp_dsm_need || !gomp_dsm_diff_label)
    gomp_dsm_fatal ("out of memory");
  gomp_dsm.cached = map_anon (nb * 4, "the cached list");
  gomp_dsm_list_init (&gomp_dsm.notices, nb);
  gomp_dsm_list_init (&gomp_dsm.dirty, nb);
  gomp_dsm_list_init (&gomp_dsm.stack_copied, nb);
  /* Twice: a block whose twin is dropped and made again between two
     releases is listed twice.  */
  gomp_dsm_list_init (&gomp_dsm.htwins, 2 * nb);
  gomp_dsm_migrate_init (migrate);

  gomp_dsm_coherence_init ();
  gomp_dsm_heap_init ();
  gomp_dsm_atomic_init ();
  gomp_dsm_fault_init ();
  gomp_dsm_thread_init ();
  pthread_atfork (refuse_fork, NULL, NULL);
}

void
gomp_dsm_fini (void)
{
  gomp_dsm_fault_fini ();
}

void
gomp_dsm_print_stats (void)
{
  struct gomp_dsm_stats *s = &gomp_dsm.st;
  struct gomp_cl_stats t;
  gomp_cl_get_stats (&t);
  fprintf (stderr,
	   "ompcluster: rank %d: dsm: faults %lu read, %lu write, %lu home "
	   "write; pages fetched %lu (%lu bytes), %lu of them prefetched "
	   "(%lu runs opened), %lu updated in place, %lu pushed with a region; "
	   "homes moved %lu; "
	   "diffs sent %lu (%lu "
	   "bytes); write notices %lu sent, %lu invalidations; home "
	   "lookups %lu; remote atomics %lu; remote frees %lu; messages "
	   "%lu sent (%lu bytes), %lu received (%lu bytes); time in "
	   "release %.3f ms, acquire %.3f ms (prefetch %.3f ms), serving "
	   "page requests %.3f ms\n",
	   gomp_dsm.rank, s->read_faults, s->write_faults, s->home_faults,
	   s->fetches + s->prefetches + s->eager_updates + s->pushed,
	   s->fetch_bytes, s->prefetches, s->prefetch_opens, s->eager_updates,
	   s->pushed, s->homes_moved, s->diffs,
	   s->diff_bytes,
	   s->notices_sent, s->invalidations, s->home_lookups,
	   s->remote_atomics, s->remote_frees, t.msgs_sent, t.bytes_sent,
	   t.msgs_recv, t.bytes_recv, s->release_ns * 1e-6,
	   s->acquire_ns * 1e-6, s->prefetch_ns * 1e-6, s->serve_ns * 1e-6);
}
