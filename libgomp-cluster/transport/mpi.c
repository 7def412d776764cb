/* mpi.c -- the MPI backend of the transport (transport.h): messages
   between nodes; one service thread per node, helped by the node's
   waiting threads, owns every MPI point-to-point call of the module.

   Other threads push what they send on a lock-free queue.  A "pass" sends
   the queued items with MPI_Isend, receives with MPI_Iprobe + MPI_Recv,
   hands requests to the handler registered for their tag, completes
   gomp_cl_call waits when replies come back and completes finished sends.
   One thread at a time runs a pass (the progress lock): the service
   thread, or a thread that waits for MPI anyway -- a barrier or a region
   dispatch in gomp_cl_wait (cluster/wait.c) runs full passes, a
   gomp_cl_call wait runs passes that receive only replies and the
   requests of the handlers registered with gomp_cl_register_quick (the
   DSM's first-touch home requests).  So while some thread of the node
   is waiting, that thread is the node's MPI progress and the service
   thread sleeps: one thread polls MPI instead of two fighting for MPICH's
   lock and for the processors, and the reply to a fault needs no thread
   to wake up (measured on this project's machines: a remote fault whose
   handler drove MPI itself took 8-12 us, with a woken service thread
   13-21 us).

   Message layout: the MPI tag is the gomp_cl_tag (or TAG_REPLY), the data
   starts with a 64-bit token (the caller's struct gomp_cl_pending for a call,
   0 for a plain send) followed by the payload.

   Direct replies (gomp_cl_call_async_iov): the caller's pass posts one
   MPI_Irecv per piece of the caller's memory on direct_comm, with a tag
   of the call's, before it sends the request, whose token is then
   DIRECT_TOKEN and that tag; the home answers on that communicator and
   tag with one message per piece, in order (MPI matches them in order),
   sent from the handler's memory when it can (gomp_cl_reply_iov), and
   passes complete the receives with MPI_Test.  Nothing probes
   direct_comm, so the answers always meet the posted receives.  One
   message per piece, not a derived datatype: UCX moves a contiguous
   rendezvous with one process_vm_readv by the receiver, a non-contiguous
   one in fragments that the sender must pack while it polls (a 2 MiB
   prefetch reply at 2 x 1 took 0.6 ms with a datatype, 0.17-0.3 ms
   so); copying it into a malloc'ed reply at the home, receiving it into
   a buffer of the transport and copying it into the blocks took ~1 ms
   in all.

   The service thread.  While a thread of the node runs passes it sleeps,
   looking again every HELPED_SLEEP_NS (a waiter of gomp_cl_call that sees
   a request wakes it, since that waiter runs no handlers; a waiter that
   stops polling is noticed within HELPED_STALE_NS).  Otherwise it polls,
   yielding between polls, for SPIN_BUSY_NS after the node's last activity
   (its own or a waiter's pass that moved a message: requests come in
   bursts, e.g. the other nodes' fetches after a barrier), and on for
   SPIN_NS while the machine has a processor nobody else wants
   (gomp_cl_processor_free).  No longer: beside computing threads a
   polling thread takes their processor, yield or not (the kernel credits
   a thread back from sleep with the time it slept; profiled at 2 nodes x
   1 thread on 2 cores, a service thread that polled 2 ms after every
   activity had a third of each rank's samples in Jacobi).  Then it sleeps
   on a futex with a timeout half the time since the last activity, up to
   1 ms (2 ms after 50 ms idle): each wake-up costs a context switch both
   ways, ~20 us of processor on this project's virtual machines (a 1 us
   futex sleep measured 22 us of the thread's processor time), so sleeps
   are few; a local request wakes it at once, and MPI is still polled.
   The timer slack of the thread is 1 ns.

   Waiting threads (gomp_cl_call's here, gomp_cl_wait's in cluster/wait.c) keep
   polling for up to 2 ms (a round trip is fastest when both sides poll);
   gomp_cl_call_serving's waiters run full passes: two nodes that ask
   each other at once (the prefetches of a barrier's acquire) then serve
   each other without waking a service thread.

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

#define _GNU_SOURCE 1
#include "transport-int.h"
#include <mpi.h>
#include <errno.h>
#include <malloc.h>
#include <stdbool.h>
#include <limits.h>
#include "config/linux/futex.h"
#include <pthread.h>
#include <sched.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <fcntl.h>
#include <sys/prctl.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

#define TAG_REPLY GOMP_CL_TAG_MAX
#define SPIN_NS 2000000L
#define SPIN_BUSY_NS 200000L
#define SLEEP_MIN_NS 1000L
#define SLEEP_MAX_NS 1000000L
/* How long the service thread sleeps while a waiter runs the passes (it is
   woken when it is needed earlier).  A waiter that ran no pass for
   HELPED_STALE_NS (preempted on a busy machine, or gone: a rank that ends
   inside a wait) is not trusted any more: the service thread serves.  */
#define HELPED_SLEEP_NS 100000L
#define HELPED_STALE_NS 200000L
/* A gomp_cl_call wait runs passes for this long (a round trip is
   microseconds, far more when the cores are oversubscribed), then sleeps
   until the service thread completes it.  Between passes it pauses for
   CALL_PAUSE_NS, then yields.  It does not sleep between passes on a busy
   machine as the service thread does: measured at 2 x 1 under chrt -f
   on a loaded machine, napping waiters made a remote read fault 9.5-11
   us instead of 6.3-6.8.  */
