/* wild.c -- accesses to parts of the shared segment that hold nothing:
   heap never allocated, stack area no thread uses, guard pages, the
   segment's tail.  On one node such an access is a segmentation fault;
   here it must not be served silently (zeros) nor wait for ever for a
   home that will never answer, but end the job naming the address.

   What is allocated is known by the node that allocates it, without
   messages on the normal path:
   - the globals: always;
   - node N's heap arena: below N's high-water mark (heap.c); N is the
     manager of its arena's blocks under first-touch placement (home.c),
     so the first touch of a block, which asks the manager for a home
     anyway, is where N refuses a block above the mark;
   - node N's stack part: the blocks of the stacks N handed out, but not
     their guard pages and private tops (segment.c); stack blocks are
     homed at N, so the fetch, which goes to N anyway, is where N refuses
     one (serve.c's page request handler asks gomp_dsm_servable and
     replies with nothing);
   - everything else (the tail of the stack area past the last node's
     part): never.
   The node of the access checks what it knows itself before its first
   touch of a block (gomp_dsm_allocated_here), and turns a refusal into
   the fatal error (gomp_dsm_wild).  Not covered: under the static
   placements (OMPC_DSM_HOME=block or cyclic) a block of another node's
   arena is homed by arithmetic and its home serves it unasked.

   Signal context: everything here (the fault handler calls it).  */

#include "dsm-int.h"
#include <sys/syscall.h>
#include <unistd.h>

/* The runtime's; weak for dsm-unit.c, which links the DSM alone.  */
extern int omp_get_thread_num (void) __attribute__ ((weak));

/* The part of the stack area (node) of ADDR, or -1 past the parts.  */
static int
stack_owner (const char *a)
{
  size_t off = a - gomp_dsm.stack_base;
  size_t n = off / gomp_dsm.stack_part;
  return n < (size_t) gomp_dsm.nodes ? (int) n : -1;
}

bool
gomp_dsm_allocated_here (uint32_t b)
{
  if (b < gomp_dsm.area[1].first)
    return true;
  const char *a = gomp_dsm_block_addr (b);
  if (a < gomp_dsm.stack_base)
    {
      size_t off = a - gomp_dsm.heap_base;
      if ((int) (off / gomp_dsm.arena_size) != gomp_dsm.rank)
	return true;
      return off % gomp_dsm.arena_size < gomp_dsm_heap_high ();
    }
  int n = stack_owner (a);
  if (n < 0)
    return false;
  if (n != gomp_dsm.rank)
    return true;
  return gomp_dsm_servable (b);
}

bool
gomp_dsm_servable (uint32_t b)
{
  if (!gomp_dsm_stack_block (b))
    return true;
  const char *a = gomp_dsm_block_addr (b);
  if (stack_owner (a) != gomp_dsm.rank)
    return false;
  size_t off = a - gomp_dsm.stack_base
	       - (size_t) gomp_dsm.rank * gomp_dsm.stack_part;
  return off < gomp_dsm_stack_used () && gomp_dsm_state (b) != BS_UNMANAGED;
}

void
gomp_dsm_wild (const void *addr)
{
  gomp_cl_say ("ompcluster: rank %d thread %d: segmentation fault: address "
	       "%p is not allocated shared memory (wild pointer?): it lies "
	       "in the shared segment, but no heap block, thread stack or "
	       "global holds it; ending the job\n", gomp_dsm.rank,
	       omp_get_thread_num ? omp_get_thread_num () : 0, addr);
  gomp_cl_abort_job (128 + 11);
}
