/* acquire.c -- an acquire: the blocks others announced are invalidated
   in runs (a block this node writes too first sends its diff), and those
   this node keeps using are fetched again at once (prefetch) or, at a
   barrier, updated in place while they stay readable, or writable when
   this node writes them too (OMPC_DSM_EAGER).
   See coherence.c.  */

#include "dsm-int.h"
#include "report.h"
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>

/* One prefetch message to a home: its runs and the reply.  */
struct prefetch_msg
{
  int home;
  uint32_t nruns, nblocks;
  uint32_t *req;		/* Pairs: first block, count.  */
  uint32_t *counts;		/* Blocks served per run (several runs),
				   then the label (serve.c).  */
  uint64_t *label;		/* The label of a one-run reply.  */
  struct gomp_cl_iov *iov;	/* Where the reply goes.  */
  struct gomp_cl_pending w;
};

/* What becomes of block B, locked and fetched again by prefetch, once
   the reply is in: GOT says whether it arrived.  A block prefetched
   (inaccessible) becomes PREFETCHED, or INVALID when it did not arrive;
   a block updated in place (M_INPLACE, still READ and readable) stays
   READ with one update less in its budget, or is made inaccessible and
   INVALID when it did not arrive.  A written block updated in place
   (WRITE, still writable) stays WRITE, its twin now what arrived (the
   home's copy, this node's diffs included), so that the next release's
   diff holds only what the node writes from now on; M_USED goes, and
   only a release that finds it written again sets it (flush_dirty).  */
static void
prefetch_done (uint32_t b, bool got)
{
  uint32_t x = __atomic_load_n (&gomp_dsm.meta[b], __ATOMIC_RELAXED), nx;
  bool in_place = x & M_INPLACE;
  if (in_place && (x & M_STATE) == BS_WRITE)
    {
      if (got)
	{
	  memcpy (gomp_dsm_twin (b), gomp_dsm_block_wview (b),
		  gomp_dsm_block_len (b));
	  __atomic_fetch_and (&gomp_dsm.meta[b], ~(M_INPLACE | M_USED),
			      __ATOMIC_RELEASE);
	  DSM_STAT (eager_updates, 1);
	  return;
	}
      /* Its diff went before the fetch (invalidate): nothing is lost.  */
      gomp_dsm_protect (b, 1, PROT_NONE);
      do
	nx = (x & ~(M_STATE | M_USED | M_INPLACE)) | BS_INVALID;
      while (!__atomic_compare_exchange_n (&gomp_dsm.meta[b], &x, nx, true,
					   __ATOMIC_RELEASE,
					   __ATOMIC_RELAXED));
      return;
    }
  if (in_place && !got)
    gomp_dsm_protect (b, 1, PROT_NONE);
  do
    {
      nx = x & ~(M_STATE | M_USED | M_INPLACE);
      if (in_place && got)
	nx = (nx & ~M_LEFT) | M_USED | BS_READ
	     | ((x & M_LEFT) - (1u << M_LEFT_SHIFT));
      else
	nx |= got ? BS_PREFETCHED : BS_INVALID;
    }
  while (!__atomic_compare_exchange_n (&gomp_dsm.meta[b], &x, nx, true,
				       __ATOMIC_RELEASE, __ATOMIC_RELAXED));
  if (got && in_place)
    DSM_STAT (eager_updates, 1);
  else if (got)
    DSM_STAT (prefetches, 1);
}

/* Fetches again the locked blocks V[0..N) (sorted; clean copies made
   inaccessible, whose data is stale, and blocks updated in place): per
   home one message naming every run of consecutive blocks (more messages
   only past GOMP_DSM_GET_MAX blocks), all homes at once; prefetch_done
   says what each becomes.  Prefetching at the acquire rather than at the
   next faults moves the same bytes in far fewer messages, while the home
   is in the same synchronisation and not computing.  The wait serves the
   other nodes' requests (their prefetches of the same acquire) itself,
   without waking the service thread.  */
