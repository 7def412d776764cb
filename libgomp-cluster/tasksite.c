/* tasksite.c -- which tasks are worth moving to another node: what the
   node learns per task site (the task's function), used by tasksteal.c
   when it gives tasks away.

   A moved task pays for a steal's round trip, the release and the
   acquire on both sides, and then for every block of shared data it
   reads or writes on the thief through the DSM; what the thief gains is
   the task and every descendant it makes there (a recursive task takes
   its whole subtree along).  So each node keeps, per site, averages
   (exponentially weighted, one eighth per sample) of how long a task's
   body runs here (timed for movable tasks only) and, for the tasks it
   gave away, as their thieves timed them: the body with the thief's
   release after it, and the whole of it with the descendants.  A site
   still unknown (fewer than SITE_LEARN samples away) has at most
   SITE_LEARN tasks away until they come back; afterwards its tasks go
   only when what a thief got for one, descendants included, pays for
   the trip (SITE_MIN_NS), and what the body took there beyond its time
   here is at most a SITE_SLOWDOWN-th of that (a body that reads much
   data its creator just wrote fetches all of it on the thief; without
   descendants, the body may take at most SITE_SLOWDOWN times as long
   there as here).  A site refused is tried again once in SITE_RETRY new
   tasks (the data they touch may have moved since).

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
  long here_ns, away_ns, away_total_ns;
  unsigned here_n, away_n, away_total_n, refused;
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
gomp_task_site_given (void (*fn) (void *))
{
  struct task_site *s = site_of (fn);
  if (s)
    __atomic_add_fetch (&s->away_out, 1, __ATOMIC_RELAXED);
}

void
gomp_task_site_back (void (*fn) (void *))
{
  struct task_site *s = site_of (fn);
  if (s)
    __atomic_sub_fetch (&s->away_out, 1, __ATOMIC_RELAXED);
}

void
gomp_task_site_ran_away (void (*fn) (void *), long body_ns, long total_ns)
{
  struct task_site *s = site_of (fn);
  if (s)
    {
      site_sample (&s->away_ns, &s->away_n, body_ns);
      site_sample (&s->away_total_ns, &s->away_total_n, total_ns);
      __atomic_sub_fetch (&s->away_out, 1, __ATOMIC_RELAXED);
    }
}

bool
gomp_task_site_worth_moving (void (*fn) (void *), bool *retry)
{
  struct task_site *s = site_of (fn);
  if (s == NULL)
    return true;
  unsigned away_n = __atomic_load_n (&s->away_n, __ATOMIC_RELAXED);
  if (away_n < SITE_LEARN)
    {
      /* Still learning: a new task may go later; a queued one goes if
	 fewer than SITE_LEARN are away or known.  */
      return retry
	     || away_n + __atomic_load_n (&s->away_out, __ATOMIC_RELAXED)
		< SITE_LEARN;
    }
  unsigned here_n = __atomic_load_n (&s->here_n, __ATOMIC_RELAXED);
  long here = __atomic_load_n (&s->here_ns, __ATOMIC_RELAXED);
  long away = __atomic_load_n (&s->away_ns, __ATOMIC_RELAXED);
  long total = __atomic_load_n (&s->away_total_ns, __ATOMIC_RELAXED);
  /* What moving costs beyond running the body here: at most a
     SITE_SLOWDOWN-th of what the thief gets (for a task with no
     descendants there: a body at most SITE_SLOWDOWN times slower).  */
  if (total >= SITE_MIN_NS
      && (here_n < SITE_LEARN || (away - here) * SITE_SLOWDOWN <= total))
    return true;
  /* Refused; once in SITE_RETRY refusals of new tasks, one is tried
     again.  */
  if (retry && __atomic_add_fetch (&s->refused, 1, __ATOMIC_RELAXED)
	       % SITE_RETRY == 0)
    return *retry = true;
  return false;
}
