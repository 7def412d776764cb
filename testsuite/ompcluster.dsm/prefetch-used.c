/* prefetch.c with OMPC_STATS: the DSM must prefetch (the stats line of
   some rank says a non-zero number of pages "of them prefetched") and give
   the same results; with OMPC_DSM_PREFETCH=0 (prefetch-off.c) nothing is.
   ompc-nodes: 2x1 3x1
   ompc-env: OMPC_STATS=1
   ompc-timeout: 180
   ompc-output: prefetch ok
   ompc-output: [1-9][0-9]* of them prefetched  */

#include "prefetch.c"
