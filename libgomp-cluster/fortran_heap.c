/* fortran_heap.c -- arrays that libgfortran allocates, moved into the
   shared heap (the plugin's rewrite 6, gcc-plugin/ompcluster.cc).

   gfortran compiles many array-valued intrinsics (MATMUL, RESHAPE, PACK,
   SPREAD, SUM or MAXLOC with DIM, ...) into calls of libgfortran that
   receive the result's descriptor with a NULL data pointer; libgfortran
   then allocates the result with libc's malloc and the compiled code keeps
   it, for instance as the data of an allocatable array.  libgfortran is
   not compiled with the plugin, so with several nodes that memory lies
   outside the shared segment: another node reading the array would see
   its own, unrelated memory at the same address.  The plugin passes every
   descriptor handed to a libgfortran routine through ompc_gfortran_result
   after the call.  */

#include "libgomp.h"
#include <malloc.h>
#include <stdlib.h>
#include <string.h>

/* BEFORE is the descriptor's data pointer before the libgfortran call and
   *SLOT the pointer after it.  If the call allocated the array (BEFORE
   NULL, *SLOT not), the array moves into the cluster's shared heap.  With
   one node nothing changes.  */
GOMP_EXPORT void
ompc_gfortran_result (void *before, void **slot)
{
  void *data = *slot;
  if (GOMP_LIKELY (gomp_cluster == NULL) || before != NULL || data == NULL)
    return;
  /* libgfortran's xmallocarray: libc's block, at least the array's size.  */
  size_t n = malloc_usable_size (data);
  void *shared = gomp_cluster->malloc (n);
  if (shared == NULL)
    gomp_fatal ("out of shared memory moving a %zu-byte array that "
		"libgfortran allocated into the shared heap", n);
  memcpy (shared, data, n);
  free (data);
  *slot = shared;
}
