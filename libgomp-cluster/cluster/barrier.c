/* barrier.c -- the inter-node part of a team barrier (OpenMP 5.1 section
   2.19.2), copyprivate's broadcast and flush.

   One thread per node calls the barrier, after the node's threads have all
   arrived.  It releases the node's writes (diffs to their homes; the
   write notices are added to the node's log, see notices.c), then every
   node gives every other its own notices since the last barrier in one
   all-gather of fixed slots (what does not fit follows in an
   all-gather-v), then acquires: invalidates what the others wrote, or
   updates it in place (every thread of the node waits here).  The
   slot also carries copyprivate's bytes from the node that ran the single
   construct, and flags the runtime ORs over the nodes (barrier_flags:
   cancellation, see the runtime's cancel.c).  Waits back off (wait.c, transport/backoff.c).

   The all-gather of the slots is made of point-to-point messages (Bruck's
   algorithm: ceil(log2 P) rounds; in the round of distance D a node sends
   the slots it has to the node D before it and receives as many from the
   node D after it), because MPICH's nonblocking collectives cost much
   more than their messages: here, with 2 ranks, MPI_Iallgather of 512
   bytes polled with MPI_Test took 0.68 us and MPI_Ibarrier 0.40 us,
   against 0.36 us for MPI_Barrier and 0.15 us for one message.  The
   messages go on the collective communicator with tags of their own
   (collectives and point-to-point messages never match each other).  */

#include "cluster-int.h"
#include "../dsm/report.h"
#include <stdlib.h>
#include <string.h>

/* Bytes of a slot after its header; more goes to the second round.  */
#define GOMP_CL_SLOT_INLINE 496

struct gomp_cl_slot
{
  uint64_t len;			/* Bytes of this node's contribution.  */
  uint64_t seq;			/* Its last release, this barrier's.  */
  uint32_t bcast_len;		/* Of which copyprivate's, first.  */
  uint16_t winner;
  uint16_t flags;		/* barrier_flags' FLAGS.  */
  unsigned char data[GOMP_CL_SLOT_INLINE];
};

/* Tag of round K of the exchange: GOMP_CL_EXCHANGE_TAG + K.  */
#define GOMP_CL_EXCHANGE_TAG 100

/* The slots of the exchange, one per node (SLOTS[J] is node (ME + J) %
   NODES's): allocated at the first barrier and kept, since one thread of a
   node at a time runs a barrier and the number of nodes never changes.  */
static struct gomp_cl_slot *gomp_cl_slots;

/* All-gather of MINE; returns the slots, the one of node R at index
   (R - ME) mod NODES.  */
static struct gomp_cl_slot *
gomp_cl_slots_exchange (const struct gomp_cl_slot *mine)
{
  int nodes = gomp_cl_nodes, me = gomp_cl_rank, rounds = 0;
  struct gomp_cl_slot *rot = gomp_cl_slots;
  MPI_Request recv[32], send[32];

  if (!rot)
    {
      rot = gomp_cl_slots = malloc (sizeof *rot * nodes);
      if (!rot)
	gomp_cl_fatal ("out of memory in a barrier");
    }
  memcpy (rot, mine, offsetof (struct gomp_cl_slot, data)
		     + (mine->len < GOMP_CL_SLOT_INLINE
			? mine->len : GOMP_CL_SLOT_INLINE));
  /* Every receive is posted first, so that no message waits unexpected.  */
  for (int d = 1; d < nodes; d <<= 1, rounds++)
    {
      int cnt = d < nodes - d ? d : nodes - d;
      int err = MPI_Irecv (&rot[d], cnt * sizeof *rot, MPI_BYTE,
			   (me + d) % nodes, GOMP_CL_EXCHANGE_TAG + rounds,
			   gomp_cl_coll_comm, &recv[rounds]);
      if (err != MPI_SUCCESS)
	gomp_cl_rank_lost ((me + d) % nodes, err);
    }
  for (int d = 1, k = 0; d < nodes; d <<= 1, k++)
    {
      int cnt = d < nodes - d ? d : nodes - d;
      /* A send to a rank that is gone fails at once (UCX: "Endpoint
	 timeout"): say which rank was lost, as the heartbeat would.  */
      int err = MPI_Isend (rot, cnt * sizeof *rot, MPI_BYTE,
			   (me - d + nodes) % nodes, GOMP_CL_EXCHANGE_TAG + k,
			   gomp_cl_coll_comm, &send[k]);
      if (err != MPI_SUCCESS)
	gomp_cl_rank_lost ((me - d + nodes) % nodes, err);
      gomp_cl_wait (&recv[k]);
      gomp_cl_count_msg (cnt * sizeof *rot);
    }
  for (int k = 0; k < rounds; k++)
    gomp_cl_wait (&send[k]);
  return rot;
}

