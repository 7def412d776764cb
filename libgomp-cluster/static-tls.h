/* static-tls.h -- the size of the static thread-local storage glibc puts
   on every new thread's stack, for the runtime, the cluster module and
   the transport, which size their threads' stacks themselves.  */

#ifndef OMPC_STATIC_TLS_H
#define OMPC_STATIC_TLS_H 1

#include <link.h>
#include <stddef.h>

/* dl_iterate_phdr callback of gomp_cluster_static_tls.  */
static inline int
gomp_cluster_tls_1 (struct dl_phdr_info *info, size_t size, void *data)
{
  (void) size;
  for (int i = 0; i < info->dlpi_phnum; i++)
    if (info->dlpi_phdr[i].p_type == PT_TLS)
      *(size_t *) data += info->dlpi_phdr[i].p_memsz
			  + info->dlpi_phdr[i].p_align;
  return 0;
}

/* The thread-local storage of the loaded objects (an upper bound: every
   PT_TLS block with its alignment), which glibc carves out of each new
   thread's stack: the stacks the runtime and the module size themselves
   with several nodes add it, as the program's threadprivate data can be
   large (a 20 MB threadprivate COMMON left no room in the service
   thread's 1 MiB).  */
static inline size_t
gomp_cluster_static_tls (void)
{
  size_t n = 0;
  dl_iterate_phdr (gomp_cluster_tls_1, &n);
  return n;
}

#endif /* OMPC_STATIC_TLS_H */
