/* tasksite.c -- which tasks are worth moving to another node: what the
   node learns per task site (the task's function), used by tasksteal.c
   when it gives tasks away.

   A moved task pays for a steal's round trip, the release and the
   acquire on both sides, and then for every block of shared data it
   reads or writes on the thief through the DSM; a task that computes
   much on little data gains a node's threads, one that moves much data
   runs slower there than at home and also keeps its home busy serving.
   So each node keeps, per site, two averages (exponentially weighted,
   one eighth per sample): how long a task of the site runs here (its
   body, timed for movable tasks only), and how long one given away took
   on its thief (its body, its descendants there and the thief's
   release, as the thief timed it).  A site still unknown (fewer than
   SITE_LEARN samples of either kind) has at most SITE_LEARN tasks away
   until they come back; afterwards its tasks are given only when they
   run long enough here to pay for the trip (SITE_MIN_NS) and no more
   than SITE_SLOWDOWN times longer there.  A site refused for its
   slowdown is tried again once in SITE_RETRY new tasks (the data they
   touch may have moved since).

   The table is small and never shrinks: a program has few task sites.
   A site that finds no room is never refused (it moves as before).
   Updates race benignly (a lost sample).  */

#include "libgomp.h"
#include "task.h"
#include <stdint.h>

#define SITE_SLOTS 256		/* A power of two.  */
#define SITE_LEARN 2
#define SITE_MIN_NS 50000L
#define SITE_SLOWDOWN 2
#define SITE_RETRY 256

struct task_site
{
  uintptr_t fn;
  long here_ns, away_ns;
  unsigned here_n, away_n, refused;
  unsigned away_out;		/* Given, not come back yet.  */
};

static struct task_site sites[SITE_SLOTS];

/* FN's slot, made if missing; NULL when the table is full.  */
static struct task_site *
site_of (void (*fn) (void *))
{
  uintptr_t key = (uintptr_t) fn;
  unsigned h = (unsigned) ((key >> 4) * 0x9e3779b1u) & (SITE_SLOTS - 1);
  for (unsigned i = 0; i < SITE_SLOTS; i++)
    {
      struct task_site *s = &sites[(h + i) & (SITE_SLOTS - 1)];
      uintptr_t cur = __atomic_load_n (&s->fn, __ATOMIC_ACQUIRE);
      if (cur == key)
	return s;
      if (cur == 0)
	{
	  if (__atomic_compare_exchange_n (&s->fn, &cur, key, false,
					   __ATOMIC_ACQ_REL,
					   __ATOMIC_ACQUIRE)
	      || cur == key)
	    return s;
	}
    }
  return NULL;
}

/* Adds sample NS to the average *AVG of *N samples.  A sample counts for
   at most four times the average: a task preempted on a busy machine
   must not make its site look coarse for long.  */
static void
site_sample (long *avg, unsigned *n, long ns)
{
  long a = __atomic_load_n (avg, __ATOMIC_RELAXED);
  unsigned k = __atomic_load_n (n, __ATOMIC_RELAXED);
  if (k && ns > 4 * a)
    ns = 4 * a;
  a = k ? a + (ns - a) / 8 : ns;
  __atomic_store_n (avg, a, __ATOMIC_RELAXED);
  __atomic_store_n (n, k + 1, __ATOMIC_RELAXED);
}

void
gomp_task_site_ran_here (void (*fn) (void *), long ns)
{
  struct task_site *s = site_of (fn);
  if (s)
    site_sample (&s->here_ns, &s->here_n, ns);
}

void
gomp_task_site_ran_away (void (*fn) (void *), long ns)
{
  struct task_site *s = site_of (fn);
  if (s)
    {
      site_sample (&s->away_ns, &s->away_n, ns);
      unsigned out = __atomic_load_n (&s->away_out, __ATOMIC_RELAXED);
      while (out && !__atomic_compare_exchange_n (&s->away_out, &out,
						  out - 1, true,
						  __ATOMIC_RELAXED,
						  __ATOMIC_RELAXED))
	;
    }
}

bool
gomp_task_site_worth_moving (void (*fn) (void *), bool *retry)
{
  struct task_site *s = site_of (fn);
  if (s == NULL)
    return true;
  unsigned here_n = __atomic_load_n (&s->here_n, __ATOMIC_RELAXED);
  long here = __atomic_load_n (&s->here_ns, __ATOMIC_RELAXED);
  if (here_n >= SITE_LEARN && here < SITE_MIN_NS)
    return false;
  unsigned away_n = __atomic_load_n (&s->away_n, __ATOMIC_RELAXED);
  long away = __atomic_load_n (&s->away_ns, __ATOMIC_RELAXED);
  if (away_n < SITE_LEARN)
    {
      /* Still learning: a new task may go later; a queued one goes if
	 fewer than SITE_LEARN are away or known.  */
      if (retry)
	return true;
      unsigned out = __atomic_add_fetch (&s->away_out, 1, __ATOMIC_RELAXED);
      if (away_n + out <= SITE_LEARN)
	return true;
      __atomic_sub_fetch (&s->away_out, 1, __ATOMIC_RELAXED);
      return false;
    }
  if (here_n < SITE_LEARN || away <= SITE_SLOWDOWN * here)
    return true;
  /* Refused; once in SITE_RETRY refusals of new tasks, one is tried
     again.  */
  if (retry && __atomic_add_fetch (&s->refused, 1, __ATOMIC_RELAXED)
	       % SITE_RETRY == 0)
    return *retry = true;
  return false;
}
