/* push.c -- a region's start: rank 0 sends along the stack blocks its
   release announced that others had fetched (the region's data block,
   the master's locals), and the other nodes install them as read-only
   copies instead of fetching them (OMPC_DSM_EAGER).  See coherence.c.  */

#include "dsm-int.h"
#include "report.h"
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>

size_t
gomp_dsm_push_pack (void **push)
{
  size_t bs = gomp_dsm.bsize;
  uint64_t others = gomp_dsm.nodes >= 64 ? ~0ULL
		    : (1ULL << gomp_dsm.nodes) - 1;
  others &= ~(1ULL << gomp_dsm.rank);
  *push = NULL;
  pthread_mutex_lock (&gomp_dsm_rel_mutex);
  uint32_t n = gomp_dsm.eager ? gomp_dsm_push_ncand : 0;
  char *buf = n ? malloc (4 + (size_t) n * (4 + bs)) : NULL;
  if (n && !buf)
    gomp_dsm_fatal ("out of memory");
  uint32_t k = 0;
  for (uint32_t i = 0; i < n; i++)
    {
      uint32_t b = gomp_dsm_push_cand[i];
      gomp_dsm_lock (b);
      if (gomp_dsm_state (b) == BS_HOME_RW && gomp_dsm_stack_block (b)
	  && gomp_dsm_block_len (b) == bs
	  && gomp_dsm.home[b] == gomp_dsm.rank)
	{
	  memcpy (buf + 4 + 4 * (size_t) n + (size_t) k * bs,
		  gomp_dsm_block_wview (b), bs);
	  gomp_dsm_stage_copy (b, buf + 4 + 4 * (size_t) n + (size_t) k * bs);
	  memcpy (buf + 4 + 4 * k, &b, 4);
	  k++;
	  /* Every other node holds it now: the next release announces
	     it.  */
	  if (!__atomic_fetch_or (&gomp_dsm.copyset[b], others,
				  __ATOMIC_ACQ_REL))
	    gomp_dsm_list_add (&gomp_dsm.stack_copied, b);
	  gomp_dsm_stwin_make (b);
	}
      gomp_dsm_unlock (b);
    }
  gomp_dsm_push_ncand = 0;
  pthread_mutex_unlock (&gomp_dsm_rel_mutex);
  if (!k)
    {
      free (buf);
      return 0;
    }
  /* Blocks first, then the data; N slots were kept for the blocks.  */
  memcpy (buf, &k, 4);
  if (k < n)
    memmove (buf + 4 + 4 * (size_t) k, buf + 4 + 4 * (size_t) n,
	     (size_t) k * bs);
  *push = buf;
  return 4 + (size_t) k * (4 + bs);
}

/* Installs block B of node ORIGIN with the contents DATA as a read-only
   copy (a fetch whose answer came with the region's start); false when
   this node is writing it (WRITE): it is then invalidated as usual.
   Only the dispatch of a region installs pushed blocks, while this
   node's threads wait for it (cluster/region.c): nobody here reads B as
   it changes, so a copy still READ is rewritten in place through the
   writable view, readable throughout.  Made inaccessible first, as an
   invalidation would, it cost a write-protection (a TLB shootdown of the
   node's other running threads, ~40 us on the project's virtual
   machines) and an mprotect back for each pushed block: a loop running
   5000 short regions at 2 x 1 paid 3340 of each on rank 1.  */
bool
gomp_dsm_install_pushed (uint32_t b, int origin, const char *data)
{
  size_t bs = gomp_dsm.bsize;
  if (b >= gomp_dsm.nblocks || !gomp_dsm_stack_block (b)
      || gomp_dsm_block_len (b) != bs)
    gomp_dsm_fatal ("corrupt pushed block %u from rank %d", b, origin);
  gomp_dsm_lock (b);
  if (gomp_dsm_home (b) != origin)
    gomp_dsm_fatal ("rank %d pushed block %u, whose home is %d", origin, b,
		    gomp_dsm.home[b]);
  uint32_t st = gomp_dsm_state (b);
  if (st == BS_WRITE || st == BS_UNMANAGED)
    {
      gomp_dsm_unlock (b);
      return false;
    }
  memcpy (gomp_dsm_block_wview (b), data, bs);
  if (st != BS_READ)
    gomp_dsm_protect (b, 1, PROT_READ);
  gomp_dsm_set_state (b, BS_READ);
  gomp_dsm_mark_cached (b);
  /* Every node reads a region's data block: keep it updated.  */
  gomp_dsm_mark_used (b);
  gomp_dsm_unlock (b);
  DSM_STAT (pushed, 1);
  gomp_dsm_report_fetch (b, 1);
  DSM_STAT (fetch_bytes, bs);
  return true;
}
