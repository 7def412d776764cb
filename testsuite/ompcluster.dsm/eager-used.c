/* eager.c with OMPC_STATS: barriers must update pages in place (the
   stats line of some rank says a non-zero number of pages "updated in
   place") and give the same results; with OMPC_DSM_EAGER=0 (eager-off.c)
   none is.
   ompc-nodes: 2x1 2x2
   ompc-env: OMPC_STATS=1
   ompc-timeout: 180
   ompc-output: eager ok
   ompc-output: [1-9][0-9]* updated in place  */

#include "eager.c"
