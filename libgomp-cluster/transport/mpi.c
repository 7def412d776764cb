/* mpi.c -- the MPI backend of the transport (transport.h): messages
   between nodes; one service thread per node, helped by the node's
   waiting threads, owns every MPI point-to-point call of the module.
   This file holds the passes and what they move: the queue of items to
   send, plain sends and replies, the sends in flight, the receives and
   their dispatch to the handlers, deferred messages and direct replies.
   The calls that wait for a reply are call.c's, the service thread and
   the accounting of the waiters that help it service.c's, the counters
   stats.c's.

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
   13-21 us).  When the service thread runs passes and when it sleeps is
   service.c's.

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
   in all.  */

#define _GNU_SOURCE 1
#include "transport-int.h"
#include <mpi.h>
#include <errno.h>
#include <malloc.h>
#include <stdbool.h>
#include <limits.h>
#include <pthread.h>
#include <sched.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <fcntl.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

#define TAG_REPLY GOMP_CL_TAG_MAX
/* How long gomp_cl_transport_fini's wait for the other nodes polls before
   it sleeps.  */
#define FINI_SPIN_NS 2000000L
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

/* A deferred incoming message, and how long it has waited
   (gomp_cl_waited_ns).  */
struct cl_deferred
{
  struct cl_deferred *next;
  int src, tag;
  size_t len;
  char *buf;
  long last_ns, waited_ns;
};

/* A handler defers a request only while something of this node is held
   for a moment (a block's lock, the release lock): a request that waited
   this long will never be served, because what holds it waits for
   something that waits for the request.  The job ends with a message
   rather than hang.  */
#define CL_DEFER_LIMIT_S 120

static const char *const cl_tag_names[GOMP_CL_TAG_MAX] = {
  [GOMP_CL_TAG_PAGE_GET] = "a page request",
  [GOMP_CL_TAG_DIFF] = "diffs",
  [GOMP_CL_TAG_HOME] = "a home lookup",
  [GOMP_CL_TAG_ATOMIC] = "an atomic",
  [GOMP_CL_TAG_PULL] = "a flush's pull",
  [GOMP_CL_TAG_HANDOFF] = "a home hand-off",
  [GOMP_CL_TAG_STEAL] = "a task steal",
};

/* D was deferred again: counts the time since its last retry.  */
static void
cl_deferred_waited (struct cl_deferred *d)
{
  if (gomp_cl_waited_ns (&d->last_ns, &d->waited_ns)
      < CL_DEFER_LIMIT_S * 1000000000L)
    return;
  const char *what = d->tag > 0 && d->tag < GOMP_CL_TAG_MAX
		     && cl_tag_names[d->tag] ? cl_tag_names[d->tag]
		     : "a request";
  char msg[256];
  snprintf (msg, sizeof msg, "internal error: %s from rank %d (tag %d) "
	    "could not be served here for %d s: the runtime is deadlocked; "
	    "please report it with the program", what, d->src, d->tag,
	    CL_DEFER_LIMIT_S);
  gomp_cl_transport_fatal (msg, 0);
}

struct gomp_cl_pending *gomp_cl_queue_head;	/* Lock-free LIFO of items.  */
static int deferred_now;

/* The progress lock: the pthread_self () of the thread running a pass, 0
   when none does.  Everything below it (in-flight sends, deferred
   messages, deferred_now) belongs to the holder.  */
static uintptr_t progress_holder;

static struct cl_inflight *inflight;
static size_t n_inflight, cap_inflight;
static struct cl_deferred *deferred, **deferred_tail = &deferred;


void
gomp_cl_transport_fatal (const char *what, int err)
{
  int len = 0, rank = -1;
  char estr[MPI_MAX_ERROR_STRING] = "";
  MPI_Comm_rank (MPI_COMM_WORLD, &rank);
  if (err)
    MPI_Error_string (err, estr, &len);
  gomp_cl_say ("ompcluster: rank %d: transport: %s %s\n", rank, what, estr);
  gomp_cl_abort_job (1);
}

void
gomp_cl_push (struct gomp_cl_pending *w)
{
  struct gomp_cl_pending *old = __atomic_load_n (&gomp_cl_queue_head,
						 __ATOMIC_RELAXED);
  do
    w->next = old;
  while (!__atomic_compare_exchange_n (&gomp_cl_queue_head, &old, w, true,
				       __ATOMIC_RELEASE, __ATOMIC_RELAXED));
  gomp_cl_service_pushed ();
}

/* The progress lock.  */
bool
gomp_cl_progress_trylock (void)
{
  uintptr_t none = 0, me = (uintptr_t) pthread_self ();
  if (__atomic_load_n (&progress_holder, __ATOMIC_RELAXED) != 0)
    return false;
  return __atomic_compare_exchange_n (&progress_holder, &none, me, false,
				      __ATOMIC_ACQUIRE, __ATOMIC_RELAXED);
}

void
gomp_cl_progress_unlock (void)
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
    gomp_cl_transport_fatal ("bad tag in gomp_cl_register", 0);
  handlers[tag] = h;
}

