/* stats.c -- the MPI backend's counters (OMPC_STATS) and
   gomp_cl_get_stats, which reads them.  The files that do the work add to
   them with relaxed atomics: the passes of mpi.c count the messages and
   the requests served, the service thread (service.c) its polls and
   sleeps, call.c the calls and the time their callers waited.  */

#include "transport-int.h"
#include <time.h>

struct gomp_cl_counters gomp_cl_counters;

void
gomp_cl_get_stats (struct gomp_cl_stats *s)
{
  struct gomp_cl_counters *c = &gomp_cl_counters;
  s->msgs_sent = __atomic_load_n (&c->msgs_sent, __ATOMIC_RELAXED);
  s->bytes_sent = __atomic_load_n (&c->bytes_sent, __ATOMIC_RELAXED);
  s->msgs_recv = __atomic_load_n (&c->msgs_recv, __ATOMIC_RELAXED);
  s->bytes_recv = __atomic_load_n (&c->bytes_recv, __ATOMIC_RELAXED);
  s->svc_spins = __atomic_load_n (&c->svc_spins, __ATOMIC_RELAXED);
  s->svc_sleeps = __atomic_load_n (&c->svc_sleeps, __ATOMIC_RELAXED);
  s->served_svc = __atomic_load_n (&c->served_svc, __ATOMIC_RELAXED);
  s->served_waiter = __atomic_load_n (&c->served_waiter, __ATOMIC_RELAXED);
  s->calls = __atomic_load_n (&c->calls, __ATOMIC_RELAXED);
  s->call_ns = __atomic_load_n (&c->call_ns, __ATOMIC_RELAXED);
  for (int i = 0; i < GOMP_CL_TAG_MAX; i++)
    {
      s->tag_calls[i] = __atomic_load_n (&c->tag_calls[i], __ATOMIC_RELAXED);
      s->tag_call_ns[i] = __atomic_load_n (&c->tag_call_ns[i],
					   __ATOMIC_RELAXED);
    }
  s->svc_cpu_ns = gomp_cl_service_cpu_ns ();
  struct timespec ts;
  s->cpu_ns = 0;
  if (clock_gettime (CLOCK_PROCESS_CPUTIME_ID, &ts) == 0)
    s->cpu_ns = ts.tv_sec * 1000000000L + ts.tv_nsec;
}

const char *
gomp_cl_tag_name (int tag)
{
  /* One word each, none that bench/npb/stats.awk reads on the line
     before ("locks", "pulls", "regions" ...).  */
  switch (tag)
    {
    case GOMP_CL_TAG_PAGE_GET: return "page-fetch";
    case GOMP_CL_TAG_DIFF: return "diff";
    case GOMP_CL_TAG_HOME: return "home-lookup";
    case GOMP_CL_TAG_ATOMIC: return "atomic";
    case GOMP_CL_TAG_LOCK: return "lock";
    case GOMP_CL_TAG_UNLOCK: return "unlock";
    case GOMP_CL_TAG_LOOP: return "loop-chunk";
    case GOMP_CL_TAG_CONTROL: return "control";
    case GOMP_CL_TAG_HEAP: return "heap";
    case GOMP_CL_TAG_CANCEL: return "cancel";
    case GOMP_CL_TAG_PULL: return "pull";
    case GOMP_CL_TAG_HANDOFF: return "handoff";
    case GOMP_CL_TAG_STEAL: return "steal";
    case GOMP_CL_TAG_STEAL_DONE: return "steal-done";
    case GOMP_CL_TAG_STEAL_NOTE: return "steal-note";
    case GOMP_CL_TAG_FULFILL: return "fulfill";
    case GOMP_CL_TAG_OUTPUT: return "output";
    default: return NULL;
    }
}
