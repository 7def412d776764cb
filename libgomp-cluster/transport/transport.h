/* transport.h -- messages between nodes, the lowest layer of the cluster
   module: the DSM (dsm/) and the cluster module (cluster/) talk to other
   nodes only through it.  The interface has no MPI type; MPI is its
   backend (mpi.c, call.c, service.c, stats.c, abort.c), served by one
   service thread per node; loopback/ is another, for one node in one
   process (the DSM's unit test without MPI), not linked into the module.
   The other files of this folder need no MPI: the message writer
   (say.c), the back-off of waiting threads (backoff.c) and what the
   transport asks of the machine (cpu.c).

   Every message a node receives is taken by its service thread and handed
   to the handler registered for its tag.  Handlers run one at a time, on
   the service thread or on a thread of the node that waits in
   gomp_cl_wait and serves meanwhile; they must not block, and may reply
   at once or later (a lock's home replies when the lock is free).  A
   thread waiting in gomp_cl_call (the fault handler too) drives MPI itself
   while it waits, receiving replies and the requests of handlers
   registered with gomp_cl_register_quick only (call.c says why that is
   safe in signal context).  Waits back off
   (spin briefly, then sleep with growing periods) so that oversubscribed
   ranks do not starve each other.  */

#ifndef OMPC_TRANSPORT_H
#define OMPC_TRANSPORT_H 1

#include <pthread.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <time.h>

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
  GOMP_CL_TAG_CONTROL,		/* cluster: a rank asks rank 0 to end the job.  */
  GOMP_CL_TAG_HEAP,		/* dsm: free / size of another node's block.  */
  GOMP_CL_TAG_CANCEL,		/* cluster: a region cancelled on a node.  */
  GOMP_CL_TAG_PULL,		/* cluster: write notices for a flush.  */
  GOMP_CL_TAG_HANDOFF,		/* dsm: a block from its old home.  */
  GOMP_CL_TAG_STEAL,		/* cluster: a thief asks for tasks.  */
  GOMP_CL_TAG_STEAL_DONE,	/* cluster: a stolen task completed.  */
  GOMP_CL_TAG_STEAL_NOTE,	/* cluster: a node has tasks to give.  */
  GOMP_CL_TAG_FULFILL,		/* cluster: omp_fulfill_event of a node's
				   event, from another.  */
  GOMP_CL_TAG_OUTPUT,		/* cluster: a rank's standard output.  */
  GOMP_CL_TAG_MAX = 32
};

typedef void (*gomp_cl_handler) (int src, const void *msg, size_t len,
				 uint64_t token);

/* Starts the service thread, on a communicator of its own (MPI_Init
   done).  */
extern void gomp_cl_transport_init (void)
  __attribute__ ((visibility ("hidden")));
/* Stops it; every node calls it at the same point of the shutdown.  */
extern void gomp_cl_transport_fini (void)
  __attribute__ ((visibility ("hidden")));
/* Registers H for TAG; before gomp_cl_transport_init.  */
extern void gomp_cl_register (int tag, gomp_cl_handler h)
  __attribute__ ((visibility ("hidden")));
/* The same for a handler that may also run in a thread waiting in
   gomp_cl_call, in signal context included: it must be signal-safe as
   the fault handler is (dsm-int.h: block trylocks, atomics, mprotect,
   memcpy, malloc and gomp_cl_reply, gomp_cl_defer) and take no lock at
   all, since the waiter may hold any.  */
extern void gomp_cl_register_quick (int tag, gomp_cl_handler h)
  __attribute__ ((visibility ("hidden")));
/* Sends a request and waits until DEST's handler replies; returns the
   reply's length (at most REPLY_MAX bytes are copied).  The caller polls
   MPI for the reply itself for a while (reply-only passes, which run
   only gomp_cl_register_quick's handlers),
   then sleeps until the service thread completes it.  Usable in the DSM's
   fault handler (call.c: what runs there and why it is safe), never
   from a handler.  */
extern size_t gomp_cl_call (int dest, int tag, const void *req, size_t len,
			    void *reply, size_t reply_max)
  __attribute__ ((visibility ("hidden")));
/* The asynchronous form of gomp_cl_call, for several requests in flight
   (the DSM's release sends a batch of diffs to every home at once): W and
   REQ must stay valid until gomp_cl_call_wait (W) returns.  Both are
   usable in the fault handler.  The fields are the transport's.  */
struct gomp_cl_pending
{
  struct gomp_cl_pending *next;	/* The service thread's queue.  */
  const void *req;
  size_t req_len;
  int dest, tag;
  uint32_t done;		/* Futex word: 1 once the reply is in, 2
				   while the caller sleeps on it.  */
  size_t len;			/* The reply's full length.  */
  void *reply;
  size_t reply_max;
  const struct gomp_cl_iov *iov;	/* gomp_cl_call_async_iov's.  */
  int niov, pieces_left;
  void *tail;			/* Where the bytes of an ordinary reply
				   past REPLY_MAX go (at most TAIL_MAX;
				   NULL: dropped; see
				   gomp_cl_call_async_tail).  */
  size_t tail_max;
};
extern void gomp_cl_call_async (int dest, int tag, const void *req,
				size_t len, void *reply, size_t reply_max,
				struct gomp_cl_pending *w)
  __attribute__ ((visibility ("hidden")));
