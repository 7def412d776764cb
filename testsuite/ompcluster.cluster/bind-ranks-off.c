/* OMPC_BIND_RANKS=0: ranks that would fit processors of their own keep
   the set they started with (bind-ranks.c's checks, binding off).  */
/* ompc-nodes: 2x1 */
/* ompc-env: OMPC_BIND_RANKS=0 */
/* ompc-timeout: 60 */
#define BIND_OFF 1
#include "bind-ranks.c"
