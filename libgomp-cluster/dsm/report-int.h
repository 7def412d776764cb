/* report-int.h -- what report_objects.c and report_html.c share: the
   program objects the sharing report names (see report.h).  */

#ifndef OMPC_DSM_REPORT_INT_H
#define OMPC_DSM_REPORT_INT_H 1

#include "report.h"

#define H __attribute__ ((visibility ("hidden")))

enum { RP_GLOBAL, RP_HEAP, RP_STACK, RP_OTHER };

/* Per node, what happened to an object's blocks.  */
struct rp_node
{
  uint64_t rfaults, wfaults, fetched, diffs, diff_bytes, invals;
};

struct rp_obj
{
  char *name;
  int kind;
  uint64_t addr, size;		/* A global's; a site's first block and
				   the bytes allocated there in all.  */
  uint32_t nallocs;		/* Allocations at a heap site.  */
  /* Other objects with bytes in this object's blocks (the first few).  */
#define RP_SHARERS 4
  uint32_t sharers[RP_SHARERS], nsharers;
  /* Filled by report_html.c.  */
  uint32_t nblocks;		/* Blocks with counters.  */
  uint64_t fs, fs_nodes;
  uint64_t moved;		/* Bytes fetched and sent as diffs.  */
  uint64_t faults;
  uint32_t homes[64];		/* Its blocks per home node.  */
  struct rp_node *node;		/* Per node.  */
};

struct rp_objs
{
  struct rp_obj *v;
  uint32_t n, cap;
};

/* report_objects.c: the object of each block UB[I] (sorted, unique; I <
   N), objects added to O; AL[0..NAL) the heap's allocations from every
   node.  Returns a malloc'ed array of N object numbers.  */
extern uint32_t *gomp_dsm_report_attribute (const uint32_t *ub, uint32_t n,
					    struct gomp_dsm_ralloc *const *al,
					    uint32_t nal, struct rp_objs *o) H;

#undef H
#endif