/* gomp_cl_call_async where the reply's bytes past REPLY_MAX (at most
   TAIL_MAX of them) go to TAIL.  */
extern void gomp_cl_call_async_tail (int dest, int tag, const void *req,
				     size_t len, void *reply,
				     size_t reply_max, void *tail,
				     size_t tail_max,
				     struct gomp_cl_pending *w)
  __attribute__ ((visibility ("hidden")));
/* A piece of memory a reply is received into or sent from.  */
struct gomp_cl_iov
{
  void *base;
  size_t len;
};
/* gomp_cl_call_async whose reply MPI receives straight into the pieces
   IOV[0..NIOV) (receives posted before the request leaves, on a
   communicator of their own, with a tag of this call's), not through a
   buffer of the transport: large replies (the DSM's prefetches) are not
   copied again.  The reply has one message per piece (gomp_cl_reply_iov
   with as many pieces), each at most as long as its piece; the length
   returned is their sum.  IOV must stay valid until gomp_cl_call_wait
   (W) returns.  */
extern void gomp_cl_call_async_iov (int dest, int tag, const void *req,
				    size_t len, const struct gomp_cl_iov *iov,
				    int niov, struct gomp_cl_pending *w)
  __attribute__ ((visibility ("hidden")));
extern size_t gomp_cl_call_wait (struct gomp_cl_pending *w)
  __attribute__ ((visibility ("hidden")));
/* The same, for callers outside signal context that hold no lock a
   handler may wait for (as gomp_cl_progress's): while the caller polls,
   its passes serve other nodes' requests too, so that two nodes asking
   each other at once (the prefetches of a barrier's acquire) answer
   without waking their service threads.  */
extern size_t gomp_cl_call_serving (int dest, int tag, const void *req,
				    size_t len, void *reply,
				    size_t reply_max)
  __attribute__ ((visibility ("hidden")));
extern size_t gomp_cl_call_wait_serving (struct gomp_cl_pending *w)
  __attribute__ ((visibility ("hidden")));
/* The time the calling thread has waited so far for the answers of its
   calls (ns).  */
extern uint64_t gomp_cl_thread_wait_ns (void)
  __attribute__ ((visibility ("hidden")));
/* From a handler: do not consume this message now, deliver it again later
   (the DSM defers a request for a page that a local thread is busy with).  */
extern void gomp_cl_defer (void) __attribute__ ((visibility ("hidden")));
/* True on the thread that runs the current pass of the progress loop
   (the service thread, or a waiting thread that took the pass over), that
   is while it holds the progress lock: handlers run there, and a call to
   another node from there could never be answered.  */
extern int gomp_cl_in_progress_pass (void)
  __attribute__ ((visibility ("hidden")));

/* For threads that wait for MPI anyway (gomp_cl_wait): runs one full pass
   of the service loop (sends what is queued, receives, runs handlers) if
   no other thread runs one; true if it moved a message.  Only from code
   that holds no lock a handler may take.  Between gomp_cl_poller_enter
   and gomp_cl_poller_leave the caller promises to call it often (it
   spins), and the service thread sleeps.  */
extern bool gomp_cl_progress (void) __attribute__ ((visibility ("hidden")));
extern void gomp_cl_poller_enter (void)
  __attribute__ ((visibility ("hidden")));
extern void gomp_cl_poller_leave (void)
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

/* The same, with the pieces IOV[0..NIOV): one message per piece for a
   call of gomp_cl_call_async_iov (with as many pieces), which MPI reads
   until the send completes, without a copy when the caller holds the
   progress lock (a handler): the memory must stay mapped (the DSM's
   writable views), and what is written there meanwhile may or may not
   travel; otherwise the pieces one after the other in one message.  With
   FREE_FIRST, the first piece is malloc'ed memory, freed once it is no
   longer needed.  */
extern void gomp_cl_reply_iov (int src, uint64_t token,
			       const struct gomp_cl_iov *iov, int niov,
			       bool free_first)
  __attribute__ ((visibility ("hidden")));
/* The same, where OWNED[I] (I < NOWNED), when not NULL, is malloc'ed
   memory freed once piece I no longer needs it (a piece copied for the
   reply, e.g. a home's twin of a block).  */
extern void gomp_cl_reply_iov_owned (int src, uint64_t token,
				     const struct gomp_cl_iov *iov, int niov,
				     void *const *owned, int nowned)
  __attribute__ ((visibility ("hidden")));

