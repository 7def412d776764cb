/* transport-int.h -- what the files of transport/ share and nothing above
   the transport uses.  */

#ifndef OMPC_TRANSPORT_INT_H
#define OMPC_TRANSPORT_INT_H 1

#include "transport.h"

/* cpu.c: counts the processors this process may use and opens
   /proc/loadavg for gomp_cl_processor_free; once, before the service
   thread starts.  */
extern void gomp_cl_processor_free_init (void)
  __attribute__ ((visibility ("hidden")));

/* mpi.c: the passes.  */

/* The queue of items to send, a lock-free LIFO that the next pass drains
   (the service thread looks whether it is empty).  */
extern struct gomp_cl_pending *gomp_cl_queue_head
  __attribute__ ((visibility ("hidden")));
/* Says WHAT failed (and MPI's error string for ERR when not 0), naming the
   rank, and ends the job.  */
extern void gomp_cl_transport_fatal (const char *what, int err)
  __attribute__ ((visibility ("hidden")));
/* Pushes W on the queue and tells the service thread
   (gomp_cl_service_pushed).  Signal-safe.  */
extern void gomp_cl_push (struct gomp_cl_pending *w)
  __attribute__ ((visibility ("hidden")));
/* The progress lock: one thread at a time runs a pass.  */
extern bool gomp_cl_progress_trylock (void)
  __attribute__ ((visibility ("hidden")));
extern void gomp_cl_progress_unlock (void)
  __attribute__ ((visibility ("hidden")));
/* One pass, with the progress lock: a full one, or (FULL false) one that
   receives only replies and the requests of quick handlers.  Returns
   whether it moved a message.  */
extern int gomp_cl_pass (bool full)
  __attribute__ ((visibility ("hidden")));
/* Whether items are queued or sends are in flight.  */
extern bool gomp_cl_sends_pending (void)
  __attribute__ ((visibility ("hidden")));
/* Whether messages wait for a full pass to run their handlers again.  */
extern bool gomp_cl_deferred_pending (void)
  __attribute__ ((visibility ("hidden")));

/* call.c: tells W's caller that its reply is in (a pass, with the
   progress lock).  */
extern void gomp_cl_complete (struct gomp_cl_pending *w)
  __attribute__ ((visibility ("hidden")));

/* service.c: the service thread and the waiters that run passes.  */

/* Starts the service thread (gomp_cl_transport_init) and stops it once
   no node sends requests any more (gomp_cl_transport_fini).  */
extern void gomp_cl_service_start (void)
  __attribute__ ((visibility ("hidden")));
extern void gomp_cl_service_stop (void)
  __attribute__ ((visibility ("hidden")));
/* Whether it was told to stop: no call may start any more.  */
extern bool gomp_cl_service_stopped (void)
  __attribute__ ((visibility ("hidden")));
/* Whether the caller is the service thread.  */
extern bool gomp_cl_service_self (void)
  __attribute__ ((visibility ("hidden")));
/* Its processor time (ns), 0 when it does not run.  */
extern uint64_t gomp_cl_service_cpu_ns (void)
  __attribute__ ((visibility ("hidden")));
/* Wakes the service thread if it sleeps (in any state); signal-safe.  */
extern void gomp_cl_kick (void)
  __attribute__ ((visibility ("hidden")));
/* An item was pushed on the queue: wakes the service thread if it sleeps
   waiting for pushes (not while waiters run the passes: they send it).
   Signal-safe.  */
extern void gomp_cl_service_pushed (void)
  __attribute__ ((visibility ("hidden")));
/* For a reply-only pass that leaves a request: whether the service thread
   must be asked to serve it (no waiter of gomp_cl_wait runs full passes,
   and it was not asked yet).  */
extern bool gomp_cl_service_needed (void)
  __attribute__ ((visibility ("hidden")));
/* Asks the service thread to run a full pass, and wakes it.  */
extern void gomp_cl_service_want (void)
  __attribute__ ((visibility ("hidden")));
/* A waiting thread counts itself among the pollers of its kind (FULL:
   it runs full passes) while it polls, and runs one pass at a time if no
   other thread runs one; gomp_cl_waiter_pass returns -1 when it ran none
   (another thread runs one, or the transport does not run), else whether
   the pass moved a message.  */
extern void gomp_cl_waiter_enter (bool full)
  __attribute__ ((visibility ("hidden")));
extern void gomp_cl_waiter_leave (bool full)
  __attribute__ ((visibility ("hidden")));
extern int gomp_cl_waiter_pass (bool full)
  __attribute__ ((visibility ("hidden")));

/* stats.c: the counters gomp_cl_get_stats reads, each added to with
   relaxed atomics by the file that does the work.  */
struct gomp_cl_counters
{
  /* mpi.c: messages and bytes sent and received.  */
  uint64_t msgs_sent, bytes_sent, msgs_recv, bytes_recv;
  /* service.c: the service thread's polls while spinning and its
     sleeps.  */
  uint64_t svc_spins, svc_sleeps;
  /* call.c: calls this node made and the time their callers waited
     (ns), in all and per tag.  */
  uint64_t calls, call_ns;
  uint64_t tag_calls[GOMP_CL_TAG_MAX], tag_call_ns[GOMP_CL_TAG_MAX];
  /* mpi.c: requests served by the service thread and by waiters'
     passes.  */
  uint64_t served_svc, served_waiter;
};
extern struct gomp_cl_counters gomp_cl_counters
  __attribute__ ((visibility ("hidden")));

#endif /* OMPC_TRANSPORT_INT_H */
