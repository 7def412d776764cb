/* call.c -- requests that wait for a reply: gomp_cl_call and its
   asynchronous forms.  A call is queued for the next pass of mpi.c, its
   caller runs passes itself while the answer is on its way, then sleeps
   until a pass completes the call (gomp_cl_complete).

   Waiting threads (gomp_cl_call's here, gomp_cl_wait's in cluster/wait.c)
   keep polling for up to 2 ms (a round trip is fastest when both sides
   poll); gomp_cl_call_serving's waiters run full passes: two nodes that
   ask each other at once (the prefetches of a barrier's acquire) then
   serve each other without waking a service thread.

   Signal context: the DSM's fault handler calls gomp_cl_call, which runs
   passes of the reply-only kind: MPI_Isend, MPI_Iprobe, MPI_Recv, MPI_Test,
   malloc and free, atomics and the futex system call.  That is safe there
   because a fault that needs a message never happens inside MPI or inside
   libc's allocator: neither touches the shared segment (the DSM never
   hands MPI an application-view address, INTERNALS.md), and the faulting
   code holds no lock of the transport (a thread that faults while it runs
   a pass is a fatal error, not a deadlock).  Only quick handlers run
   there (gomp_cl_register_quick: signal-safe, no lock at all); any other
   may take a lock the interrupted code holds (the heap's).  */

#include "transport-int.h"
#include "config/linux/futex.h"
#include <limits.h>
#include <sched.h>
#include <stdbool.h>
#include <stdlib.h>

/* A gomp_cl_call wait runs passes for this long (a round trip is
   microseconds, far more when the cores are oversubscribed), then sleeps
   until the service thread completes it.  Between passes it pauses for
   CALL_PAUSE_NS, then yields.  It does not sleep between passes on a busy
   machine as the service thread does: measured at 2 x 1 under chrt -f
   on a loaded machine, napping waiters made a remote read fault 9.5-11
   us instead of 6.3-6.8.  */
#define CALL_SPIN_NS 2000000L
#define CALL_PAUSE_NS 100000L

/* States of gomp_cl_pending.done (a futex word).  */
#define CALL_PENDING 0
#define CALL_DONE 1
#define CALL_SLEEPING 2		/* The caller sleeps on the word.  */


static void
cl_call_prepare (int dest, int tag, const void *req, size_t len,
		 void *reply, size_t reply_max, struct gomp_cl_pending *w)
{
  if (gomp_cl_service_stopped ())
    {
      /* Nobody would ever answer: say so rather than hang.  */
      gomp_cl_say ("ompcluster: internal error: a request to another node "
		   "after the transport stopped\n");
      abort ();
    }
  if (gomp_cl_in_progress_pass ())
    {
      /* A fault inside a pass (inside MPI): nobody could serve it.  */
      gomp_cl_say ("ompcluster: internal error: a request to another node "
		   "from inside the transport (a fault on shared memory "
		   "inside MPI?)\n");
      abort ();
    }
  w->req = req;
  w->req_len = len;
  w->dest = dest;
  w->tag = tag;
  w->done = CALL_PENDING;
  w->len = 0;
  w->reply = reply;
  w->reply_max = reply_max;
  w->iov = NULL;
  w->niov = 0;
  w->tail = NULL;
  w->tail_max = 0;
}

void
gomp_cl_call_async_tail (int dest, int tag, const void *req, size_t len,
			 void *reply, size_t reply_max, void *tail,
			 size_t tail_max, struct gomp_cl_pending *w)
{
  cl_call_prepare (dest, tag, req, len, reply, reply_max, w);
  w->tail = tail;
  w->tail_max = tail_max;
  gomp_cl_push (w);
}

void
gomp_cl_call_async (int dest, int tag, const void *req, size_t len,
		    void *reply, size_t reply_max, struct gomp_cl_pending *w)
{
  cl_call_prepare (dest, tag, req, len, reply, reply_max, w);
  gomp_cl_push (w);
}

void
gomp_cl_call_async_iov (int dest, int tag, const void *req, size_t len,
			const struct gomp_cl_iov *iov, int niov,
			struct gomp_cl_pending *w)
{
  cl_call_prepare (dest, tag, req, len, NULL, 0, w);
  /* MPI counts a message's bytes in an int.  */
  for (int i = 0; i < niov; i++)
    if (iov[i].len > INT_MAX)
      gomp_cl_transport_fatal ("a piece of a reply larger than 2 GiB", 0);
  if (niov <= 0)
    gomp_cl_transport_fatal ("a direct reply without pieces", 0);
  w->iov = iov;
  w->niov = niov;
  gomp_cl_push (w);
}

