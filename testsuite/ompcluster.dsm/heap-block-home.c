/* heap-nodes.c with the block home placement and 16 KiB blocks.
   ompc-nodes: 2x1 2x2 3x1
   ompc-env: OMPC_DSM_BLOCK=16384 OMPC_DSM_HOME=block
   ompc-timeout: 120
   ompc-output: heap ok  */
#include "heap-nodes.c"
