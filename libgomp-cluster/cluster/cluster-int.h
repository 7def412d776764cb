/* cluster-int.h -- the cluster module's private declarations (gomp_cl_*),
   grouped by the file that defines them.  The module is
   lib/ompcluster-mpi.so: it links MPI and is dlopen()ed by the runtime's
   start.c when the program runs on several nodes (see ../cluster.h).

   Process model.  One MPI rank per node.  Rank 0's initial thread runs the
   user's main; the initial thread of every other rank waits for region
   dispatches (region.c) and runs its node's part of each region through
   the runtime's host->run_region.  Four communicators, all dups of
   MPI_COMM_WORLD: the transport's (point-to-point messages served by the
   service thread: locks, loops, the DSM), the dispatch one (one message
   from rank 0 to each rank per region and one at exit, its receive always
   posted on ranks other than 0), the collective one (barriers -- their
   point-to-point exchange -- and the final handshake) and the heartbeats'
   one, which only heartbeat.c's thread uses.  Collectives on one
   communicator are started in the same order on every rank because only
   one thread per node uses each.  */

#ifndef OMPC_CLUSTER_INT_H
#define OMPC_CLUSTER_INT_H 1

#define _GNU_SOURCE 1
#include <mpi.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <time.h>
#include "../cluster.h"
#include "../dsm/dsm.h"
#include "../transport/transport.h"

#define GOMP_CL_HIDDEN __attribute__ ((visibility ("hidden")))

/* module.c: start-up, the operations table, errors.  */
extern struct gomp_cluster_host *gomp_cl_host GOMP_CL_HIDDEN;
extern struct gomp_cluster_ops gomp_cl_ops GOMP_CL_HIDDEN;
extern int gomp_cl_rank GOMP_CL_HIDDEN;
extern int gomp_cl_nodes GOMP_CL_HIDDEN;
extern MPI_Comm gomp_cl_dispatch_comm GOMP_CL_HIDDEN;
extern MPI_Comm gomp_cl_coll_comm GOMP_CL_HIDDEN;
/* A fatal error found by the module: the runtime prints it (naming the
   rank and thread) and ends the job.  */
extern void gomp_cl_fatal (const char *fmt, ...)
  __attribute__ ((format (printf, 1, 2), noreturn)) GOMP_CL_HIDDEN;
/* Fails with the MPI error text of ERR for the call WHAT.  */
extern void gomp_cl_check_mpi (int err, const char *what) GOMP_CL_HIDDEN;

/* wait.c: waiting for MPI requests without burning a core, with the
   transport's back-off (struct gomp_cl_backoff), serving other nodes'
   requests while it spins (transport.h's gomp_cl_progress).  */
/* Measures whether this machine's processors are oversubscribed; after
   MPI_Init.  */
extern void gomp_cl_wait_init (void) GOMP_CL_HIDDEN;
/* Completes REQ, backing off.  On ranks other than 0 it also watches the
   posted dispatch receive: if rank 0 ends the program while this rank
   waits (exit() inside a region), the rank exits with rank 0's status.  */
extern void gomp_cl_wait (MPI_Request *req) GOMP_CL_HIDDEN;
extern double gomp_cl_now (void) GOMP_CL_HIDDEN;

/* notices.c: this node's log of write notices since the last barrier.
   Each entry is one blob returned by a gomp_dsm_release, here or on
   another node (received with a lock's token).  The barrier sends the
   node's own entries; a lock's token carries all of them, so that
   visibility is transitive across locks.  Identical entries are kept
   once.  Thread-safe.  */
extern void gomp_cl_log_add (int origin, const void *blob, size_t len)
  GOMP_CL_HIDDEN;
/* gomp_dsm_release, its blob added to the log (own entry).  */
extern void gomp_cl_release (void) GOMP_CL_HIDDEN;
/* The number of this node's last release (its log's own sequence).  */
extern uint64_t gomp_cl_log_own_seq (void) GOMP_CL_HIDDEN;
/* For a handler: true if no release runs on this node now, which then
   cannot start until gomp_cl_release_unlock.  */
extern bool gomp_cl_release_trylock (void) GOMP_CL_HIDDEN;
extern void gomp_cl_release_unlock (void) GOMP_CL_HIDDEN;
/* Packs into BUF (at most MAX bytes) this node's own entries released
   after its release number SINCE, as gomp_cl_log_pack's records;
   returns their length, or SIZE_MAX when they do not fit.  *SEQ gets
   the number of the last release.  */
extern size_t gomp_cl_log_pack_since (uint64_t since, void *buf,
				      size_t max, uint64_t *seq)
  GOMP_CL_HIDDEN;
