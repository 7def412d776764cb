/* stats.c -- OMPC_STATS=1: every node prints, when the program ends, what
   its synchronisation cost (this file) and what its DSM did
   (gomp_dsm_print_stats).  OMPC_STATS comes parsed from the runtime's
   env_ompc.c (host->env.stats).  */

#include "cluster-int.h"
#include <ctype.h>
#include <stdio.h>
#include <strings.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

struct gomp_cl_sync_stats gomp_cl_sync;
bool gomp_cl_stats_enabled;

void
gomp_cl_stats_init (void)
{
  gomp_cl_stats_enabled = gomp_cl_host->env.stats;
}

void
gomp_cl_stats_print (void)
{
  char buf[2048];
  struct gomp_cl_sync_stats *s = &gomp_cl_sync;
  struct gomp_cl_stats t;
  gomp_cl_get_stats (&t);
  int n = snprintf (buf, sizeof buf,
		    "ompcluster stats: rank %d: regions %lu, barriers %lu "
		    "(%.3f ms in them, %.1f us each), locks %lu local / %lu "
		    "remote, loop chunks %lu local / %lu remote, pulls %lu; "
		    "collectives "
		    "%lu (%lu bytes), messages sent %llu (%llu bytes), "
		    "received %llu (%llu bytes); calls %llu (%.3f ms "
		    "waiting); requests served %llu by waiting threads, %llu "
		    "by the service thread, which took %.1f ms of the "
		    "process's %.1f ms processor time (%llu spinning polls, "
		    "%llu sleeps)\n",
		    gomp_cl_rank, s->regions, s->barriers,
		    s->barrier_time * 1e3,
		    s->barriers ? s->barrier_time * 1e6 / s->barriers : 0.0,
		    s->locks_local, s->locks_remote, s->loop_chunks_local,
		    s->loop_chunks_remote, s->pulls, s->msgs, s->bytes,
		    (unsigned long long) t.msgs_sent,
		    (unsigned long long) t.bytes_sent,
		    (unsigned long long) t.msgs_recv,
		    (unsigned long long) t.bytes_recv,
		    (unsigned long long) t.calls, t.call_ns * 1e-6,
		    (unsigned long long) t.served_waiter,
		    (unsigned long long) t.served_svc,
		    t.svc_cpu_ns * 1e-6,
		    t.cpu_ns * 1e-6, (unsigned long long) t.svc_spins,
		    (unsigned long long) t.svc_sleeps);
  const uint64_t *ts = gomp_cl_host->task_stats;
  if (n > 0 && (size_t) n < sizeof buf)
    n += snprintf (buf + n, sizeof buf - n,
		   "ompcluster stats: rank %d: tasks %llu of this node run "
		   "here, %llu of other nodes run here (stolen), %llu given "
		   "to other nodes; %llu steal answers with tasks received, "
		   "%llu sent; %llu bytes of tasks moved, %llu bytes with "
		   "their write notices\n",
		   gomp_cl_rank, (unsigned long long) ts[0],
		   (unsigned long long) ts[1], (unsigned long long) ts[2],
		   (unsigned long long) gomp_cl_steal_got,
		   (unsigned long long) gomp_cl_steal_given,
		   (unsigned long long) ts[3],
		   (unsigned long long) gomp_cl_steal_bytes);
  /* What the calls asked for, and how long their callers waited for
     each kind.  */
  if (n > 0 && (size_t) n < sizeof buf && t.calls)
    {
      n += snprintf (buf + n, sizeof buf - n,
		     "ompcluster stats: rank %d: calls by kind:", gomp_cl_rank);
      const char *sep = "";
      for (int i = 0; i < GOMP_CL_TAG_MAX && n > 0 && (size_t) n < sizeof buf;
	   i++)
	if (t.tag_calls[i])
	  {
	    const char *name = gomp_cl_tag_name (i);
	    n += snprintf (buf + n, sizeof buf - n, "%s %s %llu (%.3f ms)",
			   sep, name ? name : "other",
			   (unsigned long long) t.tag_calls[i],
			   t.tag_call_ns[i] * 1e-6);
	    sep = ",";
	  }
      if (n > 0 && (size_t) n < sizeof buf)
	n += snprintf (buf + n, sizeof buf - n, "\n");
    }
  fflush (stdout);
  if (n > 0 && (size_t) n >= sizeof buf)
    n = sizeof buf - 1;
  if (n > 0 && write (STDERR_FILENO, buf, n) < 0)
    return;
  gomp_dsm_print_stats ();
}
