/* libgomp.h -- the runtime's one internal header.

   Naming: GOMP_* and omp_* are the ABI that GCC 12's libgomp.so.1 exports
   (declared in libgomp_g.h and omp.h); everything private is gomp_* (and
   ompc_* for the entry points the ompcluster plugin calls), has hidden
   visibility (the whole library is built with -fvisibility=hidden; ABI
   entry points are marked GOMP_EXPORT), and is declared here, grouped by
   the file that defines it.  */

#ifndef OMPC_LIBGOMP_H
#define OMPC_LIBGOMP_H 1

#define _GNU_SOURCE 1
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include "cluster.h"

#define GOMP_EXPORT __attribute__ ((visibility ("default")))
#define GOMP_NORETURN __attribute__ ((noreturn))
#define GOMP_LIKELY(x) __builtin_expect (!!(x), 1)
#define GOMP_UNLIKELY(x) __builtin_expect (!!(x), 0)

/* error.c: the one error path.  Messages read
   "ompcluster: rank R thread T: WHAT" (the rank part only with several
   nodes) and say what to do.  */
extern void gomp_error (const char *fmt, ...)
  __attribute__ ((format (printf, 1, 2)));
extern void gomp_fatal (const char *fmt, ...)
  __attribute__ ((format (printf, 1, 2))) GOMP_NORETURN;
/* An ABI entry point or a case that is not implemented yet.  */
extern void gomp_unsupported (const char *what) GOMP_NORETURN;
/* Debug output, enabled by OMPC_DEBUG=1.  */
extern int gomp_debug_enabled;
extern void gomp_debug (const char *fmt, ...)
  __attribute__ ((format (printf, 1, 2)));

/* start.c: the runtime's main and the launch.  */
extern int gomp_launcher_size (void);
/* team.c (or parallel.c): runs this node's part of a region rank 0 started
   across the nodes; the cluster module calls it through its host table.  */
extern void gomp_cluster_run_region (void (*fn) (void *), void *data,
				     unsigned nthreads, unsigned flags);

#endif /* OMPC_LIBGOMP_H */