/* Writes into BUF the 8-byte record that stands for "acquire
   everything"; returns 8.  */
extern size_t gomp_cl_log_all_record (void *buf) GOMP_CL_HIDDEN;
/* Serialises the log (records: int32 origin, uint32 length, bytes) into a
   malloc'ed buffer; OWN_ONLY keeps only this node's entries.  */
extern size_t gomp_cl_log_pack (void **buf, bool own_only) GOMP_CL_HIDDEN;
/* A barrier's contribution: this node's own entries, those that rank 0
   sent with its last region's dispatch marked as acquired already.  */
extern size_t gomp_cl_log_pack_barrier (void **buf) GOMP_CL_HIDDEN;
/* Rank 0, once a region's dispatch reached every node: its notices of
   the releases up to SEQ are acquired everywhere.  */
extern void gomp_cl_log_dispatched (uint64_t seq) GOMP_CL_HIDDEN;
/* Rank 0 at a region's start: appends to the packed log *BUF of LEN
   bytes (reallocated) a record of the blocks the DSM pushes with the
   dispatch (gomp_dsm_push_pack); returns the new length.  */
extern size_t gomp_cl_log_push (void **buf, size_t len) GOMP_CL_HIDDEN;
/* Adds the records of a packed log received from another node to the
   log.  */
extern void gomp_cl_log_merge (const void *buf, size_t len) GOMP_CL_HIDDEN;
/* Acquire: invalidates what the records in BUF (a packed log) name, except
   this node's own entries.  QUIESCENT as gomp_dsm_acquire's: no thread
   of this node runs program code meanwhile (a barrier's inter-node
   part).  */
extern void gomp_cl_acquire_packed (const void *buf, size_t len,
				    bool quiescent) GOMP_CL_HIDDEN;
/* The quiescent acquire of another node's barrier contribution BUF (from
   gomp_cl_log_pack_barrier): its entries from releases at or before
   PULLED (what this node had pulled from it, gomp_cl_seen) are not
   acquired again.  */
extern void gomp_cl_acquire_contrib (const void *buf, size_t len,
				     uint64_t pulled) GOMP_CL_HIDDEN;
/* The same for a region's dispatch; PUSH: install the blocks rank 0
   pushed along (else only their notices count, as any other); NOTICES:
   acquire the notices (false: this node acquired them already).  */
extern void gomp_cl_acquire_dispatch (const void *buf, size_t len,
				      bool push, bool notices) GOMP_CL_HIDDEN;
/* After a barrier every node has every entry: empties the log.  */
extern void gomp_cl_log_clear (void) GOMP_CL_HIDDEN;

/* pull.c: an acquire with no partner (a flush, an acquire atomic) asks
   every other node for the write notices it released since it last
   answered this node, and for its home blocks written since its last
   release, and invalidates what they name.  From program threads only
   (never a handler, never signal context).  */
extern void gomp_cl_pull_init (void) GOMP_CL_HIDDEN;
extern void gomp_cl_acquire_pull (void) GOMP_CL_HIDDEN;
/* Pulls from every node whose label on a block fetched here is newer
   than its releases this node acquired (dsm.h, gomp_dsm_catch_up);
   IN_FAULT: from the DSM's fault handler.  */
extern void gomp_cl_catch_up (bool in_fault) GOMP_CL_HIDDEN;
/* This node acquired every release of rank R up to SEQ (a barrier): a
   pull or a catch-up need not ask for them again.  */
extern void gomp_cl_pull_seen (int r, uint64_t seq) GOMP_CL_HIDDEN;
/* The last release of rank R this node has acquired.  */
extern uint64_t gomp_cl_seen (int r) GOMP_CL_HIDDEN;
/* What this node has acquired from each node, directly or through a
   log another node passed on (a lock's token, a steal), which only the
   answers to pulls name: writes the vector (8 bytes a node) to BUF, or
   raises it to the one at BUF (unaligned).  */
extern void gomp_cl_acquired_pack (void *buf) GOMP_CL_HIDDEN;
extern void gomp_cl_acquired_merge (const void *buf) GOMP_CL_HIDDEN;

/* region.c: dispatch of top-level regions and of the end.  */
extern void gomp_cl_region_start (void (*fn) (void *), void *data,
				  unsigned nthreads, unsigned flags)
  GOMP_CL_HIDDEN;
/* Ranks other than 0: posts the first dispatch receive.  */
extern void gomp_cl_dispatch_post (void) GOMP_CL_HIDDEN;
/* Ranks other than 0: serves dispatches until rank 0 ends; returns rank
   0's exit status.  */