#define CALL_SPIN_NS 2000000L
#define CALL_PAUSE_NS 100000L
#define HDR sizeof (uint64_t)
/* A token of a call whose reply goes straight into the caller's memory:
   the low 31 bits are the reply's tag on direct_comm.  */
#define DIRECT_TOKEN (1ULL << 63)

static MPI_Comm cl_comm = MPI_COMM_NULL;

static gomp_cl_handler handlers[GOMP_CL_TAG_MAX];
/* Tags whose handlers a gomp_cl_call wait runs too, in signal context
   included (gomp_cl_register_quick).  */
static bool quick[GOMP_CL_TAG_MAX];

/* Direct replies: their communicator, the largest tag MPI allows there,
   the last tag used (the progress holder's), and the posted receives
   (the progress holder's).  */
static MPI_Comm direct_comm = MPI_COMM_NULL;
static int direct_tag_ub;
static unsigned direct_seq;
struct cl_direct
{
  MPI_Request req;
  struct gomp_cl_pending *w;
};
static struct cl_direct *direct;
static size_t n_direct, cap_direct;

/* A queued plain send or reply: the buffer holds the token, then the
   payload.  */
struct cl_send
{
  struct gomp_cl_pending w;	/* Only next, dest, tag used; tag < 0 marks
				   a send item.  */
  bool direct;			/* On direct_comm.  */
  int mpi_tag;
  size_t size;
  char buf[];
};

/* An MPI_Isend in flight and the buffer to free when it completes.  */
struct cl_inflight
{
  MPI_Request req;
  void *buf;
};

/* A deferred incoming message.  */
struct cl_deferred
{
  struct cl_deferred *next;
  int src, tag;
  size_t len;
  char *buf;
};

/* States of gomp_cl_pending.done (a futex word).  */
#define CALL_PENDING 0
#define CALL_DONE 1
#define CALL_SLEEPING 2		/* The caller sleeps on the word.  */

static struct gomp_cl_pending *queue_head;	/* Lock-free LIFO of items.  */
static uint32_t queue_seq;		/* Futex word of the service thread.  */
/* The service thread's state: awake, asleep until a push or a kick, or
   asleep while waiters run the passes (only a kick wakes it).  */
enum { SVC_AWAKE, SVC_SLEEPING, SVC_HELPED };
static int svc_state, svc_stop, svc_running;
static pthread_t svc_thread;
static int deferred_now;

/* The progress lock: the pthread_self () of the thread running a pass, 0
   when none does.  Everything below it (in-flight sends, deferred
   messages, deferred_now) belongs to the holder.  */
static uintptr_t progress_holder;
/* Threads spinning in gomp_cl_wait (full passes) and in gomp_cl_call
   waits (reply-only passes).  */
static int full_pollers, call_pollers;
/* A reply-only pass saw a request: the service thread must serve it.  */
static int svc_wanted;
/* When a pass last moved a message, and when a waiter last ran a full
   pass and a reply-only one (CLOCK_MONOTONIC ns).  */
static long last_activity, last_full, last_call;

static struct cl_inflight *inflight;
static size_t n_inflight, cap_inflight;
static struct cl_deferred *deferred, **deferred_tail = &deferred;

static uint64_t st_msgs_sent, st_bytes_sent, st_msgs_recv, st_bytes_recv;
/* The service thread's polls while spinning and its sleeps.  */
static uint64_t st_svc_spins, st_svc_sleeps;
/* Calls this node made and the time their callers waited (ns).  */
static uint64_t st_calls, st_call_ns;
/* Requests served by the service thread and by waiters' passes.  */
static uint64_t st_served_svc, st_served_waiter;


static void
cl_fatal (const char *what, int err)
{
  int len = 0, rank = -1;
  char estr[MPI_MAX_ERROR_STRING] = "";
  MPI_Comm_rank (MPI_COMM_WORLD, &rank);
  if (err)
    MPI_Error_string (err, estr, &len);
  gomp_cl_say ("ompcluster: rank %d: transport: %s %s\n", rank, what, estr);
  gomp_cl_abort_job (1);
}


/* Wakes the service thread if it sleeps (in any state); signal-safe.  */
static void
cl_kick (void)
{
  __atomic_add_fetch (&queue_seq, 1, __ATOMIC_SEQ_CST);
  if (__atomic_load_n (&svc_state, __ATOMIC_SEQ_CST) != SVC_AWAKE)
    gomp_futex_wake (&queue_seq, 1);
}

/* Pushes W on the queue; wakes the service thread if it sleeps waiting
   for pushes (not while waiters run the passes: they send it).
   Signal-safe.  */