static void
prefetch (uint32_t *v, uint32_t n)
{
  int nodes = gomp_dsm.nodes;
  size_t bs = gomp_dsm.bsize;
  /* Runs first: RUN[I] = (first, count, home).  */
  uint32_t (*run)[3] = malloc (n * sizeof *run), nrun = 0;
  if (!run)
    gomp_dsm_fatal ("out of memory");
  for (uint32_t i = 0; i < n;)
    {
      uint32_t j = i + 1;
      int h = gomp_dsm.home[v[i]];
      if (gomp_dsm_block_len (v[i]) == bs)
	while (j < n && j - i < GOMP_DSM_GET_MAX && v[j] == v[j - 1] + 1
	       && gomp_dsm.home[v[j]] == h
	       && gomp_dsm_block_len (v[j]) == bs
	       && gomp_dsm_block_addr (v[j])
		  == gomp_dsm_block_addr (v[j - 1]) + bs
	       && gomp_dsm_block_wview (v[j])
		  == gomp_dsm_block_wview (v[j - 1]) + bs)
	  j++;
      run[nrun][0] = v[i];
      run[nrun][1] = j - i;
      run[nrun][2] = h;
      nrun++;
      i = j;
    }
  /* Messages: per home, runs in order until GOMP_DSM_GET_MAX blocks.  */
  struct prefetch_msg *m = calloc (nrun, sizeof *m);
  uint32_t *reqs = malloc (nrun * 2 * sizeof *reqs), nmsg = 0, used = 0;
  if (!m || !reqs)
    gomp_dsm_fatal ("out of memory");
  for (int h = 0; h < nodes; h++)
    {
      struct prefetch_msg *cur = NULL;
      for (uint32_t r = 0; r < nrun; r++)
	{
	  if ((int) run[r][2] != h)
	    continue;
	  if (!cur || cur->nblocks + run[r][1] > GOMP_DSM_GET_MAX)
	    {
	      cur = &m[nmsg++];
	      cur->home = h;
	      cur->req = reqs + used;
	    }
	  cur->req[2 * cur->nruns] = run[r][0];
	  cur->req[2 * cur->nruns + 1] = run[r][1];
	  cur->nruns++;
	  cur->nblocks += run[r][1];
	  used += 2;
	}
    }
  /* Every reply straight into the writable views of its blocks (the
     blocks are locked, and inaccessible or, in place, not read by
     anyone; the home sends only the blocks it serves).  */
  for (uint32_t i = 0; i < nmsg; i++)
    {
      struct prefetch_msg *p = &m[i];
      uint32_t several = p->nruns > 1;
      p->iov = malloc ((p->nruns + 1) * sizeof *p->iov);
      p->counts = several ? malloc (4 * p->nruns + GOMP_DSM_LABEL_LEN)
		  : NULL;
      p->label = several ? NULL : malloc (GOMP_DSM_LABEL_LEN);
      if (!p->iov || (several ? !p->counts : !p->label))
	gomp_dsm_fatal ("out of memory");
      if (several)
	{
	  p->iov[0].base = p->counts;
	  p->iov[0].len = 4 * p->nruns + GOMP_DSM_LABEL_LEN;
	}
      else
	{
	  p->iov[1].base = p->label;
	  p->iov[1].len = GOMP_DSM_LABEL_LEN;
	}
      for (uint32_t r = 0; r < p->nruns; r++)
	{
	  p->iov[r + several].base = gomp_dsm_block_wview (p->req[2 * r]);
	  p->iov[r + several].len = (size_t) p->req[2 * r + 1]
				    * gomp_dsm_block_len (p->req[2 * r]);
	}
      gomp_cl_call_async_iov (p->home, GOMP_CL_TAG_PAGE_GET, p->req,
			      8 * p->nruns, p->iov, p->nruns + 1, &p->w);
    }
  for (uint32_t i = 0; i < nmsg; i++)
    {
      struct prefetch_msg *p = &m[i];
      size_t len = gomp_cl_call_wait_serving (&p->w), full = 0;
      /* Several runs: the counts, then the blocks served of each.  */
      for (uint32_t r = 0; p->nruns > 1 && r < p->nruns; r++)
	full += (p->counts[r] < p->req[2 * r + 1] ? p->counts[r]
		 : p->req[2 * r + 1]) * gomp_dsm_block_len (p->req[2 * r]);
      if (p->nruns > 1 && len != full + p->iov[0].len)
	gomp_dsm_fatal ("internal error: bad prefetch reply");
      if (p->nruns > 1)
	gomp_dsm_need_label (p->counts + p->nruns);
      else if (len >= GOMP_DSM_LABEL_LEN)
	{
	  gomp_dsm_need_label (p->label);
	  len -= GOMP_DSM_LABEL_LEN;
	}
      for (uint32_t r = 0; r < p->nruns; r++)
	{
	  uint32_t b = p->req[2 * r], want = p->req[2 * r + 1], got;
	  size_t blen = gomp_dsm_block_len (b);
	  got = p->nruns == 1 ? len / blen : p->counts[r];
	  if (got > want)
	    got = want;
	  for (uint32_t i = 0; i < want; i++)
	    prefetch_done (b + i, i < got);
	  DSM_STAT (fetch_bytes, got * blen);
	  gomp_dsm_report_fetch (b, got);
	}
      free (p->counts);
      free (p->label);
      free (p->iov);
    }
  free (m);
  free (reqs);
  free (run);
}