/* Messages and bytes this node sent and received (OMPC_STATS).  */
struct gomp_cl_stats
{
  uint64_t msgs_sent, bytes_sent, msgs_recv, bytes_recv;
  /* The service thread's polls while spinning, its sleeps, its processor
     time and the whole process's (ns).  */
  uint64_t svc_spins, svc_sleeps, svc_cpu_ns, cpu_ns;
  /* Calls (gomp_cl_call and its async form) and the time their callers
     waited for the answers (ns), in all and per tag (gomp_cl_tag_name
     names them).  */
  uint64_t calls, call_ns;
  uint64_t tag_calls[GOMP_CL_TAG_MAX], tag_call_ns[GOMP_CL_TAG_MAX];
  /* Requests from other nodes handled by the service thread and by
     threads that were waiting anyway.  */
  uint64_t served_svc, served_waiter;
};
extern void gomp_cl_get_stats (struct gomp_cl_stats *s)
  __attribute__ ((visibility ("hidden")));
/* What a call with tag TAG asks for, in one word (OMPC_STATS's calls
   by kind); NULL for a tag no call uses.  */
extern const char *gomp_cl_tag_name (int tag)
  __attribute__ ((visibility ("hidden")));

/* Whether the machine has a processor that no thread wants now: its
   runnable threads (the caller included, as the kernel counts them in
   /proc/loadavg) are no more than the processors this process may use.
   Read again at most every 50 us.  The service thread polls past its
   short window only then: on a busy machine it would take the processor
   of a thread that computes.  Thread-safe.  */
extern bool gomp_cl_processor_free (void)
  __attribute__ ((visibility ("hidden")));

/* cpu.c: sets the stack size of ATTR for one of the module's own threads
   (service, heartbeat, watchdog): WANT bytes for its frames plus the
   static thread-local storage glibc puts on every thread's stack (the
   program's threadprivate data may be large).  */
extern void gomp_cl_thread_stack (pthread_attr_t *attr, size_t want)
  __attribute__ ((visibility ("hidden")));

/* say.c: writes the message FMT formats to stderr in one write(2),
   so that the lines of several threads and ranks do not mix; cut at
   2 KiB (and then still ending its line).  Async-signal-safe (no stdio,
   no malloc, no lock: it formats by itself): the module's and the DSM's
   messages from fault and crash handlers, fatal errors and the end of
   the job go through it.  It knows %d, %i, %u, %x (with l, ll or z),
   %p, %s, %c and %%, without flags, width or precision; anything else is
   written as it stands.  */
extern void gomp_cl_say (const char *fmt, ...)
  __attribute__ ((format (printf, 1, 2), visibility ("hidden")));
/* pmi.c: under Slurm's process manager, asks it to end the job and
   leaves with STATUS; returns elsewhere, for MPI_Abort.  */
extern void gomp_cl_pmi_abort (int status)
  __attribute__ ((visibility ("hidden")));
/* abort.c: ends the whole job with STATUS (MPI_Abort), after a
   moment for the launcher to forward what this rank just wrote; the one
   way the module and the DSM abort.  GOMP_CL_ABORT_HOOK, when set (by
   the cluster layer), runs first: it must be async-signal-safe.  */
extern void gomp_cl_abort_job (int status)
  __attribute__ ((noreturn, visibility ("hidden")));
extern void (*gomp_cl_abort_hook) (void)
  __attribute__ ((visibility ("hidden")));

/* backoff.c: a waiter's back-off between polls.  Spins (pause for
   100 us, then yielding between polls) for about 2 ms after the wait
   starts (50 us when the ranks on this machine oversubscribe it), then
   sleeps with periods doubling from 1 us to 100 us (up to 2 ms once the
   wait has lasted 50 ms), with the thread's timer slack at 1 ns so that
   short sleeps stay short.  */
struct gomp_cl_backoff
{
  struct timespec start;
  unsigned long polls;
  long sleep_ns;
  bool idle;
};
extern void gomp_cl_backoff_init (struct gomp_cl_backoff *b)
  __attribute__ ((visibility ("hidden")));
extern void gomp_cl_backoff_pause (struct gomp_cl_backoff *b)
  __attribute__ ((visibility ("hidden")));
/* The ranks on this machine oversubscribe its processors: spin briefly
   and yield at once.  Before any wait.  */
extern void gomp_cl_backoff_oversubscribed (void)
  __attribute__ ((visibility ("hidden")));

/* CLOCK_MONOTONIC in nanoseconds (the transport's and the heartbeat's
   timing).  */
static inline long
gomp_cl_now_ns (void)
{
  struct timespec ts;
  clock_gettime (CLOCK_MONOTONIC, &ts);
  return ts.tv_sec * 1000000000L + ts.tv_nsec;
}

/* A wait checked again and again (a deferred request's retries): adds
   the time since the last check, *LAST_NS, to *WAITED_NS and returns
   it.  A gap counts for at most a second, so that a job stopped
   meanwhile (SIGSTOP, a suspended Slurm job) does not count the stop.  */
static inline long
gomp_cl_waited_ns (long *last_ns, long *waited_ns)
{
  long now = gomp_cl_now_ns (), step = now - *last_ns;
  *last_ns = now;
  *waited_ns += step < 1000000000L ? step : 1000000000L;
  return *waited_ns;
}

#endif