extern int gomp_cl_serve (void) GOMP_CL_HIDDEN;
/* Ranks other than 0: tests the posted dispatch without waiting; if it is
   rank 0's end, ends this rank (gomp_cl_finish).  Called from waits.  */
extern void gomp_cl_dispatch_poll (void) GOMP_CL_HIDDEN;
/* Rank 0: tells every other rank that the program ended with STATUS.  */
extern void gomp_cl_dispatch_exit (int status) GOMP_CL_HIDDEN;

/* barrier.c: the inter-node barrier, copyprivate's broadcast, flush.  */
extern void gomp_cl_barrier (void) GOMP_CL_HIDDEN;
extern void gomp_cl_barrier_bcast (void *buf, size_t len, bool winner)
  GOMP_CL_HIDDEN;
extern unsigned gomp_cl_barrier_flags (void *buf, size_t len, bool winner,
				       unsigned flags) GOMP_CL_HIDDEN;
extern void gomp_cl_flush (void) GOMP_CL_HIDDEN;

/* cancel.c: a cancellation tells the other nodes (cluster.h's cancel).  */
extern void gomp_cl_cancel_init (void) GOMP_CL_HIDDEN;
extern void gomp_cl_cancel (uint64_t region, unsigned what) GOMP_CL_HIDDEN;

/* lock.c: cluster-wide locks named by address.  */
extern void gomp_cl_lock_init (void) GOMP_CL_HIDDEN;
extern void gomp_cl_lock (void *key) GOMP_CL_HIDDEN;
extern bool gomp_cl_try_lock (void *key) GOMP_CL_HIDDEN;
extern void gomp_cl_unlock (void *key) GOMP_CL_HIDDEN;

/* steal.c: deferred tasks taken by other nodes (cluster.h's task_*).  */
extern void gomp_cl_steal_init (void) GOMP_CL_HIDDEN;
extern int gomp_cl_task_steal (int victim, uint64_t epoch,
			       const uint64_t *roots, unsigned nroots,
			       unsigned max_tasks, void *buf, size_t max,
			       size_t *len) GOMP_CL_HIDDEN;
extern void gomp_cl_task_serve (void) GOMP_CL_HIDDEN;
extern void gomp_cl_task_done (int victim, uint64_t id, uint64_t start_ns,
			       const struct gomp_cluster_task_time *times,
			       unsigned ntimes) GOMP_CL_HIDDEN;
extern void gomp_cl_task_take_done (void) GOMP_CL_HIDDEN;
extern void gomp_cl_task_fulfill (int node, uint64_t event) GOMP_CL_HIDDEN;
extern void gomp_cl_task_announce (uint64_t interval) GOMP_CL_HIDDEN;
extern uint64_t gomp_cl_steal_given, gomp_cl_steal_got, gomp_cl_steal_bytes
  GOMP_CL_HIDDEN;

/* loop.c: global iteration counters of dynamic and guided loops.  */
extern void gomp_cl_loop_init (void) GOMP_CL_HIDDEN;
extern bool gomp_cl_loop_next (unsigned long loop_id, long start, long end,
			       long incr, long node_chunk, long *istart,
			       long *iend) GOMP_CL_HIDDEN;
/* The sequence number of the current top-level region (region.c).  */
extern unsigned long gomp_cl_region_seq GOMP_CL_HIDDEN;

/* main.c: the program's life on every rank.  */
extern void gomp_cl_run_main (int (*user_main) (int, char **, char **),
			      int argc, char **argv, char **envp)
  __attribute__ ((noreturn)) GOMP_CL_HIDDEN;
extern void gomp_cl_shutdown (int status) GOMP_CL_HIDDEN;
/* Rank 0: serves the other ranks' requests to end the job for an exit()
   (GOMP_CL_TAG_CONTROL); before the transport starts.  */
extern void gomp_cl_exit_init (void) GOMP_CL_HIDDEN;
/* Fatal signals on any rank end the whole job (MPI_Abort); after MPI_Init
   (UCX installs its own handlers) and before the DSM's fault handler,
   which passes on the faults that are not its own.  */
extern void gomp_cl_crash_init (void) GOMP_CL_HIDDEN;
extern void gomp_cl_abort (int status) __attribute__ ((noreturn))
  GOMP_CL_HIDDEN;
/* Ends this rank in step with the others (final handshake, stats, transport
   shut down) with STATUS; never returns on ranks other than 0.  */
extern void gomp_cl_finish (int status) GOMP_CL_HIDDEN;