/* Invalidates the sorted, unique non-home blocks V[0..N); with PREFETCH,
   fetches again those this node used since their last prefetch.  With
   IN_PLACE (no thread of the node runs program code meanwhile: see
   gomp_dsm_acquire), a clean block (READ) in use whose eager budget is
   not spent is updated in place instead: fetched again into its writable
   view while it stays readable, with no protection change, no fault and
   no TLB shootdown here.  Nothing can read it half-written, and it is
   back (or made inaccessible) before this returns.  So is a block
   written here (WRITE) that the release before this acquire found
   written (M_USED): its diff goes to the home first, as for any written
   block invalidated, and it stays writable, with its twin brought up to
   what arrived (prefetch_done).  Two nodes that write parts of the same
   blocks between every two barriers (NPB SP's sweeps, a boundary
   between two nodes' rows) then take no fault on them: invalidated, each
   block cost a fault to open its prefetched copy and one more to write
   it, with an mprotect each.  */
static void
invalidate (uint32_t *v, uint32_t n, bool want_prefetch, bool in_place)
{
  struct diff_out out = { .d = NULL };
  uint32_t k = 0, ne = 0, na = 0;
  /* Blocks invalid here already but used since their last prefetch: an
     acquire that did not prefetch (a fault's catch-up) invalidated them
     after their last use.  They are fetched again with the others, else
     the next loop that reads them faults on each (NPB CG at 2 x 1: rank
     1 read the other half of p block by block in every iteration).  */
  uint32_t *again = NULL;
  /* Lock before looking at the state: a block being fetched right now
     (INVALID, locked by the fetching thread) may bring data older than
     the notice, so wait for it and invalidate it too.  */
  for (uint32_t i = 0; i < n; i++)
    {
      gomp_dsm_lock (v[i]);
      uint32_t st = gomp_dsm_state (v[i]);
      if (st == BS_INVALID && want_prefetch
	  && (__atomic_load_n (&gomp_dsm.meta[v[i]], __ATOMIC_RELAXED)
	      & M_USED))
	{
	  /* Made on the first: most acquires have none.  */
	  if (!again && !(again = malloc (n * sizeof *again)))
	    gomp_dsm_fatal ("out of memory");
	  again[na++] = v[i];	/* Stays locked until it arrives.  */
	}
      else if (st == BS_READ || st == BS_WRITE || st == BS_PREFETCHED)
	{
	  uint32_t m = __atomic_load_n (&gomp_dsm.meta[v[i]],
					__ATOMIC_RELAXED);
	  if (in_place && (m & M_USED)
	      && ((st == BS_READ && (m & M_LEFT)) || st == BS_WRITE))
	    {
	      __atomic_fetch_or (&gomp_dsm.meta[v[i]], M_INPLACE,
				 __ATOMIC_RELAXED);
	      ne++;
	    }
	  v[k++] = v[i];
	}
      else
	gomp_dsm_unlock (v[i]);
    }
  n = k;
  gomp_dsm_report_invals (v, n);
  /* Inaccessible first, in runs (PREFETCHED blocks are already: including
     them only makes the runs longer; blocks updated in place end a run),
     then the diffs of the blocks written here too (disjoint bytes): our
     bytes must reach the home, before the fetch of those updated in
     place.  */
  for (uint32_t i = 0; i < n;)
    {
      if (__atomic_load_n (&gomp_dsm.meta[v[i]], __ATOMIC_RELAXED)
	  & M_INPLACE)
	{
	  i++;
	  continue;
	}
      uint32_t j = i;
      while (j + 1 < n && v[j + 1] == v[j] + 1
	     && !(__atomic_load_n (&gomp_dsm.meta[v[j + 1]], __ATOMIC_RELAXED)
		  & M_INPLACE))
	j++;
      gomp_dsm_protect (v[i], j - i + 1, PROT_NONE);
      i = j + 1;
    }
  for (uint32_t i = 0; i < n; i++)
    if (gomp_dsm_state (v[i]) == BS_WRITE)
      {
	if (!out.d)
	  gomp_dsm_diff_out_init (&out);
	if (gomp_dsm_diff_add (&out, v[i]))
	  {
	    gomp_dsm_notice (v[i]);
	    __atomic_fetch_or (&gomp_dsm.meta[v[i]], M_USED,
			       __ATOMIC_RELAXED);
	  }
	if (!(__atomic_load_n (&gomp_dsm.meta[v[i]], __ATOMIC_RELAXED)
	      & M_INPLACE))
	  gomp_dsm_set_state (v[i], BS_READ);
      }
  if (out.d)
    gomp_dsm_diff_finish (&out);
  /* Every block of V is inaccessible now, but those updated in place.  */
  uint32_t np = 0;
  for (uint32_t i = 0; i < n; i++)
    {
      uint32_t b = v[i];
      uint32_t m = __atomic_load_n (&gomp_dsm.meta[b], __ATOMIC_RELAXED);
      if ((m & M_INPLACE) || (want_prefetch && (m & M_USED)))
	v[np++] = b;		/* Stays locked until it arrives.  */
      else
	{
	  /* Not used since its last prefetch: its next use starts from
	     the lowest eager level.  */
	  while (!__atomic_compare_exchange_n
		 (&gomp_dsm.meta[b], &m,
		  (m & ~(M_STATE | M_LVL | M_LEFT))
		  | ((m & M_USED) ? (m & (M_LVL | M_LEFT)) : 0) | BS_INVALID,
		  true, __ATOMIC_RELEASE, __ATOMIC_RELAXED))
	    ;
	  gomp_dsm_unlock (b);
	}
    }
  DSM_STAT (invalidations, n - ne);
  if (na)
    {
      /* V has room: N + NA blocks came in.  */
      memcpy (v + np, again, na * sizeof *v);
      np = gomp_dsm_sort_unique (v, np + na);
    }
  free (again);
  if (np)
    {
      long t0 = gomp_cl_now_ns ();
      prefetch (v, np);
      DSM_STAT (prefetch_ns, gomp_cl_now_ns () - t0);
      for (uint32_t i = 0; i < np; i++)
	gomp_dsm_unlock (v[i]);
    }
}

