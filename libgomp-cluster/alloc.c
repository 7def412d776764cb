/* alloc.c -- OpenMP memory allocators (OpenMP 5.1, section 2.13): the
   predefined allocators, omp_init_allocator's traits (alignment, pool size,
   fallback), omp_alloc and its aligned/calloc/realloc variants, omp_free,
   the default-allocator ICV, and GOMP_alloc/GOMP_free, which GCC emits for
   the allocate clause and directive.

   Every memory space is ordinary memory here.  With several nodes the
   memory comes from the cluster's shared heap, so that a pointer handed to
   another thread is valid on every node.  Each block starts with a small
   header (below the pointer returned) that records the allocator and the
   block's real start and size, so that omp_free and omp_realloc need no
   allocator argument to be right.  */

#include "task.h"
#include "omp.h"
#include <stdlib.h>
#include <string.h>

/* The default-allocator ICV for the whole program, from OMP_ALLOCATOR
   (env.c sets it).  omp_null_allocator in a thread's own copy means
   "use this".  */
uintptr_t gomp_def_allocator = omp_default_mem_alloc;

/* def-allocator-var of the calling thread; omp_null_allocator means the
   program-wide gomp_def_allocator.  The threads of a team inherit their
   master's (taskteam.c).  */
__thread uintptr_t gomp_thread_def_allocator
  __attribute__ ((tls_model ("initial-exec")));

/* A user-defined allocator: the traits of omp_init_allocator.  */
struct gomp_allocator
{
  omp_memspace_handle_t memspace;
  uintptr_t alignment;
  uintptr_t pool_size;			/* ~0: unlimited.  */
  uint64_t pool_used;			/* Updated by gomp_pool_add.  */
  omp_allocator_handle_t fb_data;
  unsigned char sync_hint, access, fallback, pinned, partition;
};

/* Lies just below every pointer omp_alloc returns.  */
struct gomp_alloc_header
{
  void *base;				/* What the raw allocation returned.  */
  size_t size;				/* Its size, counted against a pool.  */
  omp_allocator_handle_t allocator;
  void *pad;				/* Keeps the header 32 bytes.  */
};

#define GOMP_MAX_PREDEFINED_ALLOC omp_thread_mem_alloc

static inline void *
gomp_raw_malloc (size_t size)
{
  if (gomp_cluster)
    return gomp_cluster->malloc (size);
  return malloc (size);
}

static inline void
gomp_raw_free (void *ptr)
{
  if (gomp_cluster)
    gomp_cluster->free (ptr);
  else
    free (ptr);
}

static inline struct gomp_allocator *
gomp_allocator_data (omp_allocator_handle_t allocator)
{
  if (allocator > GOMP_MAX_PREDEFINED_ALLOC)
    return (struct gomp_allocator *) allocator;
  return NULL;
}

omp_allocator_handle_t GOMP_EXPORT
omp_init_allocator (omp_memspace_handle_t memspace, int ntraits,
		    const omp_alloctrait_t traits[])
{
  struct gomp_allocator a = {
    .memspace = memspace, .alignment = 1, .pool_size = ~(uintptr_t) 0,
    .fb_data = omp_null_allocator, .sync_hint = omp_atv_contended,
    .access = omp_atv_all, .fallback = omp_atv_default_mem_fb,
    .pinned = omp_atv_false, .partition = omp_atv_environment
  };

  if (memspace > omp_low_lat_mem_space)
    return omp_null_allocator;
  for (int i = 0; i < ntraits; i++)
    {
      uintptr_t v = traits[i].value;
      switch (traits[i].key)
	{
	case omp_atk_sync_hint:
	  if (v == omp_atv_default)
	    v = omp_atv_contended;
	  if (v != omp_atv_contended && v != omp_atv_uncontended
	      && v != omp_atv_serialized && v != omp_atv_private)
	    return omp_null_allocator;
	  a.sync_hint = v;
	  break;
	case omp_atk_alignment:
	  if (v == omp_atv_default)
	    v = 1;
	  if (v == 0 || (v & (v - 1)) != 0)
	    return omp_null_allocator;
	  a.alignment = v;
	  break;
	case omp_atk_access:
	  if (v == omp_atv_default)
	    v = omp_atv_all;
	  if (v != omp_atv_all && v != omp_atv_cgroup && v != omp_atv_pteam
	      && v != omp_atv_thread)
	    return omp_null_allocator;
	  a.access = v;
	  break;
	case omp_atk_pool_size:
	  a.pool_size = v == omp_atv_default ? ~(uintptr_t) 0 : v;
	  break;
	case omp_atk_fallback:
	  if (v == omp_atv_default)
	    v = omp_atv_default_mem_fb;
	  if (v != omp_atv_default_mem_fb && v != omp_atv_null_fb
	      && v != omp_atv_abort_fb && v != omp_atv_allocator_fb)
	    return omp_null_allocator;
	  a.fallback = v;
	  break;
	case omp_atk_fb_data:
	  a.fb_data = v;
	  break;
	case omp_atk_pinned:
	  if (v == omp_atv_default)
	    v = omp_atv_false;
	  if (v != omp_atv_false && v != omp_atv_true)
	    return omp_null_allocator;
	  a.pinned = v;
	  break;
	case omp_atk_partition:
	  if (v == omp_atv_default)
	    v = omp_atv_environment;
	  if (v != omp_atv_environment && v != omp_atv_nearest
	      && v != omp_atv_blocked && v != omp_atv_interleaved)
	    return omp_null_allocator;
	  a.partition = v;
	  break;
	default:
	  return omp_null_allocator;
	}
    }
  /* Pinned memory is not supported: such an allocator cannot be made.  */
  if (a.pinned)
    return omp_null_allocator;
  /* The allocator_fb fallback needs the allocator to fall back to.  */
  if (a.fallback == omp_atv_allocator_fb && a.fb_data == omp_null_allocator)
    return omp_null_allocator;

  /* With several nodes the handle must be valid on every node: the
     allocator lives in the shared heap.  */
  struct gomp_allocator *ret = gomp_raw_malloc (sizeof *ret);
  if (ret == NULL)
    return omp_null_allocator;
  *ret = a;
  return (omp_allocator_handle_t) ret;
}

