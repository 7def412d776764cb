/* taskmove.c -- whether a task's data block may go to another node: no
   word of it may name memory private to its node.

   Every aligned word of the block that could be an address must lie in
   the shared segment (a pointer to a firstprivate copy in the creator's
   task record, to a threadprivate variable or to memory libc allocated
   would mean something else on another node).  A word names private
   memory when it lies in a private part of the shared segment -- a
   thread stack's top, where glibc keeps the thread's TLS -- or in memory
   mapped now outside the segment and the DSM's own views of it, above
   the lowest address mapped at start: uninitialised padding beside an
   int often holds half an address, which must not keep the task home.
   So does a word in the guard block below a thread stack: no node may
   access it, and a small int beside the high half of an address of the
   node's stacks lands there (the first stack's guard starts the node's
   stack part).  Recursive tasks with shared(x) and int firstprivates
   (BOTS fib) had every task but the root's children kept home for
   that, and a stolen subtree could not be shared back.
   The other conditions on a task that moves (its clauses, its team) are
   tasksteal.c's, in gomp_task_movable.  */

#include "task.h"
#include "cluster.h"
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <sys/mman.h>

/* The lowest address mapped when the program started (before the
   shared segment, which addr_kind tells apart): below it no private
   memory lies (the kernel places new mappings top-down from
   near the top of the address space, and the brk heap above the
   program), so a word of a data block below it is no address of
   private memory -- two small ints side by side, say.  */
static uintptr_t steal_low = 4096;

/* Whether W lies in memory mapped now (a word that could be a pointer
   but names no mapped memory is none the task may use: an int beside
   padding, say).  */
static bool
gomp_task_steal_mapped (uintptr_t w)
{
  unsigned char v;
  uintptr_t page = w & ~(uintptr_t) 4095;
  return mincore ((void *) page, 4096, &v) == 0 || errno != ENOMEM;
}

/* Whether the data block DATA of ARG_SIZE bytes (at most
   GOMP_TASK_MOVE_MAX), aligned to ARG_ALIGN, names no private memory
   (tasksteal.c's gomp_task_movable).  */
bool
gomp_task_data_movable (const void *data, long arg_size, long arg_align)
{
  if (arg_align >= (long) sizeof (uintptr_t))
    {
      const char *p = data;
      for (long i = 0; i + (long) sizeof (uintptr_t) <= arg_size;
	   i += sizeof (uintptr_t))
	{
	  uintptr_t w;
	  memcpy (&w, p + i, sizeof w);
	  int kind = gomp_cluster->addr_kind ((const void *) w);
	  if (kind == GOMP_CLUSTER_ADDR_PRIVATE
	      || (kind == GOMP_CLUSTER_ADDR_OUTSIDE && w >= steal_low
		  && w < ((uintptr_t) 1 << 47) && gomp_task_steal_mapped (w)))
	    return false;
	}
    }
  return true;
}

/* Sets STEAL_LOW from /proc/self/maps (4096 when unreadable: every
   word then counts as a possible address).  */
void
gomp_task_steal_low (void)
{
  FILE *f = fopen ("/proc/self/maps", "r");
  if (f == NULL)
    return;
  unsigned long lo = ~0ul, a;
  char line[512];
  while (fgets (line, sizeof line, f))
    if (sscanf (line, "%lx-", &a) == 1 && a < lo)
      lo = a;
  fclose (f);
  if (lo != ~0ul && lo > 4096)
    steal_low = lo;
}