/* gomp_dsm_acquire and gomp_dsm_acquire_push: the blocks pushed are
   installed first, then left out of the invalidation.  */
static void
acquire (const void *const *notices, const size_t *lens, int nodes,
	 bool quiescent, const void *push, size_t push_len, int origin)
{
  long t0 = gomp_cl_now_ns ();
  size_t total = 0;
  uint32_t *done = NULL, ndone = 0;
  if (push_len)
    {
      uint32_t np;
      if (push_len < 4 || origin < 0 || origin >= gomp_dsm.nodes
	  || origin == gomp_dsm.rank)
	gomp_dsm_fatal ("corrupt pushed blocks (%zu bytes)", push_len);
      memcpy (&np, push, 4);
      if (np > GOMP_DSM_PUSH_MAX
	  || push_len != 4 + (size_t) np * (4 + gomp_dsm.bsize))
	gomp_dsm_fatal ("corrupt pushed blocks (%u in %zu bytes)", np,
			push_len);
      if (!(done = malloc ((np ? np : 1) * sizeof *done)))
	gomp_dsm_fatal ("out of memory");
      pthread_mutex_lock (&gomp_dsm_rel_mutex);
      for (uint32_t i = 0; i < np; i++)
	{
	  uint32_t b;
	  memcpy (&b, (const char *) push + 4 + 4 * i, 4);
	  if (gomp_dsm_install_pushed (b, origin, (const char *) push + 4 + 4 * np
				       + (size_t) i * gomp_dsm.bsize))
	    done[ndone++] = b;
	}
      pthread_mutex_unlock (&gomp_dsm_rel_mutex);
      ndone = gomp_dsm_sort_unique (done, ndone);
    }
  for (int i = 0; i < nodes; i++)
    if (i != gomp_dsm.rank && notices[i])
      total += lens[i] / 4;
  if (!total)
    {
      free (done);
      return;
    }
  uint32_t *v = malloc (total * sizeof *v), n = 0;
  uint32_t *h = malloc (total * sizeof *h), nh = 0;
  if (!v || !h)
    gomp_dsm_fatal ("out of memory for write notices");
  for (int i = 0; i < nodes; i++)
    if (i != gomp_dsm.rank && notices[i])
      for (size_t k = 0; k < lens[i] / 4; k++)
	{
	  uint32_t b;
	  memcpy (&b, (const char *) notices[i] + 4 * k, 4);
	  if (b >= gomp_dsm.nblocks)
	    gomp_dsm_fatal ("corrupt write notice (block %u)", b);
	  if (__atomic_load_n (&gomp_dsm.home[b], __ATOMIC_ACQUIRE)
	      == gomp_dsm.rank)
	    h[nh++] = b;
	  else if (!(ndone && bsearch (&b, done, ndone, sizeof *done,
				       gomp_dsm_cmp_u32)))
	    v[n++] = b;
	}
  free (done);
  n = gomp_dsm_sort_unique (v, n);
  pthread_mutex_lock (&gomp_dsm_rel_mutex);
  invalidate (v, n, gomp_dsm.prefetch && !gomp_dsm_in_catch_up,
	      quiescent && gomp_dsm.eager);
  pthread_mutex_unlock (&gomp_dsm_rel_mutex);
  /* Only now the diffs of the home blocks named: a thread that sees one
     of them no longer sees an old copy of the others (stage.c).  A
     barrier applies them once it has every node's notices, only those
     of the releases it acquired (gomp_dsm_acquired_upto).  */
  if (!quiescent)
    gomp_dsm_stage_apply_list (h, nh);
  free (h);
  free (v);
  DSM_STAT (acquire_ns, gomp_cl_now_ns () - t0);
}

