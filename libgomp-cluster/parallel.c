/* parallel.c -- the parallel construct (OpenMP 5.1 section 2.6):
   GOMP_parallel and the older GOMP_parallel_start/end pair, and the entry
   by which the cluster module runs this node's part of a region that rank 0
   started across the nodes.  */

#include "task.h"
#include "omp.h"
#include <string.h>
#include <unistd.h>

/* Across nodes, a region's implicit tasks need the ICVs rank 0's master
   gives them (omp_set_num_threads, omp_set_schedule... change them only
   there) and the global ICVs it changed (omp_set_affinity_format...),
   and a combined parallel loop needs its loop set up on every node,
   while the cluster module passes only FN and DATA.  Such a region goes
   through this trampoline, in the shared heap.  */
struct gomp_region_tramp
{
  void (*fn) (void *);
  void *data;
  bool has_icv, has_loop;
  /* GOMP_parallel_reductions: rank 0 registered the task reductions
     whose array DATA points at; the other nodes join them.  */
  bool task_reductions;
  /* The master's def-allocator-var and league (teams.c), which the
     team's threads inherit (taskteam.c): the other nodes' masters set them
     before they start their part of the team.  A user-defined allocator
     is in the shared heap, so its handle is valid everywhere.  */
  bool has_team_state;
  uintptr_t def_allocator;
  unsigned num_teams_m1, team_num;
  struct gomp_task_icv icv;
  struct gomp_loop_spec loop;
  /* The device's global ICVs, changed on rank 0 since the last region
     that spanned the nodes (gomp_global_icvs_gen): every node takes
     them, for good.  */
  bool has_globals;
  int nteams, teams_thread_limit;
  char affinity_format[];
};

/* What a top-level region in cluster mode holds from its start to its
   end (gomp_parallel_cluster_start): whether it spans the nodes, the
   trampoline the other nodes run, its task reductions.  */
struct gomp_cluster_region
{
  bool spans;
  struct gomp_region_tramp *tramp;
  void *reductions;
};

static void
gomp_region_trampoline (void *arg)
{
  struct gomp_region_tramp *t = arg;
  struct gomp_thread *thr = gomp_thread ();
  if (t->has_icv)
    {
      thr->implicit_icv = t->icv;
      thr->icv = &thr->implicit_icv;
    }
  if (t->has_loop)
    {
      thr->ts.static_trip = 0;
      thr->ts.ordered_ticket = GOMP_NO_TICKET;
      if (gomp_work_share_start ())
	{
	  gomp_loop_init (thr->ts.work_share, t->loop.start, t->loop.end,
			  t->loop.incr, t->loop.sched, t->loop.chunk, false);
	  gomp_work_share_init_done ();
	}
    }
  t->fn (t->data);
}

static bool
gomp_icv_equal (const struct gomp_task_icv *a, const struct gomp_task_icv *b)
{
  return a->nthreads_var == b->nthreads_var
	 && a->run_sched_var == b->run_sched_var
	 && a->run_sched_chunk_size == b->run_sched_chunk_size
	 && a->default_device_var == b->default_device_var
	 && a->thread_limit_var == b->thread_limit_var
	 && a->dyn_var == b->dyn_var
	 && a->max_active_levels_var == b->max_active_levels_var
	 && a->bind_var == b->bind_var;
}

/* Whether a top-level region of N threads with data block DATA, started
   on this rank, spans the nodes (cluster.h): on rank 0, with at least a
   thread per node, with its data where every node reaches it (not on the
   stack of a thread the program created itself, nor in an explicit
   task's private copy), not inside a target region met by a thread of
   a team (target.c: its data may be an explicit task's private copy),
   and while no other region spans them (one started by another thread
   of the program): the other nodes run one region at a time.  A true
   answer claims the nodes until gomp_region_spans_end.  */
static int gomp_spanning_busy;

static bool
gomp_region_spans (void *data, unsigned n)
{
  int idle = 0;
  return gomp_cluster->rank == 0 && n >= (unsigned) gomp_cluster->nodes
	 && (data == NULL || gomp_cluster->shared (data))
	 && !gomp_target_in_node
	 && __atomic_compare_exchange_n (&gomp_spanning_busy, &idle, 1, false,
					 __ATOMIC_ACQUIRE, __ATOMIC_RELAXED);
}

static void
gomp_region_spans_end (void)
{
  __atomic_store_n (&gomp_spanning_busy, 0, __ATOMIC_RELEASE);
}