void GOMP_EXPORT
omp_destroy_allocator (omp_allocator_handle_t allocator)
{
  struct gomp_allocator *a = gomp_allocator_data (allocator);
  if (a)
    gomp_raw_free (a);
}

void GOMP_EXPORT
omp_set_default_allocator (omp_allocator_handle_t allocator)
{
  if (allocator == omp_null_allocator)
    allocator = omp_default_mem_alloc;
  gomp_thread_def_allocator = allocator;
}

omp_allocator_handle_t GOMP_EXPORT
omp_get_default_allocator (void)
{
  if (gomp_thread_def_allocator == omp_null_allocator)
    gomp_thread_def_allocator = gomp_def_allocator;
  return gomp_thread_def_allocator;
}

/* A pool's count lives in the shared heap with the allocator, so with
   several nodes it is updated where its page lives, through the atomic
   entry points the plugin's rewrites call (ompc_atomic.c): the DSM only
   merges plain writes at the next barrier, and two nodes counting at once
   would lose one count.  */
uint64_t ompc_atomic_load_8 (const volatile void *, int);
bool ompc_atomic_compare_exchange_8 (volatile void *, void *, uint64_t, bool,
				     int, int);
uint64_t ompc_atomic_fetch_add_8 (volatile void *, uint64_t, int);

/* Adds DELTA (negative to give back) to A's pool count.  */
static void
gomp_pool_add (struct gomp_allocator *a, intptr_t delta)
{
  ompc_atomic_fetch_add_8 (&a->pool_used, (uint64_t) delta, __ATOMIC_RELAXED);
}

/* Reserves SIZE bytes of A's pool; false when the pool is too small.  */
static bool
gomp_pool_reserve (struct gomp_allocator *a, size_t size)
{
  uint64_t used = ompc_atomic_load_8 (&a->pool_used, __ATOMIC_RELAXED);
  do
    {
      if (size > a->pool_size || used > a->pool_size - size)
	return false;
    }
  while (!ompc_atomic_compare_exchange_8 (&a->pool_used, &used, used + size,
					  true, __ATOMIC_RELAXED,
					  __ATOMIC_RELAXED));
  return true;
}

/* The common allocation path: SIZE bytes aligned to ALIGNMENT (a power of
   two) with ALLOCATOR, zeroed when ZERO.  Applies the allocator's
   fallback on failure.  */
static void *
gomp_alloc_with (size_t alignment, size_t size, omp_allocator_handle_t
		 allocator, bool zero)
{
  if (allocator == omp_null_allocator)
    allocator = omp_get_default_allocator ();

  for (;;)
    {
      struct gomp_allocator *a = gomp_allocator_data (allocator);
      size_t align = alignment;
      if (a && a->alignment > align)
	align = a->alignment;
      if (align < sizeof (void *))
	align = sizeof (void *);

      size_t hdr = sizeof (struct gomp_alloc_header);
      size_t total;
      bool ok = !__builtin_add_overflow (size, hdr, &total)
		&& !__builtin_add_overflow (total, align - 1, &total);
      bool pooled = ok && a && a->pool_size != ~(uintptr_t) 0;
      void *base = NULL;
      if (ok && (!pooled || gomp_pool_reserve (a, total)))
	{
	  base = gomp_raw_malloc (total);
	  if (base == NULL && pooled)
	    gomp_pool_add (a, -(intptr_t) total);
	}
      if (base != NULL)
	{
	  uintptr_t p = ((uintptr_t) base + hdr + align - 1) & ~(align - 1);
	  struct gomp_alloc_header *h = (struct gomp_alloc_header *) p - 1;
	  h->base = base;
	  h->size = total;
	  h->allocator = allocator;
	  if (zero)
	    memset ((void *) p, 0, size);
	  return (void *) p;
	}

      /* Failed: the allocator's fallback trait says what next.  The
	 predefined allocators fall back to nothing (null_fb).  */
      if (a == NULL)
	return NULL;
      switch (a->fallback)
	{
	case omp_atv_default_mem_fb:
	  allocator = omp_default_mem_alloc;
	  break;
	case omp_atv_allocator_fb:
	  allocator = a->fb_data;
	  break;
	case omp_atv_abort_fb:
	  gomp_fatal ("out of memory allocating %zu bytes with an OpenMP "
		      "allocator whose fallback is abort_fb", size);
	default:
	  return NULL;
	}
    }
}

