/* omp_fulfill_event on one node of an event that a detach clause made on
   another, with task stealing off (OMPC_TASK_STEAL=0): the node of the
   detached task would not look for the fulfilment while it waits, so the
   job ends with a message naming both ranks and what to set.  (It used
   to take the handle for an address of its own node: a crash, or a
   write to whatever lay there.)  The same program passes with
   OMPC_TASK_STEAL=1: ompcluster.tasks/task-fulfill-elsewhere.c.  */
/* ompc-nodes: 2x1 */
/* ompc-env: OMPC_TASK_STEAL=0 */
/* ompc-exit: 1 */
/* ompc-output: not supported: omp_fulfill_event on rank 1 of an event that a detach clause made on rank 0, with OMPC_TASK_STEAL=0; set OMPC_TASK_STEAL=1 */
/* ompc-timeout: 60 */
#include "../ompcluster.tasks/fulfill-elsewhere.h"
