/* loopback.c -- a backend of the transport (transport.h) for one node in
   one process, without MPI: every message goes to this node itself, and
   its handler runs at once on the sending thread (again and again while
   it defers the message).  A reply, now or later from any thread,
   completes the call.  It lets the DSM run without MPI in one process
   (testsuite/ompcluster.dsm/dsm-loopback.c); it is not part of
   ompcluster-mpi.so, whose backend is mpi.c (with call.c, service.c and
   stats.c).  Linked with say.c, backoff.c and cpu.c.  */

#define _GNU_SOURCE 1
#include "../transport.h"
#include "config/linux/futex.h"
#include <limits.h>
#include <sched.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static gomp_cl_handler handlers[GOMP_CL_TAG_MAX];
/* What the calling thread waited for replies (gomp_cl_thread_wait_ns).  */
static __thread uint64_t thread_wait_ns;
/* The calling thread runs a handler; the handler deferred its message.  */
static __thread bool in_handler, deferred;
static uint64_t st_msgs, st_bytes;

static void
lb_fatal (const char *what, int n)
{
  gomp_cl_say ("ompcluster: transport (loopback): %s %d\n", what, n);
  gomp_cl_abort_job (1);
}

/* Runs the handler of TAG on MSG until it does not defer.  */
static void
lb_deliver (int dest, int tag, const void *msg, size_t len, uint64_t token)
{
  if (dest != 0)
    lb_fatal ("a message to another node than 0:", dest);
  if (tag <= 0 || tag >= GOMP_CL_TAG_MAX || !handlers[tag])
    lb_fatal ("a message with no handler, tag", tag);
  __atomic_add_fetch (&st_msgs, 1, __ATOMIC_RELAXED);
  __atomic_add_fetch (&st_bytes, len, __ATOMIC_RELAXED);
  for (;;)
    {
      bool outer = in_handler;
      deferred = false;
      in_handler = true;
      handlers[tag] (0, msg, len, token);
      in_handler = outer;
      if (!deferred)
	return;
      sched_yield ();
    }
}

void
gomp_cl_transport_init (void)
{
}

void
gomp_cl_transport_fini (void)
{
}

void
gomp_cl_register (int tag, gomp_cl_handler h)
{
  handlers[tag] = h;
}

void
gomp_cl_register_quick (int tag, gomp_cl_handler h)
{
  handlers[tag] = h;
}

/* Fills W for a call of TAG to DEST with REQ and delivers it.  */
static void
lb_call (int dest, int tag, const void *req, size_t len,
	 struct gomp_cl_pending *w)
{
  w->req = req;
  w->req_len = len;
  w->dest = dest;
  w->tag = tag;
  lb_deliver (dest, tag, req, len, (uintptr_t) w);
}

void
gomp_cl_call_async_iov (int dest, int tag, const void *req, size_t len,
			const struct gomp_cl_iov *iov, int niov,
			struct gomp_cl_pending *w)
{
  memset (w, 0, sizeof *w);
  w->iov = iov;
  w->niov = niov;
  lb_call (dest, tag, req, len, w);
}

void
gomp_cl_call_async_tail (int dest, int tag, const void *req, size_t len,
			 void *reply, size_t reply_max, void *tail,
			 size_t tail_max, struct gomp_cl_pending *w)
{
  memset (w, 0, sizeof *w);
  w->reply = reply;
  w->reply_max = reply_max;
  w->tail = tail;
  w->tail_max = tail_max;
  lb_call (dest, tag, req, len, w);
}

void
gomp_cl_call_async (int dest, int tag, const void *req, size_t len,
		    void *reply, size_t reply_max, struct gomp_cl_pending *w)
{
  gomp_cl_call_async_tail (dest, tag, req, len, reply, reply_max, NULL, 0, w);
}

size_t
gomp_cl_call_wait (struct gomp_cl_pending *w)
{
  if (__atomic_load_n (&w->done, __ATOMIC_ACQUIRE) == 0)
    {
      /* Deferred: another thread of the process replies.  */
      long start = gomp_cl_now_ns ();
      while (__atomic_load_n (&w->done, __ATOMIC_ACQUIRE) == 0)
	gomp_futex_wait (&w->done, 0);
      thread_wait_ns += gomp_cl_now_ns () - start;
    }
  return w->len;
}

uint64_t
gomp_cl_thread_wait_ns (void)
{
  return thread_wait_ns;
}

size_t
gomp_cl_call_wait_serving (struct gomp_cl_pending *w)
{
  return gomp_cl_call_wait (w);
}