/* The generation of the global ICVs the other nodes hold (rank 0).  */
static unsigned gomp_global_icvs_sent;

/* Rank 0's master starting a region that spans the nodes: the trampoline
   (in the shared heap) the other nodes need to run FN, or NULL when they
   can run FN itself (same ICVs as their own initial tasks, no loop, no
   task reductions, no allocator or league to inherit, no global ICV
   changed).  */
static struct gomp_region_tramp *
gomp_region_tramp_make (void (*fn) (void *), void *data,
			const struct gomp_loop_spec *loop, bool task_red)
{
  struct gomp_task_icv child, dflt;
  gomp_child_icv (&child, gomp_icv (), 1);
  gomp_child_icv (&dflt, &gomp_global_icv, 1);
  bool has_icv = !gomp_icv_equal (&child, &dflt);
  bool has_team_state = gomp_thread_def_allocator != omp_null_allocator
			|| gomp_num_teams_m1 != 0 || gomp_team_num != 0;
  unsigned gen = __atomic_load_n (&gomp_global_icvs_gen, __ATOMIC_ACQUIRE);
  bool has_globals = gen != gomp_global_icvs_sent;
  if (!has_icv && !loop && !task_red && !has_team_state && !has_globals)
    return NULL;
  size_t fmt_len = has_globals ? strlen (gomp_affinity_format_var) + 1 : 0;
  struct gomp_region_tramp *t = gomp_cluster->malloc (sizeof *t + fmt_len);
  if (!t)
    gomp_fatal ("out of shared memory starting a parallel region");
  t->has_globals = has_globals;
  if (has_globals)
    {
      gomp_global_icvs_sent = gen;
      t->nteams = gomp_nteams_var;
      t->teams_thread_limit = gomp_teams_thread_limit_var;
      memcpy (t->affinity_format, gomp_affinity_format_var, fmt_len);
    }
  t->fn = fn;
  t->data = data;
  t->has_icv = has_icv;
  t->icv = child;
  t->has_loop = loop != NULL;
  t->task_reductions = task_red;
  t->has_team_state = has_team_state;
  t->def_allocator = gomp_thread_def_allocator;
  t->num_teams_m1 = gomp_num_teams_m1;
  t->team_num = gomp_team_num;
  if (loop)
    t->loop = *loop;
  return t;
}

/* The one entry of a top-level region in cluster mode (rank 0's initial
   thread, or a rank's thread that is not in a team): starts the team of
   FN and DATA, spanning the nodes when rank 0 asks for at least one thread
   per node (cluster.h), else in this node.  LOOP, if not NULL, is the
   loop of a combined parallel loop or of sections (COUNT of them, which
   may bound the team as on one node); TASK_RED says the region has task
   reductions (GOMP_parallel_reductions: DATA starts with their array).
   The caller then runs FN (DATA) as the master's implicit task, ends the
   team (gomp_team_end) and calls gomp_parallel_cluster_finish (R).
   Returns the team size.  */
static unsigned
gomp_parallel_cluster_start (struct gomp_cluster_region *r,
			     void (*fn) (void *), void *data,
			     unsigned num_threads, unsigned count,
			     unsigned flags, const struct gomp_loop_spec *loop,
			     bool task_red)
{
  gomp_cluster_init_icvs ();
  unsigned n = gomp_resolve_num_threads (num_threads, count);
  r->spans = gomp_region_spans (data, n);
  r->tramp = NULL;
  r->reductions = NULL;
  /* Task reductions: the copies for the whole team are in the shared
     heap (taskred.c), registered here before any node starts.  */
  if (task_red)
    r->reductions = gomp_parallel_reduction_register (*(uintptr_t **) data,
						      n);
  if (r->spans)
    {
      /* The other nodes run FN through the trampoline when they need
	 more than FN and DATA; this node's threads start as on one
	 node.  */
      r->tramp = gomp_region_tramp_make (fn, data, loop, task_red);
      if (r->tramp)
	gomp_cluster->region_start (gomp_region_trampoline, r->tramp, n,
				    flags);
      else
	gomp_cluster->region_start (fn, data, n, flags);
    }
  gomp_team_start (&(struct gomp_team_spec) {
      .fn = fn, .data = data, .nthreads = n, .flags = flags,
      .spans = r->spans, .reduction_data = r->reductions, .loop = loop });
  return n;
}

/* After gomp_team_end, what gomp_parallel_cluster_start left: the nodes,
   the task reductions and the trampoline, freed once every node is past
   the region (the team's end waited for them).  */
