/* jacobi.c with 64 KiB DSM blocks dealt round-robin to the nodes: the
   other block size and home placement.
   ompc-nodes: 2x1 2x2 3x1
   ompc-env: OMPC_DSM_BLOCK=65536 OMPC_DSM_HOME=cyclic
   ompc-timeout: 120
   ompc-output: jacobi ok  */
#include "jacobi.c"
