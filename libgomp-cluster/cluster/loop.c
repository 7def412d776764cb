/* loop.c -- dynamic, guided and runtime loop schedules across nodes
   (OpenMP 5.1 section 2.11.4): one global iteration counter per loop, kept
   by the loop's home rank, from which each node takes chunks of
   NODE_CHUNK iterations that the runtime then splits among its threads.

   A loop is named by the region's sequence number and the work share's
   number in the team, so the home can tell a new loop from an old one
   even when a node reaches the next region's loop before the home has
   left the previous region.  Counters of regions older than the previous
   one are dropped.  */

#include "cluster-int.h"
#include <pthread.h>
#include <stdlib.h>
#include <string.h>

struct gomp_cl_loop_req
{
  uint64_t seq, loop_id;
  int64_t start, end, incr, chunk;
};

struct gomp_cl_loop_reply
{
  int64_t istart, iend;
  int32_t more;
};

struct gomp_cl_loop
{
  uint64_t seq, loop_id;
  int64_t next, end, incr;
  struct gomp_cl_loop *chain;
};

static pthread_mutex_t gomp_cl_loop_mutex = PTHREAD_MUTEX_INITIALIZER;
static struct gomp_cl_loop *gomp_cl_loops;

/* Takes the next chunk of the loop R names; at the home.  */
static void
gomp_cl_loop_take (const struct gomp_cl_loop_req *r,
		   struct gomp_cl_loop_reply *out)
{
  struct gomp_cl_loop *l, **p;

  pthread_mutex_lock (&gomp_cl_loop_mutex);
  for (p = &gomp_cl_loops; (l = *p);)
    {
      if (l->seq == r->seq && l->loop_id == r->loop_id)
	break;
      if (l->seq + 1 < r->seq)
	{
	  *p = l->chain;
	  free (l);
	  continue;
	}
      p = &l->chain;
    }
  if (!l)
    {
      l = malloc (sizeof *l);
      if (!l)
	gomp_cl_fatal ("out of memory for a loop counter");
      l->seq = r->seq;
      l->loop_id = r->loop_id;
      l->next = r->start;
      l->end = r->end;
      l->incr = r->incr;
      l->chain = gomp_cl_loops;
      gomp_cl_loops = l;
    }
  int64_t left = l->incr > 0 ? (l->end - l->next + l->incr - 1) / l->incr
			     : (l->next - l->end - l->incr - 1) / -l->incr;
  if (left <= 0)
    out->more = 0;
  else
    {
      int64_t n = r->chunk < left ? r->chunk : left;
      if (n < 1)
	n = 1;
      out->more = 1;
      out->istart = l->next;
      l->next += n * l->incr;
      out->iend = l->next;
    }
  pthread_mutex_unlock (&gomp_cl_loop_mutex);
}

static void
gomp_cl_loop_handler (int src, const void *msg, size_t len, uint64_t token)
{
  struct gomp_cl_loop_req r;
  struct gomp_cl_loop_reply out;

  if (len != sizeof r)
    gomp_cl_fatal ("a loop request of %zu bytes came from rank %d", len,
		   src);
  memcpy (&r, msg, sizeof r);
  gomp_cl_loop_take (&r, &out);
  gomp_cl_reply (src, token, &out, sizeof out);
}

void
gomp_cl_loop_init (void)
{
  gomp_cl_register (GOMP_CL_TAG_LOOP, gomp_cl_loop_handler);
}

bool
gomp_cl_loop_next (unsigned long loop_id, long start, long end, long incr,
		   long node_chunk, long *istart, long *iend)
{
  struct gomp_cl_loop_req r = { gomp_cl_region_seq, loop_id, start, end,
				incr, node_chunk };
  struct gomp_cl_loop_reply out;
  int home = (int) ((loop_id * 0x9e3779b97f4a7c15ULL + gomp_cl_region_seq)
		    % (unsigned) gomp_cl_nodes);

  if (home == gomp_cl_rank)
    {
      gomp_cl_loop_take (&r, &out);
      __atomic_fetch_add (&gomp_cl_sync.loop_chunks_local, 1,
			  __ATOMIC_RELAXED);
    }
  else
    {
      size_t n = gomp_cl_call (home, GOMP_CL_TAG_LOOP, &r, sizeof r, &out,
			       sizeof out);
      if (n != sizeof out)
	gomp_cl_fatal ("a loop reply of %zu bytes came from rank %d", n,
		       home);
      __atomic_fetch_add (&gomp_cl_sync.loop_chunks_remote, 1,
			  __ATOMIC_RELAXED);
    }
  if (!out.more)
    return false;
  *istart = out.istart;
  *iend = out.iend;
  return true;
}