static void
gomp_parallel_cluster_finish (struct gomp_cluster_region *r)
{
  if (r->spans)
    gomp_region_spans_end ();
  if (r->reductions)
    gomp_parallel_reduction_unregister (r->reductions);
  if (r->tramp)
    gomp_cluster->free (r->tramp);
}

/* A whole top-level region in cluster mode (GOMP_parallel, the combined
   parallel loops and sections, GOMP_parallel_reductions), below the
   padding gomp_parallel_cluster_1 leaves.  Returns the team size.  */
static unsigned __attribute__ ((noinline))
gomp_parallel_cluster_run (void (*fn) (void *), void *data,
			   unsigned num_threads, unsigned count,
			   unsigned flags, const struct gomp_loop_spec *loop,
			   bool task_red)
{
  struct gomp_cluster_region r;
  unsigned n = gomp_parallel_cluster_start (&r, fn, data, num_threads, count,
					    flags, loop, task_red);
  fn (data);
  gomp_team_end ();
  gomp_parallel_cluster_finish (&r);
  return n;
}

/* The largest DSM block below which rank 0's master pads its stack at a
   region's start (gomp_parallel_cluster_1).  */
#define GOMP_REGION_PAD_MAX (64 * 1024)

/* The region's data block, and the locals of the function that meets
   the construct, lie on rank 0's master's stack, which every node reads
   at the region's start (rank 0 sends it along: the DSM's push).  The
   frames the master then runs the region in -- the outlined function,
   the loops, the barriers, MPI -- would follow on the same DSM block:
   rank 0's writes to them changed the block in every region, so that
   the release of every barrier in the region announced it and every
   other node made its copy inaccessible and took it again at the next
   region (an mprotect that takes a right away costs ~40 us on the
   project's virtual machines).  Those frames start instead on the next
   block down, which no other node reads: the block holding the data is
   then written only by the program's own code.  At most one block
   (OMPC_DSM_BLOCK, if no larger than GOMP_REGION_PAD_MAX) of stack
   address space, which is never touched.  */
static unsigned
gomp_parallel_cluster_1 (void (*fn) (void *), void *data,
			 unsigned num_threads, unsigned count, unsigned flags,
			 const struct gomp_loop_spec *loop, bool task_red)
{
  static size_t block;
  size_t bs = __atomic_load_n (&block, __ATOMIC_RELAXED);
  if (!bs)
    {
      bs = gomp_cluster_env.dsm_block ? gomp_cluster_env.dsm_block
	   : (size_t) sysconf (_SC_PAGESIZE);
      __atomic_store_n (&block, bs, __ATOMIC_RELAXED);
    }
  char *pad = NULL;
  if (gomp_cluster->rank == 0 && bs <= GOMP_REGION_PAD_MAX)
    {
      /* The stack pointer now (the lowest byte of this frame), and
	 below it to the next block boundary, with room for what a call
	 pushes.  */
      uintptr_t sp = (uintptr_t) __builtin_alloca (16);
      pad = __builtin_alloca ((sp & (bs - 1)) + 64);
    }
  unsigned n = gomp_parallel_cluster_run (fn, data, num_threads, count, flags,
					  loop, task_red);
  /* The padding stays in place until the region is over.  */
  __asm__ volatile ("" : : "r" (pad) : "memory");
  return n;
}

void
gomp_parallel_cluster (void (*fn) (void *), void *data, unsigned num_threads,
		       unsigned count, unsigned flags,
		       const struct gomp_loop_spec *loop)
{
  gomp_parallel_cluster_1 (fn, data, num_threads, count, flags, loop, false);
}

GOMP_EXPORT void
GOMP_parallel (void (*fn) (void *), void *data, unsigned num_threads,
	       unsigned flags)
{
  struct gomp_thread *thr = gomp_thread ();
  if (GOMP_UNLIKELY (gomp_cluster != NULL) && thr->ts.level == 0)
    {
      gomp_parallel_cluster (fn, data, num_threads, 0, flags, NULL);
      return;
    }
  unsigned n = gomp_resolve_num_threads (num_threads, 0);
  gomp_team_start (&(struct gomp_team_spec) {
      .fn = fn, .data = data, .nthreads = n, .flags = flags });
  fn (data);
  gomp_team_end ();
}

/* The GOMP 1.0 pairs (GOMP_parallel_start, GOMP_parallel_loop_*_start,
   GOMP_parallel_sections_start) in cluster mode: the region's start, whose
   state the same thread's GOMP_parallel_end finishes.  */
