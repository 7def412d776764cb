/* ompc_heap.c -- the heap entry points the ompcluster plugin's rewrites
   call: ompc_malloc and the rest of the C allocation functions, with libc's
   signatures (docs/INTERNALS.md, "Plugin <-> runtime contract").

   With one node (gomp_cluster NULL) each is libc's function after one test.
   With several nodes memory comes from the cluster module's shared heap,
   a fixed-address arena inside the shared segment, so that every node sees
   the same object at the same address; the module's free and realloc also
   take memory that libc allocated (getline, asprintf, memory allocated
   before start-up) and hand it back to libc, deciding by address.  */

#include "libgomp.h"
#include <errno.h>
#include <malloc.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

GOMP_EXPORT void *
ompc_malloc (size_t size)
{
  if (GOMP_UNLIKELY (gomp_cluster))
    {
      void *p = gomp_cluster->malloc (size);
      if (!p)
	errno = ENOMEM;
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
      return ompc_realloc (ptr, bytes);
    }
  return reallocarray (ptr, n, size);
}

/* The cluster path of the aligned allocators: ALIGN is a power of two.  */
static void *
gomp_heap_memalign (size_t align, size_t size)
{
  if (align < sizeof (void *))
    align = sizeof (void *);
  void *p = gomp_cluster->memalign (align, size);
  if (!p)
    errno = ENOMEM;
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
      return gomp_heap_memalign (align, size);
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
      void *p = gomp_heap_memalign (align, size);
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
      return gomp_heap_memalign (align, size);
    }
  return aligned_alloc (align, size);
}

GOMP_EXPORT void *
ompc_valloc (size_t size)
{
  if (GOMP_UNLIKELY (gomp_cluster))
    return gomp_heap_memalign (sysconf (_SC_PAGESIZE), size);
  return valloc (size);
}

GOMP_EXPORT char *
ompc_strdup (const char *s)
{
  if (GOMP_UNLIKELY (gomp_cluster))
    {
      size_t len = strlen (s) + 1;
      char *p = ompc_malloc (len);
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
      char *p = ompc_malloc (len + 1);
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
