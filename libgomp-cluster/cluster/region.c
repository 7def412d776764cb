/* region.c -- handing top-level parallel regions (and the program's end)
   from rank 0 to the other ranks.

   One message from rank 0 to every other rank per region: the outlined
   function and its data block (valid on every node: the code is at the
   same address everywhere and the data block lives on rank 0's stack,
   inside the shared segment), the team size, and rank 0's write notices
   since the last barrier, so that what rank 0's serial code wrote is seen
   by the region (the entry of a parallel region is a release on the
   master and an acquire on the others; OpenMP 5.1 section 1.4.4), with
   the contents of rank 0's stack blocks that the others will read at once
   (the DSM's push: gomp_cl_log_push, gomp_dsm_push_pack).  The
   other ranks always have the receive of the next one posted and test it
   while they wait for anything else, so that the end of the program
   reaches them wherever they are.

   Point-to-point messages on the dispatch communicator rather than
   MPI_Ibcast: MPICH's nonblocking collectives cost several times their
   messages (barrier.c), and a message carries only the bytes used, not
   the whole inline area.  Rank 0 sends P - 1 of them (nonblocking, small:
   eager), which is cheap at the node counts this runtime meets; a tree
   would be the next step for hundreds of nodes.  */

#include "cluster-int.h"
#include <stdlib.h>
#include <string.h>

enum gomp_cl_dispatch_kind
{
  GOMP_CL_DISPATCH_REGION = 1,
  GOMP_CL_DISPATCH_EXIT = 2
};

/* Notices that do not fit inline follow in a second message.  */
#define GOMP_CL_DISPATCH_INLINE 960
/* Tags of the dispatch and of its overflow.  */
#define GOMP_CL_DISPATCH_TAG 1
#define GOMP_CL_DISPATCH_MORE_TAG 2

struct gomp_cl_dispatch
{
  uint32_t kind;
  uint32_t nthreads;
  uint32_t flags;
  int32_t status;
  uint64_t fn, data;
  uint64_t seq;
  uint64_t released;		/* Rank 0's last release, this one.  */
  uint64_t notices_len;
  unsigned char notices[GOMP_CL_DISPATCH_INLINE];
};

unsigned long gomp_cl_region_seq;

/* Ranks other than 0: the posted receive, and whether it completed
   (possibly inside another wait).  */
static struct gomp_cl_dispatch gomp_cl_incoming;
static MPI_Request gomp_cl_dispatch_req = MPI_REQUEST_NULL;
static bool gomp_cl_dispatch_ready;
static bool gomp_cl_exiting;

/* Sends LEN bytes at BUF with TAG to every other rank and waits until
   every send is done.  */
static void
gomp_cl_dispatch_to_all (const void *buf, size_t len, int tag)
{
  static MPI_Request *reqs;

  if (!reqs && !(reqs = malloc (sizeof *reqs * gomp_cl_nodes)))
    gomp_cl_fatal ("out of memory");
  if (len > INT32_MAX)
    gomp_cl_fatal ("%zu bytes of write notices in one dispatch are more "
		   "than MPI can send", len);
  for (int r = 1; r < gomp_cl_nodes; r++)
    {
      /* A rank that is gone: name it (barrier.c).  */
      int err = MPI_Isend (buf, len, MPI_BYTE, r, tag, gomp_cl_dispatch_comm,
			   &reqs[r]);
      if (err != MPI_SUCCESS)
	gomp_cl_rank_lost (r, err);
    }
  for (int r = 1; r < gomp_cl_nodes; r++)
    {
      gomp_cl_wait (&reqs[r]);
      gomp_cl_count_msg (len);
    }
}

/* Sends MSG (and the overflow of its notices) from rank 0.  */
static void
gomp_cl_dispatch_send (struct gomp_cl_dispatch *msg, const void *notices)
{
  size_t used = offsetof (struct gomp_cl_dispatch, notices);

  if (msg->notices_len <= GOMP_CL_DISPATCH_INLINE)
    used += msg->notices_len;
  gomp_cl_dispatch_to_all (msg, used, GOMP_CL_DISPATCH_TAG);
  if (msg->notices_len > GOMP_CL_DISPATCH_INLINE)
    gomp_cl_dispatch_to_all (notices, msg->notices_len,
			     GOMP_CL_DISPATCH_MORE_TAG);
}

void
gomp_cl_region_start (void (*fn) (void *), void *data, unsigned nthreads,
		      unsigned flags)
{
  struct gomp_cl_dispatch msg;
  void *notices;

  gomp_cl_release ();
  memset (&msg, 0, offsetof (struct gomp_cl_dispatch, notices));
  msg.kind = GOMP_CL_DISPATCH_REGION;
  msg.nthreads = nthreads;
  msg.flags = flags;
  msg.fn = (uintptr_t) fn;
  msg.data = (uintptr_t) data;
  msg.seq = ++gomp_cl_region_seq;
  msg.released = gomp_cl_log_own_seq ();
  msg.notices_len = gomp_cl_log_pack (&notices, true);
  /* The data block and the locals it points to, which every node reads
     first: sent along, not fetched from a rank that is already busy with
     the region.  */
  msg.notices_len = gomp_cl_log_push (&notices, msg.notices_len);
  if (msg.notices_len && msg.notices_len <= GOMP_CL_DISPATCH_INLINE)
    memcpy (msg.notices, notices, msg.notices_len);
  gomp_cl_dispatch_send (&msg, notices);
  gomp_cl_log_dispatched (msg.released);
  free (notices);
  gomp_cl_sync.regions++;
}

