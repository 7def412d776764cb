/* ompc_heap.c -- the heap entry points the ompcluster plugin's rewrites
   call: ompc_malloc and the rest of the C allocation functions, with libc's
   signatures (docs/INTERNALS.md, "Plugin <-> runtime contract").

   With one node (gomp_cluster NULL) each is libc's function after one test.
   With several nodes memory comes from the cluster module's shared heap,
   a fixed-address arena inside the shared segment, so that every node sees
   the same object at the same address; the module's free and realloc also
   take memory that libc allocated (getline, asprintf, memory allocated
   before start-up) and hand it back to libc, deciding by address.  With
   the sharing report on (gomp_cluster->heap_site), each block handed out
   is noted with its caller's return address, the call site the report
   names it by.  */

#include "libgomp.h"
#include <errno.h>
#include <malloc.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* Notes P, of SIZE bytes, allocated for CALLER, when the sharing report
   is on (cluster path only).  */
static inline void
gomp_heap_site (void *p, size_t size, void *caller)
{
  if (GOMP_UNLIKELY (gomp_cluster->heap_site != NULL) && p)
    gomp_cluster->heap_site (p, size, caller);
}

GOMP_EXPORT void *
ompc_malloc (size_t size)
{
  if (GOMP_UNLIKELY (gomp_cluster))
    {
      void *p = gomp_cluster->malloc (size);
      if (!p)
	errno = ENOMEM;
      gomp_heap_site (p, size, __builtin_return_address (0));
      return p;
    }
  return malloc (size);
}

GOMP_EXPORT void
ompc_free (void *ptr)
{
  if (GOMP_UNLIKELY (gomp_cluster))
    {
      gomp_cluster->free (ptr);
      return;
    }
  free (ptr);
}

GOMP_EXPORT void *
ompc_calloc (size_t n, size_t size)
{
  if (GOMP_UNLIKELY (gomp_cluster))
    {
      size_t bytes;
      if (__builtin_mul_overflow (n, size, &bytes))
	{
	  errno = ENOMEM;
	  return NULL;
	}
      /* The module zeroes only what may be non-zero: fresh shared memory
	 keeps its first-touch placement.  */
      void *p = gomp_cluster->calloc (n, size);
      if (!p)
	errno = ENOMEM;
      gomp_heap_site (p, bytes, __builtin_return_address (0));
      return p;
    }
  return calloc (n, size);
}

GOMP_EXPORT void *
ompc_realloc (void *ptr, size_t size)
{
  if (GOMP_UNLIKELY (gomp_cluster))
    {
      void *p = gomp_cluster->realloc (ptr, size);
      if (!p && size)
	errno = ENOMEM;
      gomp_heap_site (p, size, __builtin_return_address (0));
      return p;
    }
  return realloc (ptr, size);
}

GOMP_EXPORT void *
ompc_reallocarray (void *ptr, size_t n, size_t size)
{
  if (GOMP_UNLIKELY (gomp_cluster))
    {
      size_t bytes;
      if (__builtin_mul_overflow (n, size, &bytes))
	{
	  errno = ENOMEM;
	  return NULL;
	}
      void *p = gomp_cluster->realloc (ptr, bytes);
      if (!p && bytes)
	errno = ENOMEM;
      gomp_heap_site (p, bytes, __builtin_return_address (0));
      return p;
    }
  return reallocarray (ptr, n, size);
}

/* The cluster path of the aligned allocators: ALIGN is a power of two.  */
static void *
gomp_heap_memalign (size_t align, size_t size, void *caller)
{
  if (align < sizeof (void *))
    align = sizeof (void *);
  void *p = gomp_cluster->memalign (align, size);
  if (!p)
    errno = ENOMEM;
  gomp_heap_site (p, size, caller);
  return p;
}

GOMP_EXPORT void *
ompc_memalign (size_t align, size_t size)
{
  if (GOMP_UNLIKELY (gomp_cluster))
    {
      /* glibc rounds an alignment that is not a power of two up.  */
      if (align & (align - 1))
	align = (size_t) 1 << (64 - __builtin_clzl (align));
      return gomp_heap_memalign (align, size, __builtin_return_address (0));
    }
  return memalign (align, size);
}

GOMP_EXPORT int
ompc_posix_memalign (void **ptr, size_t align, size_t size)
{
  if (GOMP_UNLIKELY (gomp_cluster))
    {
      if (align % sizeof (void *) || (align & (align - 1)) || !align)
	return EINVAL;
      void *p = gomp_heap_memalign (align, size,
				    __builtin_return_address (0));
      if (!p)
	return ENOMEM;
      *ptr = p;
      return 0;
    }
  return posix_memalign (ptr, align, size);
}

GOMP_EXPORT void *
ompc_aligned_alloc (size_t align, size_t size)
{
  if (GOMP_UNLIKELY (gomp_cluster))
    {
      if (!align || (align & (align - 1)))
	{
	  errno = EINVAL;
	  return NULL;
	}
      return gomp_heap_memalign (align, size, __builtin_return_address (0));
    }
  return aligned_alloc (align, size);
}

GOMP_EXPORT void *
ompc_valloc (size_t size)
{
  if (GOMP_UNLIKELY (gomp_cluster))
    return gomp_heap_memalign (sysconf (_SC_PAGESIZE), size,
			       __builtin_return_address (0));
  return valloc (size);
}

GOMP_EXPORT char *
ompc_strdup (const char *s)
{
  if (GOMP_UNLIKELY (gomp_cluster))
    {
      size_t len = strlen (s) + 1;
      char *p = gomp_cluster->malloc (len);
      if (!p)
	errno = ENOMEM;
      gomp_heap_site (p, len, __builtin_return_address (0));
      if (p)
	memcpy (p, s, len);
      return p;
    }
  return strdup (s);
}

GOMP_EXPORT char *
ompc_strndup (const char *s, size_t n)
{
  if (GOMP_UNLIKELY (gomp_cluster))
    {
      size_t len = strnlen (s, n);
      char *p = gomp_cluster->malloc (len + 1);
      if (!p)
	errno = ENOMEM;
      gomp_heap_site (p, len + 1, __builtin_return_address (0));
      if (p)
	{
	  memcpy (p, s, len);
	  p[len] = '\0';
	}
      return p;
    }
  return strndup (s, n);
}

GOMP_EXPORT size_t
ompc_malloc_usable_size (void *ptr)
{
  if (GOMP_UNLIKELY (gomp_cluster))
    return gomp_cluster->usable_size (ptr);
  return malloc_usable_size (ptr);
}
