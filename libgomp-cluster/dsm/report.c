/* report.c -- the sharing report's counters (OMPC_REPORT; report.h).

   Per block, in an array as long as the DSM's block table and mapped
   lazily (only the pages of blocks that something happened to cost
   memory): faults, copies received, diffs sent and their bytes,
   invalidations.  Over time, an event log of fixed size
   (GOMP_REPORT_LOG entries): each event names its block, its kind and
   the milliseconds since start.  When the log is half full at the end
   of a barrier (no thread of the node runs program code then), every
   other entry is dropped and from then on one event in twice as many
   is logged, so that a long run keeps a picture of all of it at a
   coarser grain (every entry then stands for the same number of events,
   the header's weight); events past a full log between two barriers are
   counted as dropped.  The fault and fetch paths run in signal context:
   relaxed atomic adds and a lock-free append only.

   False sharing, as the write notices show it (rank 0 alone): the
   blocks that rank 0's releases and every node's notices at a barrier
   name as written are marked with the writer's bit; at the end of the
   barrier interval a block with two or more bits was written by several
   nodes in one interval.  A home's own writes to a block no other node
   caches make no notice, so they are not seen.

   The heap's call sites: every block ompc_malloc and its kin hand out
   on this node, with its caller's return address (cluster.h's
   heap_site), in a private array (at most GOMP_REPORT_ALLOCS).  */

#include "dsm-int.h"
#include "report.h"
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <time.h>
#include <unistd.h>

#define GOMP_REPORT_LOG (1u << 17)
#define GOMP_REPORT_ALLOCS (1u << 20)

bool gomp_dsm_report_on;

static struct gomp_dsm_rcount *cnt;
static struct gomp_dsm_revent *ev_log;
static uint64_t ev_n, ev_seen, ev_weight = 1, ev_dropped;
static struct timespec t_start;

static pthread_mutex_t fs_mutex = PTHREAD_MUTEX_INITIALIZER;
static uint64_t *wmask;
static uint32_t *wlist, wlist_n, wlist_cap;

static pthread_mutex_t alloc_mutex = PTHREAD_MUTEX_INITIALIZER;
static struct gomp_dsm_ralloc *allocs;
static uint32_t nallocs, allocs_cap;
static uint64_t allocs_dropped;

