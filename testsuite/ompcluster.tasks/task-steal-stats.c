/* task-steal.c with OMPC_STATS=1: the counters show tasks of rank 0 run
   on rank 1, given by rank 0, and bytes moved.  */
/* ompc-nodes: 2x1 */
/* ompc-env: OMPC_STATS=1 OMPC_TASK_STEAL=1 */
/* ompc-output: rank 0: tasks [0-9]+ of this node run here, [0-9]+ of other nodes run here \(stolen\), [1-9][0-9]* given to other nodes */
/* ompc-output: rank 1: tasks [0-9]+ of this node run here, [1-9][0-9]* of other nodes run here \(stolen\), [0-9]+ given to other nodes; [1-9][0-9]* steal answers with tasks received, [0-9]+ sent; [1-9][0-9]* bytes of tasks moved */
/* ompc-timeout: 120 */
#include "task-steal.c"