GOMP_EXPORT void *
omp_aligned_alloc (size_t alignment, size_t size,
		   omp_allocator_handle_t allocator)
{
  if (size == 0 || alignment == 0 || (alignment & (alignment - 1)) != 0)
    return NULL;
  return gomp_alloc_with (alignment, size, allocator, false);
}

GOMP_EXPORT void *
omp_alloc (size_t size, omp_allocator_handle_t allocator)
{
  if (size == 0)
    return NULL;
  return gomp_alloc_with (1, size, allocator, false);
}

GOMP_EXPORT void *
omp_aligned_calloc (size_t alignment, size_t nmemb, size_t size,
		    omp_allocator_handle_t allocator)
{
  size_t total;
  if (__builtin_mul_overflow (nmemb, size, &total))
    {
      struct gomp_allocator *a
	= gomp_allocator_data (allocator == omp_null_allocator
			       ? omp_get_default_allocator () : allocator);
      if (a && a->fallback == omp_atv_abort_fb)
	gomp_fatal ("out of memory: omp_calloc of %zu elements of %zu bytes "
		    "overflows", nmemb, size);
      return NULL;
    }
  if (total == 0 || alignment == 0 || (alignment & (alignment - 1)) != 0)
    return NULL;
  return gomp_alloc_with (alignment, total, allocator, true);
}

GOMP_EXPORT void *
omp_calloc (size_t nmemb, size_t size, omp_allocator_handle_t allocator)
{
  return omp_aligned_calloc (1, nmemb, size, allocator);
}

void GOMP_EXPORT
omp_free (void *ptr, omp_allocator_handle_t allocator)
{
  if (ptr == NULL)
    return;
  struct gomp_alloc_header *h = (struct gomp_alloc_header *) ptr - 1;
  struct gomp_allocator *a = gomp_allocator_data (h->allocator);
  if (a && a->pool_size != ~(uintptr_t) 0)
    gomp_pool_add (a, -(intptr_t) h->size);
  gomp_raw_free (h->base);
}

GOMP_EXPORT void *
omp_realloc (void *ptr, size_t size, omp_allocator_handle_t allocator,
	     omp_allocator_handle_t free_allocator)
{
  if (ptr == NULL)
    return omp_alloc (size, allocator);
  if (size == 0)
    {
      omp_free (ptr, free_allocator);
      return NULL;
    }
  struct gomp_alloc_header *h = (struct gomp_alloc_header *) ptr - 1;
  if (allocator == omp_null_allocator)
    allocator = h->allocator;
  /* The new block keeps the alignment the old one had.  */
  size_t align = 1;
  struct gomp_allocator *old = gomp_allocator_data (h->allocator);
  if (old && old->alignment > align)
    align = old->alignment;
  /* Within one pool, the old block's room counts for the new one.  */
  bool credit = old && old->pool_size != ~(uintptr_t) 0
		&& allocator == h->allocator;
  if (credit)
    gomp_pool_add (old, -(intptr_t) h->size);
  void *ret = gomp_alloc_with (align, size, allocator, false);
  if (ret == NULL)
    {
      if (credit)
	gomp_pool_add (old, (intptr_t) h->size);
      return NULL;
    }
  size_t old_size = (char *) h->base + h->size - (char *) ptr;
  memcpy (ret, ptr, old_size < size ? old_size : size);
  if (credit)
    gomp_raw_free (h->base);
  else
    omp_free (ptr, free_allocator);
  return ret;
}

/* GCC's allocate clause and directive: like omp_aligned_alloc, but running
   out of memory is fatal (the program has no way to check).  */
GOMP_EXPORT void *
GOMP_alloc (size_t alignment, size_t size, uintptr_t allocator)
{
  void *ret = omp_aligned_alloc (alignment, size, allocator);
  if (GOMP_UNLIKELY (ret == NULL) && size)
    gomp_fatal ("out of memory allocating %zu bytes for an allocate clause",
		size);
  return ret;
}

void GOMP_EXPORT
GOMP_free (void *ptr, uintptr_t allocator)
{
  omp_free (ptr, allocator);
}