static void
cl_push (struct gomp_cl_pending *w)
{
  struct gomp_cl_pending *old = __atomic_load_n (&queue_head, __ATOMIC_RELAXED);
  do
    w->next = old;
  while (!__atomic_compare_exchange_n (&queue_head, &old, w, true,
				       __ATOMIC_RELEASE, __ATOMIC_RELAXED));
  __atomic_add_fetch (&queue_seq, 1, __ATOMIC_SEQ_CST);
  if (__atomic_load_n (&svc_state, __ATOMIC_SEQ_CST) == SVC_SLEEPING)
    gomp_futex_wake (&queue_seq, 1);
}

/* The progress lock.  */
static bool
cl_progress_trylock (void)
{
  uintptr_t none = 0, me = (uintptr_t) pthread_self ();
  if (__atomic_load_n (&progress_holder, __ATOMIC_RELAXED) != 0)
    return false;
  return __atomic_compare_exchange_n (&progress_holder, &none, me, false,
				      __ATOMIC_ACQUIRE, __ATOMIC_RELAXED);
}

static void
cl_progress_unlock (void)
{
  __atomic_store_n (&progress_holder, 0, __ATOMIC_RELEASE);
}

static bool
cl_progress_mine (void)
{
  return __atomic_load_n (&progress_holder, __ATOMIC_RELAXED)
	 == (uintptr_t) pthread_self ();
}

void
gomp_cl_register (int tag, gomp_cl_handler h)
{
  if (tag <= 0 || tag >= GOMP_CL_TAG_MAX)
    cl_fatal ("bad tag in gomp_cl_register", 0);
  handlers[tag] = h;
}

void
gomp_cl_register_quick (int tag, gomp_cl_handler h)
{
  gomp_cl_register (tag, h);
  quick[tag] = true;
}

int
gomp_cl_on_service_thread (void)
{
  return cl_progress_mine ();
}

void
gomp_cl_defer (void)
{
  deferred_now = 1;
}

void
gomp_cl_get_stats (struct gomp_cl_stats *s)
{
  s->msgs_sent = __atomic_load_n (&st_msgs_sent, __ATOMIC_RELAXED);
  s->bytes_sent = __atomic_load_n (&st_bytes_sent, __ATOMIC_RELAXED);
  s->msgs_recv = __atomic_load_n (&st_msgs_recv, __ATOMIC_RELAXED);
  s->bytes_recv = __atomic_load_n (&st_bytes_recv, __ATOMIC_RELAXED);
  s->svc_spins = __atomic_load_n (&st_svc_spins, __ATOMIC_RELAXED);
  s->svc_sleeps = __atomic_load_n (&st_svc_sleeps, __ATOMIC_RELAXED);
  s->served_svc = __atomic_load_n (&st_served_svc, __ATOMIC_RELAXED);
  s->served_waiter = __atomic_load_n (&st_served_waiter, __ATOMIC_RELAXED);
  s->calls = __atomic_load_n (&st_calls, __ATOMIC_RELAXED);
  s->call_ns = __atomic_load_n (&st_call_ns, __ATOMIC_RELAXED);
  s->svc_cpu_ns = 0;
  clockid_t clk;
  struct timespec ts;
  if (__atomic_load_n (&svc_running, __ATOMIC_ACQUIRE)
      && pthread_getcpuclockid (svc_thread, &clk) == 0
      && clock_gettime (clk, &ts) == 0)
    s->svc_cpu_ns = ts.tv_sec * 1000000000L + ts.tv_nsec;
  s->cpu_ns = 0;
  if (clock_gettime (CLOCK_PROCESS_CPUTIME_ID, &ts) == 0)
    s->cpu_ns = ts.tv_sec * 1000000000L + ts.tv_nsec;
}


static void
cl_call_prepare (int dest, int tag, const void *req, size_t len,
		 void *reply, size_t reply_max, struct gomp_cl_pending *w)
{
  if (__atomic_load_n (&svc_stop, __ATOMIC_ACQUIRE))
    {
      /* Nobody would ever answer: say so rather than hang.  */
      gomp_cl_say ("ompcluster: internal error: a request to another node "
		   "after the transport stopped\n");
      abort ();
    }
  if (cl_progress_mine ())
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
  cl_push (w);
}

void
gomp_cl_call_async (int dest, int tag, const void *req, size_t len,
		    void *reply, size_t reply_max, struct gomp_cl_pending *w)
{
  cl_call_prepare (dest, tag, req, len, reply, reply_max, w);
  cl_push (w);
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
      cl_fatal ("a piece of a reply larger than 2 GiB", 0);
  if (niov <= 0)
    cl_fatal ("a direct reply without pieces", 0);
  w->iov = iov;
  w->niov = niov;
  cl_push (w);
}

static int cl_pass (bool full);

/* Whether a waiter of gomp_cl_wait runs full passes (serves requests):
   one is counted and ran one lately (one that stopped polling -- it may
   have ended the rank inside its wait -- does not count).  */
