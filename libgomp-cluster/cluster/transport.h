/* transport.h -- messages between nodes, carried by MPI and served by one
   service thread per node (the thesis's server thread).

   Every message a node receives is taken by its service thread and handed
   to the handler registered for its tag.  Handlers run on the service
   thread, must not block, and may reply at once or later (a lock's home
   replies when the lock is free).  The fault handler never calls MPI: it
   uses gomp_cl_call, whose send is done by the service thread while the
   faulting thread sleeps on a futex.  Waits back off (spin briefly, then
   sleep with growing periods) so that oversubscribed ranks do not starve
   each other.  Owned by the DSM's authors (dsm/ uses it most).  */

#ifndef OMPC_CLUSTER_TRANSPORT_H
#define OMPC_CLUSTER_TRANSPORT_H 1

#include <mpi.h>
#include <stddef.h>
#include <stdint.h>

/* Tags: one per kind of request.  */
enum gomp_cl_tag
{
  GOMP_CL_TAG_PAGE_GET = 1,	/* dsm: fetch a page from its home.  */
  GOMP_CL_TAG_DIFF,		/* dsm: apply diffs at the home.  */
  GOMP_CL_TAG_HOME,		/* dsm: first-touch home assignment.  */
  GOMP_CL_TAG_ATOMIC,		/* dsm: an atomic executed at the home.  */
  GOMP_CL_TAG_LOCK,		/* cluster: lock acquire at the lock's home.  */
  GOMP_CL_TAG_UNLOCK,		/* cluster: lock release.  */
  GOMP_CL_TAG_LOOP,		/* cluster: next chunk of a dynamic loop.  */
  GOMP_CL_TAG_CONTROL,		/* cluster: shutdown and errors.  */
  GOMP_CL_TAG_HEAP,		/* dsm: free / size of another node's block.  */
  GOMP_CL_TAG_MAX = 32
};

typedef void (*gomp_cl_handler) (int src, const void *msg, size_t len,
				 uint64_t token);

/* Starts the service thread on COMM (a dup of MPI_COMM_WORLD).  */
extern void gomp_cl_transport_init (MPI_Comm comm)
  __attribute__ ((visibility ("hidden")));
/* Stops it; every node calls it at the same point of the shutdown.  */
extern void gomp_cl_transport_fini (void)
  __attribute__ ((visibility ("hidden")));
/* Registers H for TAG; before gomp_cl_transport_init.  */
extern void gomp_cl_register (int tag, gomp_cl_handler h)
  __attribute__ ((visibility ("hidden")));
/* Sends a request and sleeps until DEST's handler replies; returns the
   reply's length (at most REPLY_MAX bytes are copied).  Safe in the DSM's
   fault handler (async-signal-safe: no MPI, no locks, no malloc).  */
extern size_t gomp_cl_call (int dest, int tag, const void *req, size_t len,
			    void *reply, size_t reply_max)
  __attribute__ ((visibility ("hidden")));
/* The asynchronous form of gomp_cl_call, for several requests in flight
   (the DSM's release sends a batch of diffs to every home at once): W and
   REQ must stay valid until gomp_cl_call_wait (W) returns.  Both are
   async-signal-safe.  The fields are the transport's.  */
struct gomp_cl_pending
{
  struct gomp_cl_pending *next;	/* The service thread's queue.  */
  const void *req;
  size_t req_len;
  int dest, tag;
  uint32_t done;		/* Futex word: 1 once the reply is in.  */
  size_t len;			/* The reply's full length.  */
  void *reply;
  size_t reply_max;
};
extern void gomp_cl_call_async (int dest, int tag, const void *req,
				size_t len, void *reply, size_t reply_max,
				struct gomp_cl_pending *w)
  __attribute__ ((visibility ("hidden")));
extern size_t gomp_cl_call_wait (struct gomp_cl_pending *w)
  __attribute__ ((visibility ("hidden")));
/* From a handler: do not consume this message now, deliver it again later
   (the DSM defers a request for a page that a local thread is busy with).  */
extern void gomp_cl_defer (void) __attribute__ ((visibility ("hidden")));
/* True on the service thread.  */
extern int gomp_cl_on_service_thread (void)
  __attribute__ ((visibility ("hidden")));

/* Sends a message that needs no reply (from any thread, not signal
   context).  */
extern void gomp_cl_send (int dest, int tag, const void *msg, size_t len)
  __attribute__ ((visibility ("hidden")));
/* From a handler (or later, from any thread but signal context): answers
   the gomp_cl_call identified by SRC and TOKEN.  */
extern void gomp_cl_reply (int src, uint64_t token, const void *msg,
			   size_t len)
  __attribute__ ((visibility ("hidden")));

/* Messages and bytes this node sent and received (OMPC_STATS).  */
struct gomp_cl_stats
{
  uint64_t msgs_sent, bytes_sent, msgs_recv, bytes_recv;
};
extern void gomp_cl_get_stats (struct gomp_cl_stats *s)
  __attribute__ ((visibility ("hidden")));

/* The communicator every part of the module uses.  */
extern MPI_Comm gomp_cl_comm __attribute__ ((visibility ("hidden")));

#endif
