/* ompc_tls.c -- threadprivate data that copyin and copyprivate hand to a
   team (the plugin's rewrite 5, gcc-plugin/ompcluster.cc).

   For copyin of an aggregate (an array, a struct, a Fortran COMMON block or
   array descriptor) and for copyprivate, GCC's code gives the team the
   address of the master's (the single thread's) thread-local copy, and
   the other threads copy from it (OpenMP 5.1, 5.7.1 and 5.7.2).  Thread-
   local storage is private to its node, so with several nodes the plugin
   passes the address ompc_tls_share returns instead: a copy in the shared
   heap, freed by ompc_tls_unshare after the call that hands it over
   (GOMP_parallel, GOMP_single_copy_end), which returns only once the team
   has used it.  With one node the address is the variable's own and
   nothing is copied.  */

#include "libgomp.h"
#include <string.h>

GOMP_EXPORT void *
ompc_tls_share (void *addr, size_t size)
{
  if (GOMP_LIKELY (gomp_cluster == NULL))
    return addr;
  void *copy = gomp_cluster->malloc (size ? size : 1);
  if (copy == NULL)
    gomp_fatal ("out of shared memory copying %zu bytes of threadprivate "
		"data for copyin or copyprivate (OMPC_SEGMENT_SIZE sets the "
		"segment's size)", size);
  memcpy (copy, addr, size);
  return copy;
}

GOMP_EXPORT void
ompc_tls_unshare (void *addr, void *copy)
{
  if (copy != addr)
    gomp_cluster->free (copy);
}
