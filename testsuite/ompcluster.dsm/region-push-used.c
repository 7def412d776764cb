/* region-push.c with OMPC_STATS: rank 0 must push blocks with the
   regions' starts (some rank says a non-zero number "pushed with a
   region") and the results must be the same.
   ompc-nodes: 2x1 2x2
   ompc-env: OMPC_STATS=1
   ompc-timeout: 180
   ompc-output: region-push ok
   ompc-output: [1-9][0-9]* pushed with a region  */

#include "region-push.c"
