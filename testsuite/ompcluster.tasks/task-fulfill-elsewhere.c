/* omp_fulfill_event on another thread of the team than the one that
   made the detached task -- at several nodes, on the last node: thread 0
   makes a detached task with depend(out) and a task that depends on it,
   publishes the event's handle, and the team's last thread writes a
   value and fulfills the event.  The dependent task must see the value,
   and the region end once the event is fulfilled.  Across nodes this
   needs OMPC_TASK_STEAL=1 (task waits then poll for the fulfilment;
   ompcluster.failures/fulfill-elsewhere.c is the message without it).  */
/* ompc-nodes: 1 1x2 2x1 3x1 2x2 */
/* ompc-env: OMPC_TASK_STEAL=1 */
/* ompc-output: ^ok$ */
/* ompc-timeout: 60 */
#include "fulfill-elsewhere.h"