void
gomp_cl_register_quick (int tag, gomp_cl_handler h)
{
  gomp_cl_register (tag, h);
  quick[tag] = true;
}

int
gomp_cl_in_progress_pass (void)
{
  return cl_progress_mine ();
}

void
gomp_cl_defer (void)
{
  deferred_now = 1;
}


static struct cl_send *
cl_make_send (int dest, int mpi_tag, uint64_t token, const void *msg,
	      size_t len)
{
  struct cl_send *s = malloc (sizeof *s + HDR + len);
  if (!s)
    gomp_cl_transport_fatal ("out of memory for a message", 0);
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
    gomp_cl_transport_fatal ("out of memory", 0);
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
    gomp_cl_transport_fatal ("MPI_Isend failed:", err);
  __atomic_add_fetch (&gomp_cl_counters.msgs_sent, 1, __ATOMIC_RELAXED);
  __atomic_add_fetch (&gomp_cl_counters.bytes_sent, size, __ATOMIC_RELAXED);
}

/* With the progress lock: starts an MPI_Isend of SIZE bytes at BUF (freed
   with FREE_PTR when done).  */
static void
cl_isend (int dest, int mpi_tag, void *buf, size_t size, void *free_ptr)
{
  if (size > INT_MAX)
    gomp_cl_transport_fatal ("message larger than 2 GiB", 0);
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
	gomp_cl_transport_fatal ("MPI_Irecv failed:", err);
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
    gomp_cl_push (&s->w);
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
    gomp_cl_push (&s->w);
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
	  gomp_cl_transport_fatal ("a piece of a reply larger than 2 GiB", 0);
	else if (mine)
	  cl_isend_typed (direct_comm, src, tag, iov[i].base,
			  (int) iov[i].len, MPI_BYTE, iov[i].len, OWNED (i));
	else
	  {
	    struct cl_send *s = cl_make_send (src, tag, 0, iov[i].base,
					      iov[i].len);
	    s->direct = true;
	    gomp_cl_push (&s->w);
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
    gomp_cl_transport_fatal ("out of memory for a message", 0);
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
    gomp_cl_push (&s->w);
#undef OWNED
}

/* Sends everything queued, oldest first.  */
static int
cl_drain_queue (void)
{
  struct gomp_cl_pending *l = __atomic_exchange_n (&gomp_cl_queue_head, NULL,
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
	    gomp_cl_transport_fatal ("out of memory for a message", 0);
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
	  __atomic_add_fetch (&gomp_cl_counters.msgs_recv, 1,
			      __ATOMIC_RELAXED);
	  __atomic_add_fetch (&gomp_cl_counters.bytes_recv, count,
			      __ATOMIC_RELAXED);
	  direct[i] = direct[--n_direct];
	  w->len += count;
	  if (--w->pieces_left == 0)
	    gomp_cl_complete (w);
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
      gomp_cl_complete (w);
      return 1;
    }
  if (tag <= 0 || tag >= GOMP_CL_TAG_MAX || !handlers[tag])
    gomp_cl_transport_fatal ("message with an unknown tag", 0);
  deferred_now = 0;
  __atomic_add_fetch (gomp_cl_service_self ()
		      ? &gomp_cl_counters.served_svc
		      : &gomp_cl_counters.served_waiter, 1, __ATOMIC_RELAXED);
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
	  cl_deferred_waited (l);
	  l->next = NULL;
	  *deferred_tail = l;
	  deferred_tail = &l->next;
	}
      l = n;
    }
  return any;
}

/* MPI_Iprobe on the module's communicator for TAG (or MPI_ANY_TAG) from
   any rank.  AGAIN: when it finds nothing, probes once more.  MPICH
   4.0.2 over UCX looks in its queue of received messages before it makes
   progress, so a message that arrived while no thread called MPI (the
   service thread asleep, every thread computing) is not found by the
   first probe after that, only moved into the queue: of 50 messages sent
   during a 2 ms sleep here, the first MPI_Iprobe after it found none and
   the second all 50 (MPI_Test of a posted receive completes at once).  A
   service thread that woke to poll then slept a whole period more before
   it served such a request.  */
static bool
cl_iprobe (int tag, bool again, MPI_Status *st)
{
  int flag = 0;
  int err = MPI_Iprobe (MPI_ANY_SOURCE, tag, cl_comm, &flag, st);
  if (err == MPI_SUCCESS && !flag && again)
    err = MPI_Iprobe (MPI_ANY_SOURCE, tag, cl_comm, &flag, st);
  if (err != MPI_SUCCESS)
    gomp_cl_transport_fatal ("MPI_Iprobe failed:", err);
  return flag;
}

/* In a reply-only pass: a message whose handler that pass may run (a
   reply, or a request with a quick handler) into *ST; false when none.
   The first message of any kind decides in the common case (nothing, or
   one of those); past a request for the service thread, each kind is
   probed for on its own.  AGAIN as cl_iprobe's.  */