static __thread struct gomp_cluster_region gomp_pair_region;
static __thread bool gomp_pair_cluster;

void
gomp_parallel_start_cluster (void (*fn) (void *), void *data,
			     unsigned num_threads,
			     const struct gomp_loop_spec *loop, unsigned count)
{
  gomp_parallel_cluster_start (&gomp_pair_region, fn, data, num_threads,
			       count, 0, loop, false);
  gomp_pair_cluster = true;
}

/* The GOMP 1.0 pair: the caller runs FN between them.  */
GOMP_EXPORT void
GOMP_parallel_start (void (*fn) (void *), void *data, unsigned num_threads)
{
  struct gomp_thread *thr = gomp_thread ();
  if (GOMP_UNLIKELY (gomp_cluster != NULL) && thr->ts.level == 0)
    {
      gomp_parallel_start_cluster (fn, data, num_threads, NULL, 0);
      return;
    }
  unsigned n = gomp_resolve_num_threads (num_threads, 0);
  gomp_team_start (&(struct gomp_team_spec) {
      .fn = fn, .data = data, .nthreads = n });
}

GOMP_EXPORT void
GOMP_parallel_end (void)
{
  gomp_team_end ();
  /* Back at level 0: the end of a pair this thread started in cluster
     mode (a nested pair's end leaves the thread inside the region).  */
  if (GOMP_UNLIKELY (gomp_pair_cluster) && gomp_thread ()->ts.level == 0)
    {
      gomp_pair_cluster = false;
      gomp_parallel_cluster_finish (&gomp_pair_region);
    }
}

/* A region with a task reduction (reduction(task, ...)): taskteam.c keeps
   the reduction data of the implicit tasks.  Returns the team size.  */
GOMP_EXPORT unsigned
GOMP_parallel_reductions (void (*fn) (void *), void *data,
			  unsigned num_threads, unsigned flags)
{
  struct gomp_thread *thr = gomp_thread ();
  if (GOMP_UNLIKELY (gomp_cluster != NULL) && thr->ts.level == 0)
    return gomp_parallel_cluster_1 (fn, data, num_threads, 0, flags, NULL,
				    true);
  unsigned n = gomp_resolve_num_threads (num_threads, 0);
  void *rd = gomp_parallel_reduction_register (*(uintptr_t **) data, n);
  gomp_team_start (&(struct gomp_team_spec) {
      .fn = fn, .data = data, .nthreads = n, .flags = flags,
      .reduction_data = rd });
  fn (data);
  gomp_team_end ();
  gomp_parallel_reduction_unregister (rd);
  return n;
}

/* The cluster module, on a rank other than 0, runs this node's part of a
   region of NTHREADS threads that rank 0 started: the calling thread
   becomes the node's first thread.  */
void
gomp_cluster_run_region (void (*fn) (void *), void *data, unsigned nthreads,
			 unsigned flags)
{
  gomp_cluster_init_icvs ();
  /* A region with task reductions: this node's implicit tasks join the
     registration rank 0 made (reached through the shared memory).  */
  void *rd = NULL;
  struct gomp_region_tramp *t = NULL;
  uintptr_t def_allocator = gomp_thread_def_allocator;
  unsigned num_teams_m1 = gomp_num_teams_m1, team_num = gomp_team_num;
  if (fn == gomp_region_trampoline)
    t = data;
  if (t && t->task_reductions)
    rd = gomp_parallel_reduction_attach (*(uintptr_t **) t->data);
  if (t && t->has_globals)
    {
      gomp_nteams_var = t->nteams;
      gomp_teams_thread_limit_var = t->teams_thread_limit;
      if (strcmp (gomp_affinity_format_var, t->affinity_format) != 0)
	gomp_affinity_format_set (t->affinity_format);
    }
  if (t && t->has_team_state)
    {
      gomp_thread_def_allocator = t->def_allocator;
      gomp_num_teams_m1 = t->num_teams_m1;
      gomp_team_num = t->team_num;
    }
  gomp_team_start (&(struct gomp_team_spec) {
      .fn = fn, .data = data, .nthreads = nthreads, .flags = flags,
      .spans = true, .reduction_data = rd });
  fn (data);
  gomp_team_end ();
  if (rd)
    gomp_parallel_reduction_unregister (rd);
  gomp_thread_def_allocator = def_allocator;
  gomp_num_teams_m1 = num_teams_m1;
  gomp_team_num = team_num;
}
