/* parallel.c -- the parallel construct (OpenMP 5.1 section 2.6):
   GOMP_parallel and the older GOMP_parallel_start/end pair, and the entry
   by which the cluster module runs this node's part of a region that rank 0
   started across the nodes.  */

#include "libgomp.h"

/* Starts the team of a region met by the calling thread; the caller then
   runs FN (DATA) as its thread 0 (or BASE) and calls gomp_team_end.  A
   top-level region on rank 0 of a cluster with at least one thread per node
   spans the nodes (cluster.h).  */
void
gomp_parallel_start (void (*fn) (void *), void *data, unsigned num_threads,
		     unsigned flags)
{
  struct gomp_thread *thr = gomp_thread ();
  unsigned n;

  if (GOMP_UNLIKELY (gomp_cluster != NULL) && thr->ts.level == 0)
    {
      gomp_cluster_init_icvs ();
      n = gomp_resolve_num_threads (num_threads, 0);
      if (gomp_cluster->rank == 0 && n >= (unsigned) gomp_cluster->nodes)
	{
	  gomp_cluster->region_start (fn, data, n, flags);
	  gomp_team_start (fn, data, n, flags, true, NULL, NULL);
	  return;
	}
      gomp_team_start (fn, data, n, flags, false, NULL, NULL);
      return;
    }
  n = gomp_resolve_num_threads (num_threads, 0);
  gomp_team_start (fn, data, n, flags, false, NULL, NULL);
}

GOMP_EXPORT void
GOMP_parallel (void (*fn) (void *), void *data, unsigned num_threads,
	       unsigned flags)
{
  gomp_parallel_start (fn, data, num_threads, flags);
  fn (data);
  gomp_team_end ();
}

GOMP_EXPORT void
GOMP_parallel_start (void (*fn) (void *), void *data, unsigned num_threads)
{
  gomp_parallel_start (fn, data, num_threads, 0);
}

GOMP_EXPORT void
GOMP_parallel_end (void)
{
  gomp_team_end ();
}

/* A region with a task reduction (reduction(task, ...)): task.c keeps the
   reduction data of the implicit tasks.  Returns the team size.  */
GOMP_EXPORT unsigned
GOMP_parallel_reductions (void (*fn) (void *), void *data,
			  unsigned num_threads, unsigned flags)
{
  struct gomp_thread *thr = gomp_thread ();
  if (GOMP_UNLIKELY (gomp_cluster != NULL) && thr->ts.level == 0)
    gomp_unsupported ("task reductions of a parallel region across nodes");
  unsigned n = gomp_resolve_num_threads (num_threads, 0);
  void *rd = gomp_parallel_reduction_register (*(uintptr_t **) data, n);
  gomp_team_start (fn, data, n, flags, false, rd, NULL);
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
  gomp_team_start (fn, data, nthreads, flags, true, NULL, NULL);
  fn (data);
  gomp_team_end ();
}
