/* ompcluster.h -- what the two files of the ompcluster plugin share:
   ompcluster.cc (the plugin's entry point, globals, main, heap, the first
   GIMPLE pass) and atomics.cc (rewrite 4, atomics, and the second pass).
   Every name is the plugin's own: ompc_ lower case.  */

#ifndef OMPC_OMPCLUSTER_H
#define OMPC_OMPCLUSTER_H 1

#include "gcc-common.h"

/* ompcluster.cc.  */

/* -fplugin-arg-ompcluster-[no-]inline-atomics.  */
extern bool ompc_inline_atomics;
/* The unit is a whole program built without OpenMP: left alone.  */
extern bool ompc_off;
/* What this translation unit changed, for the verbose report.  */
struct ompc_unit_stats
{
  unsigned vars, weak, kept, aligned;
  unsigned HOST_WIDE_INT data_bytes, zero_bytes;
  bool main_renamed;
  unsigned heap_calls, heap_addrs, atomics, loop_atomics, flushes, tls_copies;
  unsigned gfortran_results, gfortran_io;
};
extern struct ompc_unit_stats ompc_stats;
/* The external function NAME of TYPE (the runtime's), declared once per
   translation unit.  */
extern tree ompc_extern_fn (const char *name, tree type);

/* atomics.cc.  */

/* Whether STMT is an atomic the runtime takes over.  */
extern bool ompc_is_atomic (gimple *stmt);
/* The atomic at GSI: rewritten now, or queued in GUARDED.  */
extern void ompc_take_atomic (gimple_stmt_iterator *gsi,
			      vec<gimple *> *guarded);
/* Guards the queued atomics once the walk over the blocks is over.  */
extern void ompc_guard_atomics (vec<gimple *> *guarded);
/* The second pass: the atomics of functions parloops made.  */
extern unsigned int ompc_rewrite_loopfn (function *fun);

#endif /* OMPC_OMPCLUSTER_H */
