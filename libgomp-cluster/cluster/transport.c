/* transport.c -- messages between nodes: one service thread per node owns
   every MPI point-to-point call of the module.

   Other threads (and the DSM's fault handler) never call MPI here: they
   push an item on a lock-free queue and wake the service thread.  The
   service thread sends the queued items with MPI_Isend, receives with
   MPI_Iprobe + MPI_Recv, hands requests to the handler registered for their
   tag, and completes gomp_cl_call waits when replies come back.

   Message layout: the MPI tag is the gomp_cl_tag (or TAG_REPLY), the data
   starts with a 64-bit token (the caller's struct gomp_cl_pending for a call,
   0 for a plain send) followed by the payload.

   Waiting (NOTES-GCC12.md): the service thread polls for ~2 ms after its
   last activity (yielding the core between polls), then sleeps on a futex
   with a timeout growing from 1 us to 100 us (500 us after 50 ms idle,
   2 ms after 1 s), so a local request wakes it at once and MPI is still
   polled; the timer slack of the thread is 1 ns.

   Signal context: gomp_cl_call, gomp_cl_call_async and gomp_cl_call_wait only
   use atomics, the futex system call and the caller's memory.  */

#include "transport.h"
#include <errno.h>
#include <stdbool.h>
#include <limits.h>
#include <linux/futex.h>
#include <pthread.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

#define TAG_REPLY GOMP_CL_TAG_MAX
#define SPIN_NS 2000000L
#define SLEEP_MAX_NS 100000L
#define HDR sizeof (uint64_t)

MPI_Comm gomp_cl_comm = MPI_COMM_NULL;

static gomp_cl_handler handlers[GOMP_CL_TAG_MAX];

/* A queued plain send or reply: the buffer holds the token, then the
   payload.  */
