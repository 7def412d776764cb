/* eager.c with updates in place turned off (OMPC_DSM_EAGER=0): the same
   results, and no rank updates a page in place or pushes one.
   ompc-nodes: 2x1
   ompc-env: OMPC_STATS=1 OMPC_DSM_EAGER=0
   ompc-timeout: 180
   ompc-output: eager ok
   ompc-no-output: [1-9][0-9]* updated in place
   ompc-no-output: [1-9][0-9]* pushed with a region  */

#include "eager.c"