/* Serves the other nodes for up to GOMP_CL_LINGER_NS while they fetch
   again the stack blocks this node's release announced (the data block
   of a region and the master's locals on rank 0's stack, which they
   update in place in their acquire): leaving at once, this node would
   compute the next region (its service thread asleep) while they wait
   for its answer, measured at 100-300 us per barrier in
   bench/apps/cg at 2 x 1.  A node that no longer reads them fetches
   nothing: the wait ends with its time limit, once, since then nobody
   holds them and the next release does not announce them.  Their fetch
   arrives within ~5 us; a 100 us limit made bench/cluster/cmicro.c's
   remote read fault at 2 x 1 10-11 us instead of 6-7 (the cause not
   found: the limit was hit once per region there), 20 us keeps both.  */
#define GOMP_CL_LINGER_NS 20000L
static void
gomp_cl_linger (void)
{
  if (!gomp_dsm_refetch_pending ())
    return;
  double start = gomp_cl_now ();
  gomp_cl_poller_enter ();
  do
    {
      if (!gomp_cl_progress ())
	__builtin_ia32_pause ();
    }
  while (gomp_dsm_refetch_pending ()
	 && gomp_cl_now () - start < GOMP_CL_LINGER_NS * 1e-9);
  gomp_cl_poller_leave ();
}

