/* task-steal.c with stealing between nodes off (explicitly; it is the
   default too): every task runs on its creator's node, and the results
   are the same.  */
/* ompc-nodes: 2x1 2x2 */
/* ompc-env: OMPC_TASK_STEAL=0 */
/* ompc-timeout: 120 */
#include "task-steal.c"
