/* report.h -- the sharing report (OMPC_REPORT=file.html): what the DSM
   did to each block, counted while the program runs, and the records
   that carry it to rank 0 at the end.  See docs/report.md.

   Files: dsm/report.c (the per-block counters, the event log over time,
   the writers of each block per barrier interval, the heap's call
   sites, packing), dsm/report_objects.c (which program object a block
   belongs to: a global by the executable's symbol table, a heap block by
   its allocation's call site and the debug information), dsm/report_html.c
   (the HTML page and the summary on stderr), cluster/report.c (turning it
   on, and the gathering at exit over the dispatch communicator).

   The hooks below are what fault.c, fetch.c, diff.c, release.c,
   acquire.c and push.c call: each is one predictable branch on gomp_dsm_report_on
   when the report is off;
   cluster/notices.c hands over the write notices of each barrier.  The
   fault and fetch hooks run in signal context: they only add to
   counters with atomics and append to the lock-free event log.  */

#ifndef OMPC_DSM_REPORT_H
#define OMPC_DSM_REPORT_H 1

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define H __attribute__ ((visibility ("hidden")))

/* Set once by gomp_dsm_report_init, before any thread of the program
   runs; never changes afterwards.  */
extern bool gomp_dsm_report_on H;

/* What one block went through on one node.  FS and FS_NODES are counted
   by rank 0 only: barrier intervals in which several nodes wrote the
   block (their write notices named it), and which nodes they were.  */
struct gomp_dsm_rcount
{
  uint32_t rfaults, wfaults;	/* Access faults (read, write).  */
  uint32_t fetched;		/* Copies of the block received (fetches,
				   prefetches, updates in place, pushes).  */
  uint32_t diffs;		/* Diffs of it sent to its home.  */
  uint32_t invals;		/* Times an acquire invalidated or updated
				   this node's copy.  */
  uint32_t fs;
  uint64_t diff_bytes;
  uint64_t fs_nodes;
};

/* The records of the gathering (one packed buffer per node).  */
enum { RK_RFAULT, RK_WFAULT, RK_FETCH, RK_DIFF, RK_INVAL, RK_FS, RK_NKINDS };

struct gomp_dsm_revent
{
  uint32_t block, count, t_ms, kind;
};

struct gomp_dsm_rblock
{
  uint32_t block;
  int32_t home;			/* -1: unknown to this node.  */
  struct gomp_dsm_rcount c;
};

struct gomp_dsm_ralloc
{
  uint64_t addr, size, caller;
};

struct gomp_dsm_rhdr
{
  uint32_t rank, nblocks, nevents, nallocs;
  uint64_t weight;		/* Events one logged event stands for.  */
  uint64_t t_end_ms;		/* Milliseconds from start to the end.  */
  uint64_t dropped;		/* Events the full log left out.  */
  uint64_t bsize;
};

/* report.c.  */
extern void gomp_dsm_report_init (void) H;
extern void gomp_dsm_report_count_fault (uint32_t b, bool write) H;
extern void gomp_dsm_report_count_fetch (uint32_t b, uint32_t n) H;
extern void gomp_dsm_report_count_diff (uint32_t b, size_t bytes) H;
extern void gomp_dsm_report_count_invals (const uint32_t *v, uint32_t n) H;
extern void gomp_dsm_report_count_written (const uint32_t *v, uint32_t n) H;
/* A barrier's acquire (cluster/notices.c): node ORIGIN announced the
   blocks V[0..N) (uint32 each, unaligned) as written in the interval
   that ends now.  */
extern void gomp_dsm_report_notices (int origin, const void *v,
				     uint32_t n) H;
/* The barrier interval ends: blocks that several nodes wrote in it count
   as written falsely shared (rank 0).  */
extern void gomp_dsm_report_interval_end (void) H;
/* The heap_site operation of cluster.h.  */
extern void gomp_dsm_report_alloc (void *p, size_t size, void *caller) H;
/* This node's records in one malloc'ed buffer (header, blocks, events,
   allocations); its length in *LEN.  */
extern void *gomp_dsm_report_pack (size_t *len) H;

/* report_html.c: rank 0, after every rank ended its part; BUFS[I] of
   LENS[I] bytes is node I's packed buffer.  Writes PATH and the summary
   on stderr; false (with a message) when PATH cannot be written.  */
extern bool gomp_dsm_report_write (const char *path, void *const *bufs,
				   const size_t *lens, int nodes) H;

/* The hooks.  */
static inline void
gomp_dsm_report_fault (uint32_t b, bool write)
{
  if (__builtin_expect (gomp_dsm_report_on, 0))
    gomp_dsm_report_count_fault (b, write);
}

static inline void
gomp_dsm_report_fetch (uint32_t b, uint32_t n)
{
  if (__builtin_expect (gomp_dsm_report_on, 0))
    gomp_dsm_report_count_fetch (b, n);
}

static inline void
gomp_dsm_report_diff (uint32_t b, size_t bytes)
{
  if (__builtin_expect (gomp_dsm_report_on, 0))
    gomp_dsm_report_count_diff (b, bytes);
}

static inline void
gomp_dsm_report_invals (const uint32_t *v, uint32_t n)
{
  if (__builtin_expect (gomp_dsm_report_on, 0))
    gomp_dsm_report_count_invals (v, n);
}

/* The blocks V[0..N) this node's release announces as written.  */
static inline void
gomp_dsm_report_written (const uint32_t *v, uint32_t n)
{
  if (__builtin_expect (gomp_dsm_report_on, 0))
    gomp_dsm_report_count_written (v, n);
}

#undef H
#endif