size_t
gomp_cl_call (int dest, int tag, const void *req, size_t len, void *reply,
	      size_t reply_max)
{
  struct gomp_cl_pending w;
  gomp_cl_call_async (dest, tag, req, len, reply, reply_max, &w);
  return gomp_cl_call_wait (&w);
}

size_t
gomp_cl_call_serving (int dest, int tag, const void *req, size_t len,
		      void *reply, size_t reply_max)
{
  return gomp_cl_call (dest, tag, req, len, reply, reply_max);
}

void
gomp_cl_defer (void)
{
  deferred = true;
}

int
gomp_cl_in_progress_pass (void)
{
  return in_handler;
}

bool
gomp_cl_progress (void)
{
  return false;
}

void
gomp_cl_poller_enter (void)
{
}

void
gomp_cl_poller_leave (void)
{
}

void
gomp_cl_send (int dest, int tag, const void *msg, size_t len)
{
  lb_deliver (dest, tag, msg, len, 0);
}

/* Copies N bytes from offset OFF of the pieces IOV[0..NIOV), taken one
   after the other, to DST.  */
static void
lb_gather (const struct gomp_cl_iov *iov, int niov, size_t off, void *dst,
	   size_t n)
{
  char *d = dst;
  for (int i = 0; i < niov && n; i++)
    {
      if (off >= iov[i].len)
	{
	  off -= iov[i].len;
	  continue;
	}
      size_t k = iov[i].len - off < n ? iov[i].len - off : n;
      memcpy (d, (const char *) iov[i].base + off, k);
      d += k;
      n -= k;
      off = 0;
    }
}

/* Copies the pieces IOV[0..NIOV) of a reply into W's memory: piece by
   piece into W's pieces when it has as many, else one after the other
   into its pieces, or into its buffer (what is past the buffer's room
   into its tail, as mpi.c does); completes W.  */
static void
lb_complete (struct gomp_cl_pending *w, const struct gomp_cl_iov *iov,
	     int niov)
{
  size_t full = 0, total = 0;
  for (int i = 0; i < niov; i++)
    full += iov[i].len;
  if (!w->iov)
    {
      total = full < w->reply_max ? full : w->reply_max;
      lb_gather (iov, niov, 0, w->reply, total);
      if (full > w->reply_max && w->tail)
	{
	  size_t t = full - w->reply_max;
	  lb_gather (iov, niov, w->reply_max, w->tail,
		     t < w->tail_max ? t : w->tail_max);
	}
    }
  else if (w->niov == niov)
    for (int i = 0; i < niov; i++)
      {
	size_t n = iov[i].len < w->iov[i].len ? iov[i].len : w->iov[i].len;
	memcpy (w->iov[i].base, iov[i].base, n);
	total += n;
      }
  else
    for (int to = 0; to < w->niov && total < full; to++)
      {
	size_t n = full - total < w->iov[to].len ? full - total : w->iov[to].len;
	lb_gather (iov, niov, total, w->iov[to].base, n);
	total += n;
      }
  w->len = w->iov ? total : full;
  __atomic_store_n (&w->done, 1, __ATOMIC_RELEASE);
  gomp_futex_wake (&w->done, INT_MAX);
}

void
gomp_cl_reply (int src, uint64_t token, const void *msg, size_t len)
{
  struct gomp_cl_iov iov = { (void *) msg, len };
  if (token)
    lb_complete ((struct gomp_cl_pending *) (uintptr_t) token, &iov, 1);
}

void
gomp_cl_reply_iov_owned (int src, uint64_t token,
			 const struct gomp_cl_iov *iov, int niov,
			 void *const *owned, int nowned)
{
  if (token)
    lb_complete ((struct gomp_cl_pending *) (uintptr_t) token, iov, niov);
  for (int i = 0; i < nowned; i++)
    free (owned[i]);
}

void
gomp_cl_reply_iov (int src, uint64_t token, const struct gomp_cl_iov *iov,
		   int niov, bool free_first)
{
  void *first = free_first && niov > 0 ? iov[0].base : NULL;
  gomp_cl_reply_iov_owned (src, token, iov, niov, &first, first ? 1 : 0);
}

void
gomp_cl_get_stats (struct gomp_cl_stats *s)
{
  memset (s, 0, sizeof *s);
  s->msgs_sent = s->msgs_recv = __atomic_load_n (&st_msgs, __ATOMIC_RELAXED);
  s->bytes_sent = s->bytes_recv
    = __atomic_load_n (&st_bytes, __ATOMIC_RELAXED);
}

void
gomp_cl_abort_job (int status)
{
  _exit (status);
}