struct cl_send
{
  struct gomp_cl_pending w;	/* Only next, dest, tag used; tag < 0 marks
				   a send item.  */
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

static struct gomp_cl_pending *queue_head;	/* Lock-free LIFO of items.  */
static uint32_t queue_seq;		/* Futex word of the service thread.  */
static int svc_sleeping, svc_stop;
static pthread_t svc_thread;
static __thread int on_service_thread;
static int deferred_now;

static struct cl_inflight *inflight;
static size_t n_inflight, cap_inflight;
static struct cl_deferred *deferred, **deferred_tail = &deferred;

static uint64_t st_msgs_sent, st_bytes_sent, st_msgs_recv, st_bytes_recv;

static void
cl_fatal (const char *what, int err)
{
  char msg[MPI_MAX_ERROR_STRING + 128];
  int len = 0, rank = -1;
  char estr[MPI_MAX_ERROR_STRING] = "";
  MPI_Comm_rank (MPI_COMM_WORLD, &rank);
  if (err)
    MPI_Error_string (err, estr, &len);
  snprintf (msg, sizeof msg, "ompcluster: rank %d: transport: %s %s\n",
	    rank, what, estr);
  if (write (2, msg, strlen (msg)) < 0)
    abort ();
  MPI_Abort (MPI_COMM_WORLD, 1);
  abort ();
}

static long
futex (uint32_t *addr, int op, uint32_t val, const struct timespec *ts)
{
  return syscall (SYS_futex, addr, op | FUTEX_PRIVATE_FLAG, val, ts, NULL, 0);
}

static long
now_ns (void)
{
  struct timespec t;
  clock_gettime (CLOCK_MONOTONIC, &t);
  return t.tv_sec * 1000000000L + t.tv_nsec;
}

/* Pushes W on the queue and wakes the service thread.  Signal-safe.  */
static void
cl_push (struct gomp_cl_pending *w)
{
  struct gomp_cl_pending *old = __atomic_load_n (&queue_head, __ATOMIC_RELAXED);
  do
    w->next = old;
  while (!__atomic_compare_exchange_n (&queue_head, &old, w, true,
				       __ATOMIC_RELEASE, __ATOMIC_RELAXED));
  __atomic_add_fetch (&queue_seq, 1, __ATOMIC_SEQ_CST);
  if (__atomic_load_n (&svc_sleeping, __ATOMIC_SEQ_CST))
    futex (&queue_seq, FUTEX_WAKE, 1, NULL);
}

void
gomp_cl_register (int tag, gomp_cl_handler h)
{
  if (tag <= 0 || tag >= GOMP_CL_TAG_MAX)
    cl_fatal ("bad tag in gomp_cl_register", 0);
  handlers[tag] = h;
}

int
gomp_cl_on_service_thread (void)
{
  return on_service_thread;
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
}

void
gomp_cl_call_async (int dest, int tag, const void *req, size_t len,
		    void *reply, size_t reply_max, struct gomp_cl_pending *w)
{
  if (__atomic_load_n (&svc_stop, __ATOMIC_ACQUIRE))
    {
      /* Nobody would ever answer: say so rather than hang.  */
      static const char msg[] = "ompcluster: internal error: a request "
	"to another node after the transport stopped\n";
      if (write (2, msg, sizeof msg - 1) < 0)
	abort ();
      abort ();
    }
  w->req = req;
  w->req_len = len;
  w->dest = dest;
  w->tag = tag;
  w->done = 0;
  w->len = 0;
  w->reply = reply;
  w->reply_max = reply_max;
  cl_push (w);
}

size_t
gomp_cl_call_wait (struct gomp_cl_pending *w)
{
  /* A round trip takes 10-20 us, far more when the cores are
     oversubscribed: spin a very little, then sleep.  */
  for (int i = 0; i < 100; i++)
    {
      if (__atomic_load_n (&w->done, __ATOMIC_ACQUIRE))
	return w->len;
      __builtin_ia32_pause ();
    }
  while (!__atomic_load_n (&w->done, __ATOMIC_ACQUIRE))
    futex (&w->done, FUTEX_WAIT, 0, NULL);
  return w->len;
}

size_t
gomp_cl_call (int dest, int tag, const void *req, size_t len, void *reply,
	      size_t reply_max)
{
  struct gomp_cl_pending w;
  gomp_cl_call_async (dest, tag, req, len, reply, reply_max, &w);
  return gomp_cl_call_wait (&w);
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
  s->mpi_tag = mpi_tag;
  s->size = HDR + len;
  memcpy (s->buf, &token, HDR);
  if (len)
    memcpy (s->buf + HDR, msg, len);
  return s;
}

/* Service thread: starts an MPI_Isend of SIZE bytes at BUF (freed with
   FREE_PTR when done).  */
static void
cl_isend (int dest, int mpi_tag, void *buf, size_t size, void *free_ptr)
{
  if (size > INT_MAX)
    cl_fatal ("message larger than 2 GiB", 0);
  if (n_inflight == cap_inflight)
    {
      cap_inflight = cap_inflight ? 2 * cap_inflight : 64;
      inflight = realloc (inflight, cap_inflight * sizeof *inflight);
      if (!inflight)
	cl_fatal ("out of memory", 0);
    }
  struct cl_inflight *f = &inflight[n_inflight++];
  f->buf = free_ptr;
  int err = MPI_Isend (buf, (int) size, MPI_BYTE, dest, mpi_tag, gomp_cl_comm,
		       &f->req);
  if (err != MPI_SUCCESS)
    cl_fatal ("MPI_Isend failed:", err);
  __atomic_add_fetch (&st_msgs_sent, 1, __ATOMIC_RELAXED);
  __atomic_add_fetch (&st_bytes_sent, size, __ATOMIC_RELAXED);
}

void
gomp_cl_send (int dest, int tag, const void *msg, size_t len)
{
  struct cl_send *s = cl_make_send (dest, tag, 0, msg, len);
  if (on_service_thread)
    cl_isend (dest, tag, s->buf, s->size, s);
  else
    cl_push (&s->w);
}

void
gomp_cl_reply (int src, uint64_t token, const void *msg, size_t len)
{
  struct cl_send *s = cl_make_send (src, TAG_REPLY, token, msg, len);
  if (on_service_thread)
    cl_isend (src, TAG_REPLY, s->buf, s->size, s);
  else
    cl_push (&s->w);
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
	  cl_isend (s->w.dest, s->mpi_tag, s->buf, s->size, s);
	}
      else
	{
	  /* A call: copy the request behind its token.  */
	  uint64_t token = (uintptr_t) w;
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
	n = w->reply_max;
      if (n)
	memcpy (w->reply, buf + HDR, n);
      w->len = len - HDR;
      __atomic_store_n (&w->done, 1, __ATOMIC_RELEASE);
      futex (&w->done, FUTEX_WAKE, INT_MAX, NULL);
      return 1;
    }
  if (tag <= 0 || tag >= GOMP_CL_TAG_MAX || !handlers[tag])
    cl_fatal ("message with an unknown tag", 0);
  deferred_now = 0;
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

static int
cl_poll (void)
{
  int any = 0;
  for (int i = 0; i < 16; i++)
    {
      int flag = 0, count;
      MPI_Status st;
      int err = MPI_Iprobe (MPI_ANY_SOURCE, MPI_ANY_TAG, gomp_cl_comm, &flag,
			    &st);
      if (err != MPI_SUCCESS)
	cl_fatal ("MPI_Iprobe failed:", err);
      if (!flag)
	break;
      MPI_Get_count (&st, MPI_BYTE, &count);
      char *buf = malloc (count ? count : 1);
      if (!buf)
	cl_fatal ("out of memory for a message", 0);
      err = MPI_Recv (buf, count, MPI_BYTE, st.MPI_SOURCE, st.MPI_TAG,
		      gomp_cl_comm, MPI_STATUS_IGNORE);
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
  return any;
}

static void *
cl_service (void *arg)
{
  long last = now_ns (), sleep_ns = 1000;
  on_service_thread = 1;
  prctl (PR_SET_TIMERSLACK, 1UL, 0, 0, 0);
  for (;;)
    {
      int any = cl_drain_queue ();
      if (deferred)
	any |= cl_retry_deferred ();
      any |= cl_poll ();
      if (n_inflight)
	any |= cl_test_inflight ();
      if (__atomic_load_n (&svc_stop, __ATOMIC_ACQUIRE) && !any
	  && !n_inflight && !__atomic_load_n (&queue_head, __ATOMIC_ACQUIRE))
	break;
      if (any)
	{
	  last = now_ns ();
	  sleep_ns = 1000;
	  continue;
	}
      if (now_ns () - last < SPIN_NS)
	{
	  /* Poll, but let the node's other threads (and, oversubscribed,
	     other ranks) have the core: they make the next request.  */
	  sched_yield ();
	  continue;
	}
      /* Sleep until a local request or the timeout, then poll MPI.  */
      __atomic_store_n (&svc_sleeping, 1, __ATOMIC_SEQ_CST);
      uint32_t seq = __atomic_load_n (&queue_seq, __ATOMIC_SEQ_CST);
      if (!__atomic_load_n (&queue_head, __ATOMIC_SEQ_CST)
	  && !__atomic_load_n (&svc_stop, __ATOMIC_SEQ_CST))
	{
	  struct timespec ts = { 0, sleep_ns };
	  futex (&queue_seq, FUTEX_WAIT, seq, &ts);
	}
      __atomic_store_n (&svc_sleeping, 0, __ATOMIC_SEQ_CST);
      /* Up to 100 us while recently busy; a node idle for long (rank 0
	 computing alone) polls less: 500 us after 50 ms, 2 ms after 1 s.  */
      long idle = now_ns () - last;
      long cap = idle < 50000000L ? SLEEP_MAX_NS
	: idle < 1000000000L ? 5 * SLEEP_MAX_NS : 20 * SLEEP_MAX_NS;
      if (sleep_ns < cap)
	sleep_ns *= 2;
    }
  return NULL;
}

void
gomp_cl_transport_init (MPI_Comm comm)
{
  gomp_cl_comm = comm;
  pthread_attr_t attr;
  pthread_attr_init (&attr);
  pthread_attr_setstacksize (&attr, 1 << 20);
  int err = pthread_create (&svc_thread, &attr, cl_service, NULL);
  pthread_attr_destroy (&attr);
  if (err)
    cl_fatal ("cannot start the service thread", 0);
}

/* Waits for REQ with backoff, the service thread still serving.  */
static void
cl_wait_request (MPI_Request *req)
{
  long sleep_ns = 1000, start = now_ns ();
  for (;;)
    {
      int flag = 0;
      MPI_Test (req, &flag, MPI_STATUS_IGNORE);
      if (flag)
	return;
      if (now_ns () - start < SPIN_NS)
	continue;
      struct timespec ts = { 0, sleep_ns };
      nanosleep (&ts, NULL);
      if (sleep_ns < SLEEP_MAX_NS)
	sleep_ns *= 2;
    }
}

void
gomp_cl_transport_fini (void)
{
  MPI_Request req;
  /* Once every node is here, no node sends requests any more.  */
  MPI_Ibarrier (gomp_cl_comm, &req);
  cl_wait_request (&req);
  __atomic_store_n (&svc_stop, 1, __ATOMIC_RELEASE);
  __atomic_add_fetch (&queue_seq, 1, __ATOMIC_SEQ_CST);
  futex (&queue_seq, FUTEX_WAKE, 1, NULL);
  pthread_join (svc_thread, NULL);
  /* Plain sends (no reply, e.g. a remote free) may still be on their way:
     receive and serve what arrived, and complete every send.  */
  on_service_thread = 1;
  while (cl_poll () || (deferred && cl_retry_deferred ()))
    ;
  while (n_inflight)
    cl_test_inflight ();
  on_service_thread = 0;
}
