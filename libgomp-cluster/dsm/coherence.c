/* coherence.c -- home-based lazy release consistency with multiple writers:
   the protocol in overview (its parts: diff.c, release.c, serve.c,
   acquire.c, push.c, migrate.c), and its start.

   Release: every block this node wrote without being its home (state
   WRITE, in the dirty list) is compared with its twin and its diff -- the
   exact changed bytes -- sent to the home, batched per home; the release
   waits until every home has applied them.  The block stays writable
   meanwhile (no mprotect, no TLB shootdown): the comparison loads each
   word once and stores the changed ones into the twin, which thus holds
   exactly what was sent, and a word a local thread writes after its load
   is found at the next release.  The release's write notices are those
   blocks plus the home blocks this node wrote while another node cached
   them (a write fault on HOME_RO) or changed by an atomic.  After a release a home forgets the copysets of the blocks it
   announced: every node that cached them before receives the notice (the
   cluster forwards every blob until the next barrier, which gives every
   node all of them), and a later fetch protects the home's copy again.

   Stack blocks are never write-protected at their home: glibc runs code
   with every signal blocked (pthread_create writes to its caller's stack
   after clone), and a fault there would kill the process.  Instead a
   stack block that another node fetched gets a twin of what it was given
   (gomp_dsm_stwin_make), and every release announces the home's stack
   blocks that others hold and that differ from their twins (release.c).

   A block written with no change (the same values again) sends no diff
   and no notice; a written block stays writable with a fresh twin (it is
   likely written again soon) until KEEP_IDLE releases in a row find it
   unchanged, then it becomes READ (write-protected, then diffed again).
   The idle releases count one in KEEP_STEP (4): a fault costs as much
   as comparing the block at ~50 releases (12 us against 0.2-0.3 us with
   its share of the dirty list's sorting, IS at 2 x 1), so a block
   written once waits about as long in compares as a fault would cost
   before it stops being compared.  A block written again soon after
   that (a fault within KEEP_SOON releases) is one that the program
   rewrites now and then with the same values, e.g. a bucket sort's keys
   of a bucket that did not change from one sort to the next: it stays
   writable longer each time this happens (one release in 8, 16, 32
   counts).  With KEEP_IDLE releases in a row, IS at 2 x 1 (4 releases
   per sort) took ~500 write faults per sort and node, which doubled the
   time of its scatter.  A block written again long after (a pipeline
   that flushes after every row and writes each block once per time
   step) stays writable half as long next time: the compares at every
   flush would cost more than the fault they cannot save.

   Acquire: every non-home block named by a notice is invalidated (made
   inaccessible in runs, one mprotect each); a block this node is writing
   at the same time (disjoint bytes, or a lock acquired while other local
   threads write) then sends its diff.  The
   invalidated blocks this node used since their last prefetch (fetched
   on a fault, or a prefetched run it opened) are fetched again at once
   (OMPC_DSM_PREFETCH): one message per home naming every run, while the
   homes are in the same synchronisation.  They arrive PREFETCHED, still
   inaccessible: the first access opens the whole run with no message,
   and marks it used; a prefetched block nobody touches before the next
   notice about it is not prefetched again.  A fault's catch-up (a pull
   in the middle of an interval) invalidates without prefetching; the
   blocks it left invalid but used are prefetched by the next acquire
   whose notices name them.

   Updates in place (OMPC_DSM_EAGER): at a barrier's acquire no thread of
   the node runs program code, so a clean copy (READ) that the node keeps
   reading is fetched again into its writable view while it stays
   readable: no mprotect, no TLB shootdown, no fault afterwards.  The
   barrier returns only once every such block is back (or, when its home
   was busy, made inaccessible); the homes serve it as a prefetch, after
   every node's release of the barrier applied its diffs there.  Since a
   readable block shows no use, each has a budget (meta.c,
   gomp_dsm_mark_used): 2^L - 1 updates in place, L raised by each fault
   that finds it used, up to EAGER_LVL_MAX; then it is prefetched
   (inaccessible) once more, which either shows it still used or lets
   it go invalid (L back to 0).  A block written here (WRITE) that the
   barrier's release found written is updated in place too, after its
   diff reached the home, and stays writable with its twin set to what
   arrived: nodes that write parts of the same blocks in every interval
   take no faults on them (acquire.c, invalidate).

   Pushes (OMPC_DSM_EAGER too): a region's data block and the master's
   locals it points to lie on rank 0's stack, which its release announces
   whenever they changed since another node fetched them; every node
   reads them first thing in the region, and would fetch them from rank 0
   while rank 0 already computes (its service thread then answers late,
   on a busy machine up to a scheduler slice).  So rank 0 sends the
   contents of the stack blocks its region-start release announced (at
   most GOMP_DSM_PUSH_MAX) along with the dispatch (gomp_dsm_push_pack),
   counting every other node in their copysets, and the other nodes
   install them as read-only copies instead of invalidating them
   (gomp_dsm_acquire_push); a block a node is writing itself is
   invalidated as usual.  Two rules keep those copies valid through the
   region: the region's frames on rank 0's master start on the next
   block down (the runtime's parallel.c), so that the block of the data
   changes only with the program's writes; and the barriers after the
   dispatch do not hand the dispatch's notices round again
   (cluster/notices.c), which made every node invalidate the pushed
   block once more in every region.

   A home serves a fetch from its writable view under the block's lock;
   when a local thread holds that lock (it is asking the manager, or
   running an atomic), the request is deferred, never waited for: the
   service thread must not block.  */

#include "dsm-int.h"

void
gomp_dsm_coherence_init (void)
{
  gomp_dsm_serve_init ();
  gomp_dsm_diff_init ();
  gomp_dsm_migrate_register ();
}