void
gomp_dsm_acquire (const void *const *notices, const size_t *lens, int nodes,
		  bool quiescent)
{
  acquire (notices, lens, nodes, quiescent, NULL, 0, -1);
}

void
gomp_dsm_acquire_push (const void *const *notices, const size_t *lens,
		       int nodes, const void *push, size_t push_len,
		       int origin)
{
  acquire (notices, lens, nodes, false, push, push_len, origin);
}

void
gomp_dsm_acquire_all (void)
{
  uint32_t n = __atomic_load_n (&gomp_dsm.ncached, __ATOMIC_ACQUIRE);
  uint32_t *v = malloc ((n ? n : 1) * sizeof *v);
  if (!v)
    gomp_dsm_fatal ("out of memory");
  for (uint32_t i = 0; i < n; i++)
    {
      v[i] = __atomic_load_n (&gomp_dsm.cached[i], __ATOMIC_ACQUIRE);
      if (v[i] >= gomp_dsm.nblocks)
	v[i] = 0;		/* Being appended: block 0 is harmless.  */
    }
  n = gomp_dsm_sort_unique (v, n);
  pthread_mutex_lock (&gomp_dsm_rel_mutex);
  invalidate (v, n, false, false);
  pthread_mutex_unlock (&gomp_dsm_rel_mutex);
  free (v);
  gomp_dsm_stage_apply_all (NULL);
}