void
gomp_cl_complete (struct gomp_cl_pending *w)
{
  /* W may be gone as soon as the caller sees CALL_DONE: only the futex
     word is touched after that.  */
  if (__atomic_exchange_n (&w->done, CALL_DONE, __ATOMIC_ACQ_REL)
      == CALL_SLEEPING)
    gomp_futex_wake (&w->done, INT_MAX);
}

static __thread uint64_t thread_wait_ns;

uint64_t
gomp_cl_thread_wait_ns (void)
{
  return thread_wait_ns;
}

/* Waits for W.  FULL: the caller may run handlers (gomp_cl_call_serving),
   so its passes serve other nodes' requests too, as gomp_cl_wait's.  */
static size_t
cl_call_wait (struct gomp_cl_pending *w, bool full)
{
  /* Run the node's passes while the answer is on its way: nobody needs
     waking to send the request or to hand over the reply.  */
  long start = gomp_cl_now_ns ();
  unsigned polls = 0;
  bool yielding = false;
  gomp_cl_waiter_enter (full);
  while (__atomic_load_n (&w->done, __ATOMIC_ACQUIRE) == CALL_PENDING)
    {
      if (gomp_cl_waiter_pass (full) >= 0
	  && __atomic_load_n (&w->done, __ATOMIC_ACQUIRE) != CALL_PENDING)
	break;
      if (++polls % 64 == 0)
	{
	  /* As backoff.c's spinning: pause first, then yield.  */
	  long t = gomp_cl_now_ns () - start;
	  if (t > CALL_SPIN_NS)
	    break;
	  yielding = t > CALL_PAUSE_NS;
	}
      if (yielding)
	sched_yield ();
      else
	__builtin_ia32_pause ();
    }
  gomp_cl_waiter_leave (full);
  uint32_t v = CALL_PENDING;
  if (__atomic_load_n (&w->done, __ATOMIC_ACQUIRE) == CALL_PENDING
      && __atomic_compare_exchange_n (&w->done, &v, CALL_SLEEPING, false,
				      __ATOMIC_ACQ_REL, __ATOMIC_ACQUIRE))
    {
      /* The service thread takes over.  */
      gomp_cl_kick ();
      while (__atomic_load_n (&w->done, __ATOMIC_ACQUIRE) != CALL_DONE)
	gomp_futex_wait (&w->done, CALL_SLEEPING);
    }
  long waited = gomp_cl_now_ns () - start;
  thread_wait_ns += waited;
  __atomic_add_fetch (&gomp_cl_counters.calls, 1, __ATOMIC_RELAXED);
  __atomic_add_fetch (&gomp_cl_counters.call_ns, waited, __ATOMIC_RELAXED);
  if (w->tag > 0 && w->tag < GOMP_CL_TAG_MAX)
    {
      __atomic_add_fetch (&gomp_cl_counters.tag_calls[w->tag], 1,
			  __ATOMIC_RELAXED);
      __atomic_add_fetch (&gomp_cl_counters.tag_call_ns[w->tag], waited,
			  __ATOMIC_RELAXED);
    }
  return w->len;
}

size_t
gomp_cl_call_wait (struct gomp_cl_pending *w)
{
  return cl_call_wait (w, false);
}

size_t
gomp_cl_call_wait_serving (struct gomp_cl_pending *w)
{
  return cl_call_wait (w, true);
}

static size_t
cl_call (int dest, int tag, const void *req, size_t len, void *reply,
	 size_t reply_max, bool full)
{
  struct gomp_cl_pending w;
  cl_call_prepare (dest, tag, req, len, reply, reply_max, &w);
  /* No wake-up: this thread sends it in its first pass.  */
  struct gomp_cl_pending *old = __atomic_load_n (&gomp_cl_queue_head,
						 __ATOMIC_RELAXED);
  do
    w.next = old;
  while (!__atomic_compare_exchange_n (&gomp_cl_queue_head, &old, &w, true,
				       __ATOMIC_RELEASE, __ATOMIC_RELAXED));
  return cl_call_wait (&w, full);
}

size_t
gomp_cl_call (int dest, int tag, const void *req, size_t len, void *reply,
	      size_t reply_max)
{
  return cl_call (dest, tag, req, len, reply, reply_max, false);
}

size_t
gomp_cl_call_serving (int dest, int tag, const void *req, size_t len,
		      void *reply, size_t reply_max)
{
  return cl_call (dest, tag, req, len, reply, reply_max, true);
}