static void *
map_lazy (size_t size)
{
  void *p = mmap (NULL, size, PROT_READ | PROT_WRITE,
		  MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
  if (p == MAP_FAILED)
    gomp_dsm_fatal ("cannot map %zu bytes for the sharing report", size);
  return p;
}

void
gomp_dsm_report_init (void)
{
  size_t nb = gomp_dsm.nblocks;
  cnt = map_lazy (nb * sizeof *cnt);
  ev_log = map_lazy (GOMP_REPORT_LOG * sizeof *ev_log);
  if (gomp_dsm.rank == 0)
    wmask = map_lazy (nb * sizeof *wmask);
  clock_gettime (CLOCK_MONOTONIC, &t_start);
  __atomic_store_n (&gomp_dsm_report_on, true, __ATOMIC_RELEASE);
}

static uint32_t
now_ms (void)
{
  struct timespec t;
  clock_gettime (CLOCK_MONOTONIC, &t);
  return (t.tv_sec - t_start.tv_sec) * 1000
	 + (t.tv_nsec - t_start.tv_nsec) / 1000000;
}

/* Appends an event (signal-safe), one in EV_WEIGHT.  */
static void
log_event (uint32_t b, uint32_t count, uint32_t kind)
{
  uint64_t w = __atomic_load_n (&ev_weight, __ATOMIC_RELAXED);
  if (__atomic_fetch_add (&ev_seen, 1, __ATOMIC_RELAXED) & (w - 1))
    return;
  uint64_t i = __atomic_fetch_add (&ev_n, 1, __ATOMIC_RELAXED);
  if (i >= GOMP_REPORT_LOG)
    {
      __atomic_add_fetch (&ev_dropped, w, __ATOMIC_RELAXED);
      return;
    }
  ev_log[i] = (struct gomp_dsm_revent) { b, count, now_ms (), kind };
}

#define ADD(field, n) __atomic_add_fetch (&(field), (n), __ATOMIC_RELAXED)

void
gomp_dsm_report_count_fault (uint32_t b, bool write)
{
  if (write)
    ADD (cnt[b].wfaults, 1);
  else
    ADD (cnt[b].rfaults, 1);
  log_event (b, 1, write ? RK_WFAULT : RK_RFAULT);
}

void
gomp_dsm_report_count_fetch (uint32_t b, uint32_t n)
{
  if (!n)
    return;
  for (uint32_t i = 0; i < n && b + i < gomp_dsm.nblocks; i++)
    ADD (cnt[b + i].fetched, 1);
  log_event (b, n, RK_FETCH);
}

void
gomp_dsm_report_count_diff (uint32_t b, size_t bytes)
{
  ADD (cnt[b].diffs, 1);
  ADD (cnt[b].diff_bytes, bytes);
  log_event (b, 1, RK_DIFF);
}

void
gomp_dsm_report_count_invals (const uint32_t *v, uint32_t n)
{
  for (uint32_t i = 0; i < n;)
    {
      uint32_t j = i + 1;
      while (j < n && v[j] == v[j - 1] + 1)
	j++;
      for (uint32_t k = i; k < j; k++)
	ADD (cnt[v[k]].invals, 1);
      log_event (v[i], j - i, RK_INVAL);
      i = j;
    }
}

/* Marks B as written by node R in this interval; fs_mutex held.  */
static void
mark_writer (uint32_t b, int r)
{
  if (b >= gomp_dsm.nblocks || r < 0 || r >= 64)
    return;
  if (!wmask[b])
    {
      if (wlist_n == wlist_cap)
	{
	  uint32_t cap = wlist_cap ? 2 * wlist_cap : 4096;
	  uint32_t *p = realloc (wlist, cap * sizeof *p);
	  if (!p)
	    return;
	  wlist = p;
	  wlist_cap = cap;
	}
      wlist[wlist_n++] = b;
    }
  wmask[b] |= 1ULL << r;
}

void
gomp_dsm_report_count_written (const uint32_t *v, uint32_t n)
{
  if (gomp_dsm.rank != 0)
    return;
  pthread_mutex_lock (&fs_mutex);
  for (uint32_t i = 0; i < n; i++)
    mark_writer (v[i], 0);
  pthread_mutex_unlock (&fs_mutex);
}

void
gomp_dsm_report_notices (int origin, const void *v, uint32_t n)
{
  if (gomp_dsm.rank != 0)
    return;
  pthread_mutex_lock (&fs_mutex);
  for (uint32_t i = 0; i < n; i++)
    {
      uint32_t b;
      memcpy (&b, (const char *) v + 4 * (size_t) i, 4);
      mark_writer (b, origin);
    }
  pthread_mutex_unlock (&fs_mutex);
}

void
gomp_dsm_report_interval_end (void)
{
  if (gomp_dsm.rank == 0)
    {
      pthread_mutex_lock (&fs_mutex);
      for (uint32_t i = 0; i < wlist_n; i++)
	{
	  uint32_t b = wlist[i];
	  uint64_t m = wmask[b];
	  wmask[b] = 0;
	  if (__builtin_popcountll (m) >= 2)
	    {
	      ADD (cnt[b].fs, 1);
	      __atomic_fetch_or (&cnt[b].fs_nodes, m, __ATOMIC_RELAXED);
	      log_event (b, 1, RK_FS);
	    }
	}
      wlist_n = 0;
      pthread_mutex_unlock (&fs_mutex);
    }
  /* No thread of this node runs program code: thin the log out when it
     is half full.  */
  uint64_t n = __atomic_load_n (&ev_n, __ATOMIC_ACQUIRE);
  if (n >= GOMP_REPORT_LOG / 2)
    {
      if (n > GOMP_REPORT_LOG)
	n = GOMP_REPORT_LOG;
      uint64_t k = 0;
      for (uint64_t i = 0; i < n; i += 2)
	ev_log[k++] = ev_log[i];
      __atomic_store_n (&ev_weight, ev_weight * 2, __ATOMIC_RELAXED);
      __atomic_store_n (&ev_seen, 0, __ATOMIC_RELAXED);
      __atomic_store_n (&ev_n, k, __ATOMIC_RELEASE);
    }
}

void
gomp_dsm_report_alloc (void *p, size_t size, void *caller)
{
  if (!gomp_dsm_contains (p))
    return;
  pthread_mutex_lock (&alloc_mutex);
  if (nallocs == allocs_cap && allocs_cap < GOMP_REPORT_ALLOCS)
    {
      uint32_t cap = allocs_cap ? 2 * allocs_cap : 1024;
      struct gomp_dsm_ralloc *a = realloc (allocs, cap * sizeof *a);
      if (a)
	{
	  allocs = a;
	  allocs_cap = cap;
	}
    }
  if (nallocs < allocs_cap)
    allocs[nallocs++] = (struct gomp_dsm_ralloc) { (uintptr_t) p, size,
						   (uintptr_t) caller };
  else
    allocs_dropped++;
  pthread_mutex_unlock (&alloc_mutex);
}

static bool
cnt_zero (const struct gomp_dsm_rcount *c)
{
  return !(c->rfaults | c->wfaults | c->fetched | c->diffs | c->invals
	   | c->fs);
}

void *
gomp_dsm_report_pack (size_t *len)
{
  size_t nb = gomp_dsm.nblocks, page = sysconf (_SC_PAGESIZE);
  size_t bytes = nb * sizeof *cnt, npages = (bytes + page - 1) / page;
  unsigned char *vec = malloc (npages ? npages : 1);
  if (!vec || mincore (cnt, bytes, vec) != 0)
    gomp_dsm_fatal ("cannot read the sharing report's counters");
  /* Blocks with counters: only resident pages can hold any.  */
  uint32_t nrec = 0, max = 0;
  for (int pass = 0; pass < 2; pass++)
    {
      struct gomp_dsm_rblock *out = NULL;
      if (pass)
	{
	  pthread_mutex_lock (&alloc_mutex);
	  uint64_t nev = ev_n < GOMP_REPORT_LOG ? ev_n : GOMP_REPORT_LOG;
	  *len = sizeof (struct gomp_dsm_rhdr) + nrec * sizeof *out
		 + nev * sizeof *ev_log + nallocs * sizeof *allocs;
	  char *buf = malloc (*len);
	  if (!buf)
	    gomp_dsm_fatal ("out of memory for the sharing report");
	  struct gomp_dsm_rhdr h = { gomp_dsm.rank, nrec, nev, nallocs,
				     ev_weight, now_ms (), ev_dropped,
				     gomp_dsm.bsize };
	  memcpy (buf, &h, sizeof h);
	  out = (struct gomp_dsm_rblock *) (buf + sizeof h);
	  char *q = (char *) (out + nrec);
	  memcpy (q, ev_log, nev * sizeof *ev_log);
	  q += nev * sizeof *ev_log;
	  memcpy (q, allocs, nallocs * sizeof *allocs);
	  pthread_mutex_unlock (&alloc_mutex);
	  max = nrec;
	  nrec = 0;
	}
      size_t next = 0;
      for (size_t pg = 0; pg < npages; pg++)
	{
	  if (!(vec[pg] & 1))
	    continue;
	  /* Every block with a byte in this page.  */
	  size_t b0 = pg * page / sizeof *cnt;
	  size_t b1 = ((pg + 1) * page + sizeof *cnt - 1) / sizeof *cnt;
	  for (size_t b = b0 > next ? b0 : next; b < b1 && b < nb; b++)
	    if (!cnt_zero (&cnt[b]) && (!out || nrec < max))
	      {
		if (out)
		  out[nrec] = (struct gomp_dsm_rblock)
		    { b, __atomic_load_n (&gomp_dsm.home[b], __ATOMIC_RELAXED),
		      cnt[b] };
		nrec++;
	      }
	  next = b1;
	}
      if (out)
	{
	  free (vec);
	  return (char *) out - sizeof (struct gomp_dsm_rhdr);
	}
    }
  return NULL;
}