/* The barrier; returns the OR of every node's FLAGS.  */
static unsigned
gomp_cl_barrier_exchange (void *buf, size_t len_in, bool winner,
			  unsigned flags)
{
  int nodes = gomp_cl_nodes, me = gomp_cl_rank;
  struct gomp_cl_slot mine, *rot, *slots[nodes];
  unsigned char *contrib = mine.data, *big = NULL;
  void *notices, *handoffs;
  size_t notices_len, handoffs_len, len;
  size_t bcast_len = winner ? len_in : 0;
  MPI_Request req;
  double t0 = gomp_cl_stats_enabled ? gomp_cl_now () : 0;

  gomp_cl_release ();
  notices_len = gomp_cl_log_pack_barrier (&notices);
  handoffs_len = gomp_cl_handoffs_pack (&handoffs);
  len = bcast_len + notices_len + handoffs_len;
  /* The contribution is built in the slot when it fits (the usual case:
     nothing, or a few notices).  */
  if (len > GOMP_CL_SLOT_INLINE && !(contrib = malloc (len)))
    gomp_cl_fatal ("out of memory in a barrier");
  if (bcast_len)
    memcpy (contrib, buf, bcast_len);
  if (notices_len)
    memcpy (contrib + bcast_len, notices, notices_len);
  free (notices);
  if (handoffs_len)
    memcpy (contrib + bcast_len + notices_len, handoffs, handoffs_len);
  free (handoffs);

  mine.len = len;
  mine.seq = gomp_cl_log_own_seq ();
  mine.bcast_len = bcast_len;
  mine.winner = winner;
  mine.flags = flags;
  if (contrib != mine.data)
    memcpy (mine.data, contrib, GOMP_CL_SLOT_INLINE);
  rot = gomp_cl_slots_exchange (&mine);
  for (int j = 0; j < nodes; j++)
    slots[(me + j) % nodes] = &rot[j];

  /* The second round, for contributions that did not fit.  */
  const unsigned char *data[nodes];
  size_t total = 0, any = 0;
  for (int r = 0; r < nodes; r++)
    {
      data[r] = slots[r]->data;
      any |= slots[r]->len;
      if (slots[r]->len > GOMP_CL_SLOT_INLINE)
	total += slots[r]->len;
    }
  if (total)
    {
      int *counts = malloc (sizeof (int) * nodes);
      int *displs = malloc (sizeof (int) * nodes);
      big = malloc (total);
      if (!counts || !displs || !big)
	gomp_cl_fatal ("out of memory in a barrier");
      if (total > INT32_MAX)
	gomp_cl_fatal ("%zu bytes of write notices in one barrier are more "
		       "than MPI can gather", total);
      size_t off = 0;
      for (int r = 0; r < nodes; r++)
	{
	  counts[r] = slots[r]->len > GOMP_CL_SLOT_INLINE ? slots[r]->len : 0;
	  displs[r] = off;
	  if (counts[r])
	    data[r] = big + off;
	  off += counts[r];
	}
      gomp_cl_check_mpi (MPI_Iallgatherv (contrib, counts[me], MPI_BYTE,
					  big, counts, displs, MPI_BYTE,
					  gomp_cl_coll_comm, &req),
			 "MPI_Iallgatherv");
      gomp_cl_wait (&req);
      gomp_cl_count_msg (counts[me]);
      free (counts);
      free (displs);
    }

  /* Homes handed over first, so that the acquires ask the new homes.  A
     barrier where no node contributed anything has none.  */
  if (any)
    {
      const unsigned char *own[nodes];
      size_t own_lens[nodes];
      for (int r = 0; r < nodes; r++)
	{
	  own[r] = data[r] + slots[r]->bcast_len;
	  own_lens[r] = slots[r]->len - slots[r]->bcast_len;
	}
      gomp_cl_handoffs_apply (own, own_lens);
    }

  /* Acquire and copyprivate.  */
  uint64_t seqs[nodes];
  for (int r = 0; r < nodes; r++)
    {
      flags |= slots[r]->flags;
      seqs[r] = slots[r]->seq;
      if (slots[r]->winner && !winner && buf)
	memcpy (buf, data[r], slots[r]->bcast_len < len_in
			      ? slots[r]->bcast_len : len_in);
      if (r != me)
	{
	  /* Every thread of the node waits in this barrier.  */
	  gomp_cl_acquire_contrib (data[r] + slots[r]->bcast_len,
				   slots[r]->len - slots[r]->bcast_len,
				   gomp_cl_seen (r));
	  gomp_cl_pull_seen (r, slots[r]->seq);
	}
    }
  gomp_dsm_acquired_upto (seqs);
  /* Blocks updated in place may hold releases made after the barrier.  */
  gomp_cl_catch_up (false);
  if (gomp_dsm_report_on)
    gomp_dsm_report_interval_end ();
  gomp_cl_linger ();
  gomp_cl_log_clear ();
  free (big);
  if (contrib != mine.data)
    free (contrib);
  gomp_cl_sync.barriers++;
  if (gomp_cl_stats_enabled)
    gomp_cl_sync.barrier_time += gomp_cl_now () - t0;
  return flags;
}

void
gomp_cl_barrier (void)
{
  gomp_cl_barrier_exchange (NULL, 0, false, 0);
}

void
gomp_cl_barrier_bcast (void *buf, size_t len, bool winner)
{
  gomp_cl_barrier_exchange (buf, len, winner, 0);
}

unsigned
gomp_cl_barrier_flags (void *buf, size_t len, bool winner, unsigned flags)
{
  if (flags > UINT16_MAX)
    gomp_cl_fatal ("barrier flags %#x do not fit in a slot", flags);
  return gomp_cl_barrier_exchange (buf, len, winner, flags);
}

/* A flush without a partner: this node's writes go to their homes, and
   what the other nodes released becomes visible (pull.c).  */
void
gomp_cl_flush (void)
{
  gomp_cl_release ();
  gomp_cl_acquire_pull ();
}