static bool
cl_probe_quick (MPI_Status *st, bool again)
{
  if (!cl_iprobe (MPI_ANY_TAG, again, st))
    return false;
  if (st->MPI_TAG == TAG_REPLY
      || (st->MPI_TAG > 0 && st->MPI_TAG < GOMP_CL_TAG_MAX
	  && quick[st->MPI_TAG]))
    return true;
  for (int tag = 0; tag <= TAG_REPLY; tag++)
    if ((tag == TAG_REPLY || quick[tag]) && cl_iprobe (tag, false, st))
      return true;
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
      int count;
      MPI_Status st;
      /* The first probe of the pass probes again (cl_iprobe).  */
      bool flag = full ? cl_iprobe (MPI_ANY_TAG, i == 0, &st)
		  : cl_probe_quick (&st, i == 0);
      if (!flag)
	break;
      MPI_Get_count (&st, MPI_BYTE, &count);
      char *buf = malloc (count ? count : 1);
      if (!buf)
	gomp_cl_transport_fatal ("out of memory for a message", 0);
      int err = MPI_Recv (buf, count, MPI_BYTE, st.MPI_SOURCE, st.MPI_TAG,
		      cl_comm, MPI_STATUS_IGNORE);
      if (err != MPI_SUCCESS)
	gomp_cl_transport_fatal ("MPI_Recv failed:", err);
      __atomic_add_fetch (&gomp_cl_counters.msgs_recv, 1, __ATOMIC_RELAXED);
      __atomic_add_fetch (&gomp_cl_counters.bytes_recv, count,
			  __ATOMIC_RELAXED);
      if ((size_t) count < HDR)
	gomp_cl_transport_fatal ("short message", 0);
      any = 1;
      if (cl_dispatch (st.MPI_SOURCE, st.MPI_TAG, buf, count))
	free (buf);
      else
	{
	  /* Only a full pass retries it.  */
	  if (!full)
	    gomp_cl_service_want ();
	  struct cl_deferred *d = malloc (sizeof *d);
	  if (!d)
	    gomp_cl_transport_fatal ("out of memory", 0);
	  d->next = NULL;
	  d->src = st.MPI_SOURCE;
	  d->tag = st.MPI_TAG;
	  d->len = count;
	  d->buf = buf;
	  d->last_ns = gomp_cl_now_ns ();
	  d->waited_ns = 0;
	  *deferred_tail = d;
	  deferred_tail = &d->next;
	}
    }
  if (!full && gomp_cl_service_needed ())
    {
      MPI_Status st;
      if (cl_iprobe (MPI_ANY_TAG, false, &st))
	gomp_cl_service_want ();
    }
  return any;
}

int
gomp_cl_pass (bool full)
{
  int any = cl_drain_queue ();
  if (full && deferred)
    any |= cl_retry_deferred ();
  any |= cl_poll (full);
  if (n_direct)
    any |= cl_test_direct ();
  if (n_inflight)
    any |= cl_test_inflight ();
  return any;
}

bool
gomp_cl_sends_pending (void)
{
  return n_inflight || __atomic_load_n (&gomp_cl_queue_head, __ATOMIC_ACQUIRE);
}

bool
gomp_cl_deferred_pending (void)
{
  return __atomic_load_n (&deferred, __ATOMIC_RELAXED);
}

void
gomp_cl_transport_init (void)
{
  int err = MPI_Comm_dup (MPI_COMM_WORLD, &cl_comm), *ub = NULL, flag = 0;
  if (err != MPI_SUCCESS)
    gomp_cl_transport_fatal ("MPI_Comm_dup failed:", err);
  err = MPI_Comm_dup (MPI_COMM_WORLD, &direct_comm);
  if (err != MPI_SUCCESS)
    gomp_cl_transport_fatal ("MPI_Comm_dup failed:", err);
  MPI_Comm_get_attr (direct_comm, MPI_TAG_UB, &ub, &flag);
  direct_tag_ub = flag && ub && *ub > 0 ? *ub : 32767;
  /* Messages of pages are often hundreds of KiB, malloc'd and freed by
     different threads.  With glibc's defaults each such buffer was a fresh
     mmap (or a thread arena trimmed and grown again), and the kernel
     zeroed every page of it: 13% of rank 0's samples in bench/apps/cg
     at 2 x 1, which took 1.8 times as long as with these.  Program heap
     calls go to the shared heap, not here.  */
  mallopt (M_MMAP_THRESHOLD, 32 << 20);
  mallopt (M_TRIM_THRESHOLD, 256 << 20);
  gomp_cl_service_start ();
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
      if (gomp_cl_now_ns () - start < FINI_SPIN_NS)
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
  gomp_cl_service_stop ();
  /* Plain sends (no reply, e.g. a remote free) may still be on their way:
     receive and serve what arrived, and complete every send.  */
  while (!gomp_cl_progress_trylock ())
    sched_yield ();
  while (cl_poll (true) || (deferred && cl_retry_deferred ()))
    ;
  while (n_inflight)
    cl_test_inflight ();
  gomp_cl_progress_unlock ();
}