static bool
cl_full_helper (void)
{
  return __atomic_load_n (&full_pollers, __ATOMIC_SEQ_CST) > 0
	 && gomp_cl_now_ns () - __atomic_load_n (&last_full, __ATOMIC_RELAXED)
	    < HELPED_STALE_NS;
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
  __atomic_add_fetch (full ? &full_pollers : &call_pollers, 1,
		      __ATOMIC_SEQ_CST);
  while (__atomic_load_n (&w->done, __ATOMIC_ACQUIRE) == CALL_PENDING)
    {
      /* Before the transport starts, only its service thread will.  */
      if (__atomic_load_n (&svc_running, __ATOMIC_ACQUIRE)
	  && cl_progress_trylock ())
	{
	  __atomic_store_n (full ? &last_full : &last_call, gomp_cl_now_ns (),
			    __ATOMIC_RELAXED);
	  cl_pass (full);
	  cl_progress_unlock ();
	  if (__atomic_load_n (&w->done, __ATOMIC_ACQUIRE) != CALL_PENDING)
	    break;
	}
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
  __atomic_sub_fetch (full ? &full_pollers : &call_pollers, 1,
		      __ATOMIC_SEQ_CST);
  uint32_t v = CALL_PENDING;
  if (__atomic_load_n (&w->done, __ATOMIC_ACQUIRE) == CALL_PENDING
      && __atomic_compare_exchange_n (&w->done, &v, CALL_SLEEPING, false,
				      __ATOMIC_ACQ_REL, __ATOMIC_ACQUIRE))
    {
      /* The service thread takes over.  */
      cl_kick ();
      while (__atomic_load_n (&w->done, __ATOMIC_ACQUIRE) != CALL_DONE)
	gomp_futex_wait (&w->done, CALL_SLEEPING);
    }
  __atomic_add_fetch (&st_calls, 1, __ATOMIC_RELAXED);
  __atomic_add_fetch (&st_call_ns, gomp_cl_now_ns () - start,
		      __ATOMIC_RELAXED);
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
  struct gomp_cl_pending *old = __atomic_load_n (&queue_head,
						 __ATOMIC_RELAXED);
  do
    w.next = old;
  while (!__atomic_compare_exchange_n (&queue_head, &old, &w, true,
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

static struct cl_send *
cl_make_send (int dest, int mpi_tag, uint64_t token, const void *msg,
	      size_t len)
{
  struct cl_send *s = malloc (sizeof *s + HDR + len);
  if (!s)
    cl_fatal ("out of memory for a message", 0);
  s->w.dest = dest;
  s->w.tag = -1;
  s->direct = false;
  s->mpi_tag = mpi_tag;
  s->size = HDR + len;
  memcpy (s->buf, &token, HDR);
  if (len)
    memcpy (s->buf + HDR, msg, len);
  return s;
}

/* The array V of N items of SIZE bytes with room for one more: its
   capacity *CAP doubles when full.  */
static void *
cl_grow (void *v, size_t n, size_t *cap, size_t size)
{
  if (n < *cap)
    return v;
  *cap = *cap ? 2 * *cap : 64;
  if (!(v = realloc (v, *cap * size)))
    cl_fatal ("out of memory", 0);
  return v;
}

/* With the progress lock: starts an MPI_Isend of SIZE bytes, COUNT items
   of TYPE at BUF on COMM (FREE_PTR freed when done).  */
static void
cl_isend_typed (MPI_Comm comm, int dest, int mpi_tag, const void *buf,
		int count, MPI_Datatype type, size_t size, void *free_ptr)
{
  inflight = cl_grow (inflight, n_inflight, &cap_inflight, sizeof *inflight);
  struct cl_inflight *f = &inflight[n_inflight++];
  f->buf = free_ptr;
  int err = MPI_Isend (buf, count, type, dest, mpi_tag, comm, &f->req);
  if (err != MPI_SUCCESS)
    cl_fatal ("MPI_Isend failed:", err);
  __atomic_add_fetch (&st_msgs_sent, 1, __ATOMIC_RELAXED);
  __atomic_add_fetch (&st_bytes_sent, size, __ATOMIC_RELAXED);
}

/* With the progress lock: starts an MPI_Isend of SIZE bytes at BUF (freed
   with FREE_PTR when done).  */
static void
cl_isend (int dest, int mpi_tag, void *buf, size_t size, void *free_ptr)
{
  if (size > INT_MAX)
    cl_fatal ("message larger than 2 GiB", 0);
  cl_isend_typed (cl_comm, dest, mpi_tag, buf, (int) size, MPI_BYTE,
		  size, free_ptr);
}

/* With the progress lock: posts the receives of W's direct reply and
   returns the token its request carries.  */
static uint64_t
cl_post_direct (struct gomp_cl_pending *w)
{
  /* A tag reused only after DIRECT_TAG_UB later calls, long after this
     one's reply arrived: a call's caller waits for it.  */
  int tag = 1 + (int) (direct_seq++ % (unsigned) direct_tag_ub);
  w->pieces_left = w->niov;
  for (int i = 0; i < w->niov; i++)
    {
      direct = cl_grow (direct, n_direct, &cap_direct, sizeof *direct);
      struct cl_direct *d = &direct[n_direct++];
      d->w = w;
      int err = MPI_Irecv (w->iov[i].base, (int) w->iov[i].len, MPI_BYTE,
			   w->dest, tag, direct_comm, &d->req);
      if (err != MPI_SUCCESS)
	cl_fatal ("MPI_Irecv failed:", err);
    }
  return DIRECT_TOKEN | (uint64_t) tag;
}

void
gomp_cl_send (int dest, int tag, const void *msg, size_t len)
{
  struct cl_send *s = cl_make_send (dest, tag, 0, msg, len);
  if (cl_progress_mine ())
    cl_isend (dest, tag, s->buf, s->size, s);
  else
    cl_push (&s->w);
}

void
gomp_cl_reply (int src, uint64_t token, const void *msg, size_t len)
{
  if (token & DIRECT_TOKEN)
    {
      struct gomp_cl_iov iov = { (void *) msg, len };
      gomp_cl_reply_iov (src, token, &iov, 1, false);
      return;
    }
  struct cl_send *s = cl_make_send (src, TAG_REPLY, token, msg, len);
  if (cl_progress_mine ())
    cl_isend (src, TAG_REPLY, s->buf, s->size, s);
  else
    cl_push (&s->w);
}

void
gomp_cl_reply_iov (int src, uint64_t token, const struct gomp_cl_iov *iov,
		   int niov, bool free_first)
{
  void *first = free_first && niov > 0 ? iov[0].base : NULL;
  gomp_cl_reply_iov_owned (src, token, iov, niov, free_first ? &first : NULL,
			   free_first ? 1 : 0);
}

void
gomp_cl_reply_iov_owned (int src, uint64_t token,
			 const struct gomp_cl_iov *iov, int niov,
			 void *const *owned, int nowned)
{
#define OWNED(i) ((i) < nowned ? owned[i] : NULL)
  if (token & DIRECT_TOKEN)
    {
      /* One message per piece, straight from it when this thread may
	 call MPI, else copied and queued in order.  */
      int tag = (int) (token & ~DIRECT_TOKEN);
      bool mine = cl_progress_mine ();
      for (int i = 0; i < niov; i++)
	if (iov[i].len > INT_MAX)
	  cl_fatal ("a piece of a reply larger than 2 GiB", 0);
	else if (mine)
	  cl_isend_typed (direct_comm, src, tag, iov[i].base,
			  (int) iov[i].len, MPI_BYTE, iov[i].len, OWNED (i));
	else
	  {
	    struct cl_send *s = cl_make_send (src, tag, 0, iov[i].base,
					      iov[i].len);
	    s->direct = true;
	    cl_push (&s->w);
	    free (OWNED (i));
	  }
      return;
    }
  /* The ordinary reply: the pieces gathered behind the token.  */
  size_t total = 0, off = HDR;
  for (int i = 0; i < niov; i++)
    total += iov[i].len;
  struct cl_send *s = cl_make_send (src, TAG_REPLY, token, NULL, 0);
  s = realloc (s, sizeof *s + HDR + total);
  if (!s)
    cl_fatal ("out of memory for a message", 0);
  for (int i = 0; i < niov; i++)
    {
      memcpy (s->buf + off, iov[i].base, iov[i].len);
      off += iov[i].len;
      free (OWNED (i));
    }
  s->size = off;
  if (cl_progress_mine ())
    cl_isend (src, TAG_REPLY, s->buf, s->size, s);
  else
    cl_push (&s->w);
#undef OWNED
}

/* Sends everything queued, oldest first.  */
static int
cl_drain_queue (void)
{
  struct gomp_cl_pending *l = __atomic_exchange_n (&queue_head, NULL,
						 __ATOMIC_ACQUIRE);
  struct gomp_cl_pending *rev = NULL;
  if (!l)
    return 0;
  while (l)
    {
      struct gomp_cl_pending *n = l->next;
      l->next = rev;
      rev = l;
      l = n;
    }
  while (rev)
    {
      struct gomp_cl_pending *w = rev;
      rev = rev->next;
      if (w->tag < 0)
	{
	  struct cl_send *s = (struct cl_send *) w;
	  if (s->direct)
	    /* A direct reply: the payload alone.  */
	    cl_isend_typed (direct_comm, s->w.dest, s->mpi_tag, s->buf + HDR,
			    (int) (s->size - HDR), MPI_BYTE, s->size - HDR, s);
	  else
	    cl_isend (s->w.dest, s->mpi_tag, s->buf, s->size, s);
	}
      else
	{
	  /* A call: copy the request behind its token.  */
	  uint64_t token = w->niov ? cl_post_direct (w) : (uintptr_t) w;
	  char *buf = malloc (HDR + w->req_len);
	  if (!buf)
	    cl_fatal ("out of memory for a message", 0);
	  memcpy (buf, &token, HDR);
	  if (w->req_len)
	    memcpy (buf + HDR, w->req, w->req_len);
	  cl_isend (w->dest, w->tag, buf, HDR + w->req_len, buf);
	}
    }
  return 1;
}

static int
cl_test_inflight (void)
{
  int any = 0;
  for (size_t i = 0; i < n_inflight;)
    {
      int flag = 0;
      MPI_Test (&inflight[i].req, &flag, MPI_STATUS_IGNORE);
      if (flag)
	{
	  free (inflight[i].buf);
	  inflight[i] = inflight[--n_inflight];
	  any = 1;
	}
      else
	i++;
    }
  return any;
}

/* Tells W's caller that its reply is in.  */
static void
cl_complete (struct gomp_cl_pending *w)
{
  /* W may be gone as soon as the caller sees CALL_DONE: only the futex
     word is touched after that.  */
  if (__atomic_exchange_n (&w->done, CALL_DONE, __ATOMIC_ACQ_REL)
      == CALL_SLEEPING)
    gomp_futex_wake (&w->done, INT_MAX);
}

/* Completes the direct replies that arrived.  */
static int
cl_test_direct (void)
{
  int any = 0;
  for (size_t i = 0; i < n_direct;)
    {
      int flag = 0, count = 0;
      MPI_Status st;
      MPI_Test (&direct[i].req, &flag, &st);
      if (flag)
	{
	  struct gomp_cl_pending *w = direct[i].w;
	  MPI_Get_count (&st, MPI_BYTE, &count);
	  __atomic_add_fetch (&st_msgs_recv, 1, __ATOMIC_RELAXED);
	  __atomic_add_fetch (&st_bytes_recv, count, __ATOMIC_RELAXED);
	  direct[i] = direct[--n_direct];
	  w->len += count;
	  if (--w->pieces_left == 0)
	    cl_complete (w);
	  any = 1;
	}
      else
	i++;
    }
  return any;
}

/* Hands one message to its handler; returns false if it was deferred
   (then the caller keeps BUF).  */
static int
cl_dispatch (int src, int tag, char *buf, size_t len)
{
  uint64_t token;
  memcpy (&token, buf, HDR);
  if (tag == TAG_REPLY)
    {
      struct gomp_cl_pending *w = (struct gomp_cl_pending *) (uintptr_t) token;
      size_t n = len - HDR;
      if (n > w->reply_max)
	{
	  size_t t = n - w->reply_max;
	  if (w->tail)
	    memcpy (w->tail, buf + HDR + w->reply_max,
		    t < w->tail_max ? t : w->tail_max);
	  n = w->reply_max;
	}
      if (n)
	memcpy (w->reply, buf + HDR, n);
      w->len = len - HDR;
      cl_complete (w);
      return 1;
    }
  if (tag <= 0 || tag >= GOMP_CL_TAG_MAX || !handlers[tag])
    cl_fatal ("message with an unknown tag", 0);
  deferred_now = 0;
  __atomic_add_fetch (pthread_equal (pthread_self (), svc_thread)
		      ? &st_served_svc : &st_served_waiter, 1,
		      __ATOMIC_RELAXED);
  handlers[tag] (src, buf + HDR, len - HDR, token);
  return !deferred_now;
}

static int
cl_retry_deferred (void)
{
  struct cl_deferred *l = deferred;
  int any = 0;
  deferred = NULL;
  deferred_tail = &deferred;
  while (l)
    {
      struct cl_deferred *n = l->next;
      if (cl_dispatch (l->src, l->tag, l->buf, l->len))
	{
	  free (l->buf);
	  free (l);
	  any = 1;
	}
      else
	{
	  l->next = NULL;
	  *deferred_tail = l;
	  deferred_tail = &l->next;
	}
      l = n;
    }
  return any;
}

/* In a reply-only pass: a message whose handler that pass may run (a
   reply, or a request with a quick handler) into *ST; false when none.
   The first message of any kind decides in the common case (nothing, or
   one of those); past a request for the service thread, each kind is
   probed for on its own.  */
static bool
cl_probe_quick (MPI_Status *st)
{
  int flag = 0;
  int err = MPI_Iprobe (MPI_ANY_SOURCE, MPI_ANY_TAG, cl_comm, &flag, st);
  if (err != MPI_SUCCESS)
    cl_fatal ("MPI_Iprobe failed:", err);
  if (!flag)
    return false;
  if (st->MPI_TAG == TAG_REPLY
      || (st->MPI_TAG > 0 && st->MPI_TAG < GOMP_CL_TAG_MAX
	  && quick[st->MPI_TAG]))
    return true;
  for (int tag = 0; tag <= TAG_REPLY; tag++)
    if (tag == TAG_REPLY || quick[tag])
      {
	err = MPI_Iprobe (MPI_ANY_SOURCE, tag, cl_comm, &flag, st);
	if (err != MPI_SUCCESS)
	  cl_fatal ("MPI_Iprobe failed:", err);
	if (flag)
	  return true;
      }
  return false;
}

/* Receives up to 16 messages.  A reply-only pass (FULL false) receives
   replies and the requests of quick handlers (gomp_cl_register_quick's:
   they are then answered by a thread that waits for its own reply, with
   no thread to wake), and
   leaves the rest to a full pass, waking the service thread when no
   waiter runs full passes.  */
static int
cl_poll (bool full)
{
  int any = 0;
  for (int i = 0; i < 16; i++)
    {
      int flag = 0, count;
      MPI_Status st;
      if (full)
	{
	  int err = MPI_Iprobe (MPI_ANY_SOURCE, MPI_ANY_TAG, cl_comm,
				&flag, &st);
	  if (err != MPI_SUCCESS)
	    cl_fatal ("MPI_Iprobe failed:", err);
	}
      else
	flag = cl_probe_quick (&st);
      if (!flag)
	break;
      MPI_Get_count (&st, MPI_BYTE, &count);
      char *buf = malloc (count ? count : 1);
      if (!buf)
	cl_fatal ("out of memory for a message", 0);
      int err = MPI_Recv (buf, count, MPI_BYTE, st.MPI_SOURCE, st.MPI_TAG,
		      cl_comm, MPI_STATUS_IGNORE);
      if (err != MPI_SUCCESS)
	cl_fatal ("MPI_Recv failed:", err);
      __atomic_add_fetch (&st_msgs_recv, 1, __ATOMIC_RELAXED);
      __atomic_add_fetch (&st_bytes_recv, count, __ATOMIC_RELAXED);
      if ((size_t) count < HDR)
	cl_fatal ("short message", 0);
      any = 1;
      if (cl_dispatch (st.MPI_SOURCE, st.MPI_TAG, buf, count))
	free (buf);
      else
	{
	  /* Only a full pass retries it.  */
	  if (!full)
	    {
	      __atomic_store_n (&svc_wanted, 1, __ATOMIC_SEQ_CST);
	      cl_kick ();
	    }
	  struct cl_deferred *d = malloc (sizeof *d);
	  if (!d)
	    cl_fatal ("out of memory", 0);
	  d->next = NULL;
	  d->src = st.MPI_SOURCE;
	  d->tag = st.MPI_TAG;
	  d->len = count;
	  d->buf = buf;
	  *deferred_tail = d;
	  deferred_tail = &d->next;
	}
    }
  if (!full && !cl_full_helper ()
      && !__atomic_load_n (&svc_wanted, __ATOMIC_RELAXED))
    {
      int flag = 0;
      if (MPI_Iprobe (MPI_ANY_SOURCE, MPI_ANY_TAG, cl_comm, &flag,
		      MPI_STATUS_IGNORE) == MPI_SUCCESS && flag)
	{
	  __atomic_store_n (&svc_wanted, 1, __ATOMIC_SEQ_CST);
	  cl_kick ();
	}
    }
  return any;
}

/* One pass, with the progress lock.  */
static int
cl_pass (bool full)
{
  int any = cl_drain_queue ();
  if (full && deferred)
    any |= cl_retry_deferred ();
  any |= cl_poll (full);
  if (n_direct)
    any |= cl_test_direct ();
  if (n_inflight)
    any |= cl_test_inflight ();
  if (any)
    __atomic_store_n (&last_activity, gomp_cl_now_ns (), __ATOMIC_RELAXED);
  return any;
}

bool
gomp_cl_progress (void)
{
  /* Not before the transport starts, nor once it stops.  */
  if (!__atomic_load_n (&svc_running, __ATOMIC_ACQUIRE)
      || !cl_progress_trylock ())
    return false;
  __atomic_store_n (&last_full, gomp_cl_now_ns (), __ATOMIC_RELAXED);
  bool any = cl_pass (true);
  cl_progress_unlock ();
  return any;
}

void
gomp_cl_poller_enter (void)
{
  __atomic_add_fetch (&full_pollers, 1, __ATOMIC_SEQ_CST);
}

void
gomp_cl_poller_leave (void)
{
  /* No wake-up (a system call at the end of every barrier): the service
     thread looks again within HELPED_SLEEP_NS, as often as it would poll
     MPI when asleep anyway.  */
  __atomic_sub_fetch (&full_pollers, 1, __ATOMIC_SEQ_CST);
}

/* Whether waiters run the passes the service thread would: a waiter in
   gomp_cl_wait does all of it; waiters of gomp_cl_call leave requests to
   the service thread (they wake it) and the deferred messages too.  */
static bool
cl_helped (void)
{
  return cl_full_helper ()
	 || (__atomic_load_n (&call_pollers, __ATOMIC_SEQ_CST) > 0
	     && !__atomic_load_n (&deferred, __ATOMIC_RELAXED)
	     && gomp_cl_now_ns () - __atomic_load_n (&last_call, __ATOMIC_RELAXED)
		< HELPED_STALE_NS);
}

static void
cl_svc_sleep (int state, long ns)
{
  __atomic_store_n (&svc_state, state, __ATOMIC_SEQ_CST);
  uint32_t seq = __atomic_load_n (&queue_seq, __ATOMIC_SEQ_CST);
  bool wait = !__atomic_load_n (&svc_stop, __ATOMIC_SEQ_CST)
	      && !__atomic_load_n (&svc_wanted, __ATOMIC_SEQ_CST);
  if (state == SVC_HELPED)
    wait = wait && cl_helped ();
  else
    wait = wait && !__atomic_load_n (&queue_head, __ATOMIC_SEQ_CST);
  if (wait)
    {
      struct timespec ts = { ns / 1000000000L, ns % 1000000000L };
      gomp_futex_wait_for (&queue_seq, seq, &ts);
    }
  __atomic_store_n (&svc_state, SVC_AWAKE, __ATOMIC_SEQ_CST);
}

static void *
cl_service (void *arg)
{
  prctl (PR_SET_TIMERSLACK, 1UL, 0, 0, 0);
  __atomic_store_n (&last_activity, gomp_cl_now_ns (), __ATOMIC_RELAXED);
  for (;;)
    {
      bool stop = __atomic_load_n (&svc_stop, __ATOMIC_ACQUIRE);
      if (!stop && cl_helped ()
	  && !__atomic_load_n (&svc_wanted, __ATOMIC_SEQ_CST))
	{
	  /* Waiters run the passes.  Afterwards, the sleeps go on from
	     where they were (each short one would take a processor from
	     the node's threads, e.g. between barriers).  */
	  cl_svc_sleep (SVC_HELPED, HELPED_SLEEP_NS);
	  continue;
	}
      __atomic_store_n (&svc_wanted, 0, __ATOMIC_SEQ_CST);
      if (!cl_progress_trylock ())
	{
	  sched_yield ();
	  continue;
	}
      int any = cl_pass (true);
      cl_progress_unlock ();
      if (stop && !any && !n_inflight
	  && !__atomic_load_n (&queue_head, __ATOMIC_ACQUIRE))
	break;
      if (any)
	continue;
      long idle = gomp_cl_now_ns () - __atomic_load_n (&last_activity,
					       __ATOMIC_RELAXED);
      if (idle < SPIN_BUSY_NS
	  || (idle < SPIN_NS && gomp_cl_processor_free ()))
	{
	  /* Poll, yielding to whoever wants the processor.  */
	  __atomic_add_fetch (&st_svc_spins, 1, __ATOMIC_RELAXED);
	  sched_yield ();
	  continue;
	}
      /* Sleep until a local request or the timeout, then poll MPI.  The
	 timeout grows with the time since the last activity; up to 1 ms
	 while recently busy; a node idle for long (rank 0 computing
	 alone) polls less: 2 ms after 50 ms.  */
      long cap = idle < 50000000L ? SLEEP_MAX_NS : 2 * SLEEP_MAX_NS;
      long sleep_ns = idle / 2;
      sleep_ns = sleep_ns < SLEEP_MIN_NS ? SLEEP_MIN_NS
		 : sleep_ns > cap ? cap : sleep_ns;
      __atomic_add_fetch (&st_svc_sleeps, 1, __ATOMIC_RELAXED);
      cl_svc_sleep (SVC_SLEEPING, sleep_ns);
    }
  return NULL;
}

void
gomp_cl_transport_init (void)
{
  int err = MPI_Comm_dup (MPI_COMM_WORLD, &cl_comm), *ub = NULL, flag = 0;
  if (err != MPI_SUCCESS)
    cl_fatal ("MPI_Comm_dup failed:", err);
  err = MPI_Comm_dup (MPI_COMM_WORLD, &direct_comm);
  if (err != MPI_SUCCESS)
    cl_fatal ("MPI_Comm_dup failed:", err);
  MPI_Comm_get_attr (direct_comm, MPI_TAG_UB, &ub, &flag);
  direct_tag_ub = flag && ub && *ub > 0 ? *ub : 32767;
  gomp_cl_processor_free_init ();
  /* Messages of pages are often hundreds of KiB, malloc'd and freed by
     different threads.  With glibc's defaults each such buffer was a fresh
     mmap (or a thread arena trimmed and grown again), and the kernel
     zeroed every page of it: 13% of rank 0's samples in bench/apps/cg
     at 2 x 1, which took 1.8 times as long as with these.  Program heap
     calls go to the shared heap, not here.  */
  mallopt (M_MMAP_THRESHOLD, 32 << 20);
  mallopt (M_TRIM_THRESHOLD, 256 << 20);
  pthread_attr_t attr;
  pthread_attr_init (&attr);
  gomp_cl_thread_stack (&attr, 1 << 20);
  err = pthread_create (&svc_thread, &attr, cl_service, NULL);
  pthread_attr_destroy (&attr);
  if (err)
    cl_fatal ("cannot start the service thread", 0);
  __atomic_store_n (&svc_running, 1, __ATOMIC_RELEASE);
}

/* Waits for REQ with backoff, the service thread still serving.  */
static void
cl_wait_request (MPI_Request *req)
{
  long sleep_ns = 1000, start = gomp_cl_now_ns ();
  for (;;)
    {
      int flag = 0;
      MPI_Test (req, &flag, MPI_STATUS_IGNORE);
      if (flag)
	return;
      if (gomp_cl_now_ns () - start < SPIN_NS)
	{
	  sched_yield ();
	  continue;
	}
      struct timespec ts = { 0, sleep_ns };
      nanosleep (&ts, NULL);
      if (sleep_ns < 100000L)
	sleep_ns *= 2;
    }
}

void
gomp_cl_transport_fini (void)
{
  MPI_Request req;
  /* Once every node is here, no node sends requests any more.  */
  MPI_Ibarrier (cl_comm, &req);
  cl_wait_request (&req);
  __atomic_store_n (&svc_running, 0, __ATOMIC_RELEASE);
  __atomic_store_n (&svc_stop, 1, __ATOMIC_RELEASE);
  cl_kick ();
  pthread_join (svc_thread, NULL);
  /* Plain sends (no reply, e.g. a remote free) may still be on their way:
     receive and serve what arrived, and complete every send.  */
  while (!cl_progress_trylock ())
    sched_yield ();
  while (cl_poll (true) || (deferred && cl_retry_deferred ()))
    ;
  while (n_inflight)
    cl_test_inflight ();
  cl_progress_unlock ();
}