void
gomp_cl_dispatch_exit (int status)
{
  struct gomp_cl_dispatch msg;

  memset (&msg, 0, sizeof msg);
  msg.kind = GOMP_CL_DISPATCH_EXIT;
  msg.status = status;
  gomp_cl_dispatch_send (&msg, NULL);
}

void
gomp_cl_dispatch_post (void)
{
  gomp_cl_dispatch_ready = false;
  gomp_cl_check_mpi (MPI_Irecv (&gomp_cl_incoming, sizeof gomp_cl_incoming,
				MPI_BYTE, 0, GOMP_CL_DISPATCH_TAG,
				gomp_cl_dispatch_comm, &gomp_cl_dispatch_req),
		     "MPI_Irecv");
}

void
gomp_cl_dispatch_poll (void)
{
  int done = 0;

  if (gomp_cl_exiting || gomp_cl_dispatch_ready
      || gomp_cl_dispatch_req == MPI_REQUEST_NULL)
    return;
  gomp_cl_check_mpi (MPI_Test (&gomp_cl_dispatch_req, &done,
			       MPI_STATUS_IGNORE), "MPI_Test");
  if (!done)
    return;
  gomp_cl_dispatch_ready = true;
  if (gomp_cl_incoming.kind == GOMP_CL_DISPATCH_EXIT)
    {
      /* Rank 0 ended the program while this rank was busy (exit() inside
	 a region): end in step with it.  */
      gomp_cl_exiting = true;
      gomp_cl_finish (gomp_cl_incoming.status);
    }
}

int
gomp_cl_serve (void)
{
  for (;;)
    {
      if (!gomp_cl_dispatch_ready)
	{
	  /* While it spins, this thread also serves the other nodes (rank
	     0's serial code reading what the region left here), as
	     gomp_cl_wait does; then the service thread takes over.  */
	  struct gomp_cl_backoff b;
	  int done = 0;
	  bool polling = true;
	  gomp_cl_backoff_init (&b);
	  gomp_cl_poller_enter ();
	  for (;;)
	    {
	      gomp_cl_check_mpi (MPI_Test (&gomp_cl_dispatch_req, &done,
					   MPI_STATUS_IGNORE), "MPI_Test");
	      if (done)
		break;
	      if (gomp_cl_progress ())
		{
		  if (!polling)
		    gomp_cl_poller_enter ();
		  polling = true;
		  gomp_cl_backoff_init (&b);
		}
	      gomp_cl_backoff_pause (&b);
	      if (polling && b.sleep_ns > 0)
		{
		  gomp_cl_poller_leave ();
		  polling = false;
		}
	    }
	  if (polling)
	    gomp_cl_poller_leave ();
	}
      struct gomp_cl_dispatch msg = gomp_cl_incoming;
      void *notices = msg.notices;
      if (msg.kind == GOMP_CL_DISPATCH_EXIT)
	{
	  gomp_cl_exiting = true;
	  return msg.status;
	}
      if (msg.kind != GOMP_CL_DISPATCH_REGION)
	gomp_cl_fatal ("unknown dispatch %u from rank 0", msg.kind);
      if (msg.notices_len > GOMP_CL_DISPATCH_INLINE)
	{
	  MPI_Request req;
	  notices = malloc (msg.notices_len);
	  if (!notices)
	    gomp_cl_fatal ("out of memory for write notices");
	  gomp_cl_check_mpi (MPI_Irecv (notices, msg.notices_len, MPI_BYTE,
					0, GOMP_CL_DISPATCH_MORE_TAG,
					gomp_cl_dispatch_comm, &req),
			     "MPI_Irecv");
	  gomp_cl_wait (&req);
	}
      /* The next receive is posted before the region runs, so that its
	 waits can see the program's end.  */
      gomp_cl_dispatch_post ();
      /* The pushed blocks are as rank 0's release MSG.RELEASED left
	 them.  A node that already acquired a later release of rank 0
	 (the catch-up of the barrier before, when rank 0 left it first
	 and wrote them again in this region, which a fetch then served)
	 may hold newer copies, and would not be told of those writes
	 again: the push must not overwrite them.  A node that acquired
	 MSG.RELEASED already (that catch-up, which pulled every release of
	 rank 0 up to one at least as late) has acquired the notices too:
	 acquired again, they would make it invalidate the blocks it has
	 just taken again, among them the one holding the region's data,
	 which it reads first thing.  */
      uint64_t seen = gomp_cl_seen (0);
      gomp_cl_acquire_dispatch (notices, msg.notices_len,
				seen <= msg.released, seen < msg.released);
      if (notices != msg.notices)
	free (notices);
      gomp_cl_pull_seen (0, msg.released);
      gomp_cl_catch_up (false);
      gomp_cl_region_seq = msg.seq;
      gomp_cl_sync.regions++;
      gomp_cl_host->run_region ((void (*) (void *)) (uintptr_t) msg.fn,
				(void *) (uintptr_t) msg.data, msg.nthreads,
				msg.flags);
    }
}
