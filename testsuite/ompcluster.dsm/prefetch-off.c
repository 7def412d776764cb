/* prefetch.c with the prefetch turned off (OMPC_DSM_PREFETCH=0): the same
   results, and no rank prefetches.
   ompc-nodes: 2x1
   ompc-env: OMPC_STATS=1 OMPC_DSM_PREFETCH=0
   ompc-timeout: 180
   ompc-output: prefetch ok
   ompc-no-output: [1-9][0-9]* of them prefetched  */

#include "prefetch.c"
