/* cancel.c -- cancelling a top-level region that spans the nodes (OpenMP
   5.1 section 2.20.1): the node whose thread cancels it sends one message
   to every other node, whose handler hands it to the runtime
   (host->cancel), which marks the node's part of the team cancelled and
   wakes its waiting threads; they see it at their next cancellation point
   or barrier.  The barriers of a cancelled region stay consistent through
   the flags of barrier.c's exchange (the runtime's cancel.c says how).
   The message names the region by the runtime's count of spanning
   regions, so that one that arrives late, after the region, or early,
   before this node started it, is handled by the runtime.  */

#include "cluster-int.h"
#include <string.h>

struct gomp_cl_cancel_msg
{
  uint64_t region;
  uint32_t what;
  uint32_t pad;
};

static void
gomp_cl_cancel_handler (int src, const void *msg, size_t len,
			uint64_t token)
{
  struct gomp_cl_cancel_msg m;

  (void) token;
  if (len != sizeof m)
    gomp_cl_fatal ("a cancellation of %zu bytes came from rank %d", len,
		   src);
  memcpy (&m, msg, sizeof m);
  gomp_cl_host->cancel (m.region, m.what);
}

void
gomp_cl_cancel_init (void)
{
  gomp_cl_register (GOMP_CL_TAG_CANCEL, gomp_cl_cancel_handler);
}

void
gomp_cl_cancel (uint64_t region, unsigned what)
{
  struct gomp_cl_cancel_msg m = { region, what, 0 };

  for (int r = 0; r < gomp_cl_nodes; r++)
    if (r != gomp_cl_rank)
      {
	gomp_cl_send (r, GOMP_CL_TAG_CANCEL, &m, sizeof m);
	gomp_cl_count_msg (sizeof m);
      }
}