/* output.c: the standard output of the ranks other than 0, written by
   rank 0 in the program's order (OMPC_ORDERED_OUTPUT).  init: before the
   transport starts; on rank 0 it serves the others' chunks, elsewhere
   (with ORDERED) it takes descriptor 1 over.  release: at every release,
   before it (what this rank printed is in rank 0's stream when it
   returns).  end: when the job ends in step, with the transport up.
   fatal: the rest straight to the original descriptor (async-signal-safe;
   gomp_cl_abort_hook).  */
extern void gomp_cl_output_init (bool ordered) GOMP_CL_HIDDEN;
extern void gomp_cl_output_release (void) GOMP_CL_HIDDEN;
extern void gomp_cl_output_end (void) GOMP_CL_HIDDEN;
extern void gomp_cl_output_fatal (void) GOMP_CL_HIDDEN;

/* heartbeat.c: liveness.  A rank silent for OMPC_HEARTBEAT seconds (rank
   0 watches every rank, the others watch rank 0) ends the job, named with
   its host.  start (a collective, on every rank, after the transport
   started) gathers the host names and starts the heartbeat thread; stop
   (in gomp_cl_finish, once every rank is ending, before the transport
   stops) ends it.  */
extern void gomp_cl_heartbeat_start (void) GOMP_CL_HIDDEN;
extern void gomp_cl_heartbeat_stop (void) GOMP_CL_HIDDEN;
/* The host name of RANK (gethostname on that rank), for messages.  */
extern const char *gomp_cl_host_name (int rank) GOMP_CL_HIDDEN;
/* MPI reported the connection to rank R broken (ERR, e.g. a send of the
   barrier's exchange to a rank that is gone): ends the job as a lost rank
   does (the heartbeat's message and status).  */
extern void gomp_cl_rank_lost (int r, int err)
  __attribute__ ((noreturn)) GOMP_CL_HIDDEN;

/* startwatch.c: around MPI_Init_thread (start before it, end after it),
   a rank whose partners do not start MPI within OMPC_HEARTBEAT seconds
   (a program not built with the plugin on some rank) ends with a message
   saying so.  */
extern void gomp_cl_start_watch (void) GOMP_CL_HIDDEN;
extern void gomp_cl_start_watch_end (void) GOMP_CL_HIDDEN;

/* report.c: the sharing report (OMPC_REPORT).  init after gomp_dsm_init;
   gather in gomp_cl_finish on every rank while the ranks still serve
   each other; write on rank 0 once every rank has ended its part.  */
extern void gomp_cl_report_init (void) GOMP_CL_HIDDEN;
extern void gomp_cl_report_gather (void) GOMP_CL_HIDDEN;
extern void gomp_cl_report_write (void) GOMP_CL_HIDDEN;

/* stats.c: OMPC_STATS=1 counters, printed per node at exit.  */
struct gomp_cl_sync_stats
{
  unsigned long barriers;
  double barrier_time;
  unsigned long locks_local, locks_remote;
  unsigned long loop_chunks_local, loop_chunks_remote;
  unsigned long regions;
  unsigned long pulls;		/* Flushes and acquire atomics (pull.c).  */
  unsigned long msgs, bytes;	/* Sent by this module (not the DSM).  */
};
extern struct gomp_cl_sync_stats gomp_cl_sync GOMP_CL_HIDDEN;
extern bool gomp_cl_stats_enabled GOMP_CL_HIDDEN;
extern void gomp_cl_stats_init (void) GOMP_CL_HIDDEN;
extern void gomp_cl_stats_print (void) GOMP_CL_HIDDEN;
static inline void
gomp_cl_count_msg (size_t bytes)
{
  __atomic_fetch_add (&gomp_cl_sync.msgs, 1, __ATOMIC_RELAXED);
  __atomic_fetch_add (&gomp_cl_sync.bytes, bytes, __ATOMIC_RELAXED);
}

/* notices.c: a barrier's home hand-offs (dsm/migrate.c).  This node's
   proposals as one record of a barrier's contribution (malloc'ed in
   *BUF; 0 and NULL when none).  */
extern size_t gomp_cl_handoffs_pack (void **buf) GOMP_CL_HIDDEN;
/* Applies the proposals found in the barrier's contributions DATA[R] of
   LENS[R] bytes (copyprivate's bytes excluded), every node's, this
   node's own included, before any acquire of the barrier.  */
extern void gomp_cl_handoffs_apply (const unsigned char *const *data,
				    const size_t *lens) GOMP_CL_HIDDEN;

#endif /* OMPC_CLUSTER_INT_H */
