/* tasksite.c -- which tasks are worth moving to another node: what the
   node learns per task site (the task's function), used by tasksteal.c
   when it gives tasks away.

   A moved task pays for a steal's round trip, the release and the
   acquire on both sides, and then for every block of shared data it
   and the descendants it makes there read or write on the thief
   through the DSM; what the thief gains is the task and those
   descendants (a recursive task takes its whole subtree along).  A
   body's time is its own: less its waits for other tasks (its taskwait),
   so that a task that only makes and waits for children costs what
   making them costs (tasksched.c).  Each node keeps, per site, averages
   (exponentially weighted, one eighth per sample; see site_average for
   the first eight) of how long a task's body runs here (timed for
   movable tasks only) and, for the tasks it gave away, of what their
   thieves timed: the whole subtree's time there, and how much slower it
   ran there than here -- the bodies of the given task and of its
   descendants there, per site, with the thief's release after them,
   against what they would take here: what their bodies took there less
   what they waited for other nodes (ops->remote_time: the DSM's faults,
   remote locks and atomics), which is what a thief pays for data and
   synchronisation its creator has.  For a site whose tasks make no
   tasks of their own site, no more than as many of its tasks take here
   on average.  Not for a recursive site: its tasks differ in size by
   orders of magnitude (bench/apps' fib: leaves of 0.5 to 60 ms), and the
   site's average made a poor guess of a subtree (sort: subtrees valued
   here at four times, or at two thirds, what they took there; fib: a
   thief's leaf of 10.5 ms, 0.1 ms of it faults, valued at the 1.3 ms
   average: a node could refuse the site after its first subtrees, and
   4 of 54 launches at 2 x 1 took 6.6-8.1 s, about as long as at 1 x 1,
   against 3.6-5 s).  What the thread did for other nodes at a task
   scheduling point in the body (tasksteal.c) is not the body's.  A
   subtree with a site that has not run here yet (a producer that makes
   all its tasks before it runs any) is valued by the thieves' times
   alone; once one subtree could be valued with every one of its sites
   timed here, only such subtrees count.

   Learning.  A site still unknown (fewer than SITE_LEARN subtrees back)
   gives one task, and more only once it came back, SITE_LEARN away at
   most; a site whose subtrees back cost away (below) more than twice
   SITE_SLOWDOWN times as much as here is refused at once (one alone back
   that took under SITE_WARM_NS here may have taken SITE_WARM_NS more
   there: a thief's first task faults in what every task uses).  What it
   gives to learn from is not its oldest queued task, which for a
   recursive site is its largest subtree (bench/apps' sort and strassen:
   a half and a seventh of the whole program, which a thief ran 3 to 7
   times slower while the creator waited for it), but its youngest, the
   smallest subtree; and none until a task of the site has run here or
   SITE_PROBE_WAIT_NS went by (the recursion has unfolded by then: the
   youngest of the first tasks made is as large as the oldest).  A subtree of a
   recursive site that took under SITE_SAMPLE_MIN_NS here and under
   twice that there tells too little (fixed costs) and is not counted,
   and the next one is picked older, up to SITE_LEARN_SMALL times
   (gomp_task_site_pick); one that took longer there is the cost of
   its data (bench/apps' sort: merges of 0.2-0.5 ms here took 3-70 ms
   on the thief, each a wait for their creator) and counts.  A site
   that has run here while every subtree that came back was valued by
   the bound alone (the first ones came back before any ran here) has
   at most SITE_LEARN tasks away, for up to SITE_LEARN_UNKNOWN subtrees.

   Afterwards its tasks go only when what a thief got for one,
   descendants included, pays for the trip (SITE_MIN_NS), and cost away
   at most SITE_SLOWDOWN times as much as here (a body that reads much
   data its creator just wrote fetches all of it on the thief, and so do
   descendants that work on their ancestors' data).  What a subtree
   cost away is its time there and, once more, what that exceeds its
   time here: the thief's waits for its creator's data have a mirror on
   the creator's node, which serves those blocks and reads back what the
   thief wrote, and which no thief's clock sees.  So a subtree moves
   while it takes at most 1.5 times as long there as here.  (bench/apps'
   sort at 2 x 1: its merges' subtrees took 1.5 to 2 times as long on
   the thief and kept moving, while their creator's node spent 1.0 s
   fetching their results, 0.5 s serving their pages and 0.3 s sending
   diffs; the program took 8.6 to 10.6 s against 9.1 s at 1 x 1, and
   9.3 to 9.4 s once the merges stayed home.)  A recursive site's
   subtrees back are also averaged by the depth of the given task
   (task->site_depth: its ancestors of the same site), and a task's
   depth decides where something is known of it (site_depth_verdict); a
   depth nothing is known of, of a site refused as a whole, gives one
   task at a time.  Learnt from its youngest, deepest tasks first, a site
   was refused as a whole, and its largest subtrees, which pay for their
   data best, stayed home with the small ones.  A site refused is
   tried again once in SITE_RETRY new tasks (the data they touch may
   have moved since), and a retry that finds the site still refused
   doubles that, up to SITE_RETRY_MAX: a retry can take a whole subtree
   along.

   The table is small and never shrinks: a program has few task sites.
   A site that finds no room is never refused (it moves as before).
   Updates race benignly (a lost sample).  */

#include "libgomp.h"
#include "task.h"
#include <stdint.h>

#define SITE_SLOTS 256		/* A power of two.  */
#define SITE_LEARN 3
#define SITE_LEARN_UNKNOWN (4 * SITE_LEARN)
#define SITE_MIN_NS 50000L
#define SITE_SLOWDOWN 2
#define SITE_RETRY 256
#define SITE_RETRY_MAX 65536
#define SITE_PROBE_WAIT_NS 20000000L
#define SITE_SAMPLE_MIN_NS 1000000L
#define SITE_LEARN_SMALL 4
#define SITE_WARM_NS 10000000L

/* AWAY_THERE_NS and AWAY_HERE_NS: what the subtrees took on their
   thieves, and what as many tasks of their sites take here (averaged
   alike, so that the large subtrees weigh most); KNOWN_THERE_NS and
   KNOWN_HERE_NS the same over the KNOWN_N subtrees valued with times
   measured here only.  */
struct task_site
{
  uintptr_t fn;
  long here_ns, away_there_ns, away_here_ns, away_total_ns;
  long known_there_ns, known_here_ns;
  unsigned here_n, away_n, away_total_n, known_n;
  unsigned refused, retry_gap;	/* Since the last retry; 0: SITE_RETRY.  */
  unsigned away_out;		/* Given, not come back yet.  */
  uint64_t first_ns;		/* When its first movable task was made.  */
  unsigned learn_small;		/* Subtrees back too small to value.  */
  bool recursive;		/* Its tasks make tasks of the site.  */
  /* A recursive site's subtrees back by the depth of the given task
     (task->site_depth): averaged as AWAY_THERE_NS and AWAY_HERE_NS.  */
  long depth_there_ns[GOMP_TASK_SITE_DEPTHS];
  long depth_here_ns[GOMP_TASK_SITE_DEPTHS];
  unsigned depth_n[GOMP_TASK_SITE_DEPTHS];
  unsigned depth_out[GOMP_TASK_SITE_DEPTHS];	/* Given, not back yet.  */
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

/* Adds sample NS to the average *AVG of K samples, as it is, and as
   one of K + 1 while K < 8: a thief's first task, which finds its caches
   and the blocks it writes cold, must not decide alone.  */
static void
site_average (long *avg, unsigned k, long ns)
{
  long a = __atomic_load_n (avg, __ATOMIC_RELAXED);
  __atomic_store_n (avg, a + (ns - a) / (long) (k < 8 ? k + 1 : 8),
		    __ATOMIC_RELAXED);
}

void
gomp_task_site_ran_here (void (*fn) (void *), long ns)
{
  struct task_site *s = site_of (fn);
  if (s)
    site_sample (&s->here_ns, &s->here_n, ns);
}

bool
gomp_task_site_untimed (void (*fn) (void *))
{
  struct task_site *s = site_of (fn);
  return s && __atomic_load_n (&s->here_n, __ATOMIC_RELAXED) == 0;
}

void
gomp_task_site_given (void (*fn) (void *), unsigned depth)
{
  struct task_site *s = site_of (fn);
  if (s)
    {
      __atomic_add_fetch (&s->away_out, 1, __ATOMIC_RELAXED);
      __atomic_add_fetch (&s->depth_out[depth], 1, __ATOMIC_RELAXED);
    }
}

void
gomp_task_site_back (void (*fn) (void *), unsigned depth)
{
  struct task_site *s = site_of (fn);
  if (s)
    {
      __atomic_sub_fetch (&s->away_out, 1, __ATOMIC_RELAXED);
      __atomic_sub_fetch (&s->depth_out[depth], 1, __ATOMIC_RELAXED);
    }
}

/* A task of FN's site given away has completed: TOTAL_NS, RELEASE_NS and
   TIMES as the host's task_finish has them (cluster.h).  What its tasks
   would have taken here is what they took there less their waits for
   other nodes, and no more than this node's average of their site when
   it is not recursive (see the top).  */
void
gomp_task_site_ran_away (void (*fn) (void *), unsigned depth, long total_ns,
			 long release_ns,
			 const struct gomp_cluster_task_time *times,
			 unsigned ntimes)
{
  struct task_site *s = site_of (fn);
  if (s)
    {
      __atomic_sub_fetch (&s->depth_out[depth], 1, __ATOMIC_RELAXED);
      long there = release_ns, here = 0;
      bool known = true;
      for (unsigned i = 0; i < ntimes; i++)
	{
	  if (times[i].ntasks == 0)
	    continue;
	  struct task_site *d = times[i].fn
				? site_of ((void (*) (void *)) times[i].fn)
				: NULL;
	  long ns = (long) times[i].ns;
	  long bare = ns - (long) times[i].remote_ns;
	  bool timed = d && __atomic_load_n (&d->here_n, __ATOMIC_RELAXED);
	  there += ns;
	  if (timed && !__atomic_load_n (&d->recursive, __ATOMIC_RELAXED))
	    {
	      long avg = (long) times[i].ntasks
			 * __atomic_load_n (&d->here_ns, __ATOMIC_RELAXED);
	      here += avg < bare ? avg : bare;
	    }
	  else
	    {
	      here += bare;
	      known &= timed;
	    }
	}
      /* What the subtree cost away: with the mirror of the thief's extra
	 time on this node (see the top).  */
      long cost = there > here ? 2 * there - here : there;
      if (__atomic_load_n (&s->recursive, __ATOMIC_RELAXED))
	{
	  /* Every subtree counts for its depth, small ones too: a depth
	     whose subtrees are small is one whose tasks stay home.  */
	  unsigned k = __atomic_load_n (&s->depth_n[depth], __ATOMIC_RELAXED);
	  site_average (&s->depth_there_ns[depth], k, cost);
	  site_average (&s->depth_here_ns[depth], k, here);
	  __atomic_store_n (&s->depth_n[depth], k + 1, __ATOMIC_RELAXED);
	}
      unsigned small = __atomic_load_n (&s->learn_small, __ATOMIC_RELAXED);
      if (here < SITE_SAMPLE_MIN_NS && there < 2 * SITE_SAMPLE_MIN_NS
	  && small < SITE_LEARN_SMALL
	  && __atomic_load_n (&s->recursive, __ATOMIC_RELAXED))
	{
	  /* Too small to tell the slowdown from the fixed costs (a
	     thief's first task faults in what any task uses; a sample
	     much slower there is not), and older
	     tasks of the site make larger subtrees: the next one learnt
	     from is older (gomp_task_site_pick).  */
	  __atomic_store_n (&s->learn_small, small + 1, __ATOMIC_RELAXED);
	  __atomic_sub_fetch (&s->away_out, 1, __ATOMIC_RELAXED);
	  return;
	}
      unsigned k = __atomic_load_n (&s->away_n, __ATOMIC_RELAXED);
      site_average (&s->away_there_ns, k, cost);
      site_average (&s->away_here_ns, k, here);
      __atomic_store_n (&s->away_n, k + 1, __ATOMIC_RELAXED);
      if (known)
	{
	  k = __atomic_load_n (&s->known_n, __ATOMIC_RELAXED);
	  site_average (&s->known_there_ns, k, cost);
	  site_average (&s->known_here_ns, k, here);
	  __atomic_store_n (&s->known_n, k + 1, __ATOMIC_RELAXED);
	}
      site_sample (&s->away_total_ns, &s->away_total_n, total_ns);
      __atomic_sub_fetch (&s->away_out, 1, __ATOMIC_RELAXED);
    }
}

/* Whether S still learns: fewer than SITE_LEARN of its subtrees came
   back, and those cost away at most twice SITE_SLOWDOWN times as much
   as here (a site far slower away is refused at once), SITE_WARM_NS more
   when one alone came back that took here under SITE_WARM_NS: what a
   thief's first task pays for the pages any task touches may have made
   it slow.  */
static bool
site_learning (struct task_site *s)
{
  unsigned away_n = __atomic_load_n (&s->away_n, __ATOMIC_RELAXED);
  long here = __atomic_load_n (&s->away_here_ns, __ATOMIC_RELAXED);
  long there = __atomic_load_n (&s->away_there_ns, __ATOMIC_RELAXED);
  long warm = away_n == 1 && here < SITE_WARM_NS ? SITE_WARM_NS : 0;
  return away_n < SITE_LEARN
	 && (away_n == 0 || there <= 2 * SITE_SLOWDOWN * here + warm);
}

bool
gomp_task_site_learning (void (*fn) (void *))
{
  struct task_site *s = site_of (fn);
  return s && site_learning (s);
}

int
gomp_task_site_pick (void (*fn) (void *), unsigned queued)
{
  struct task_site *s = site_of (fn);
  if (s == NULL || queued == 0 || !site_learning (s))
    return 0;
  if (__atomic_load_n (&s->here_n, __ATOMIC_RELAXED) == 0)
    {
      uint64_t first = __atomic_load_n (&s->first_ns, __ATOMIC_RELAXED);
      if (first && gomp_task_now_ns () - first < SITE_PROBE_WAIT_NS)
	return -1;
    }
  unsigned small = __atomic_load_n (&s->learn_small, __ATOMIC_RELAXED);
  if (small >= SITE_LEARN_SMALL)
    return 0;
  return (int) ((queued - 1) * (SITE_LEARN_SMALL - small) / SITE_LEARN_SMALL);
}

/* What the subtrees back say of recursive site S's tasks of depth D:
   1 worth moving, 0 not, -1 nothing of D though other depths are known,
   -2 no depth known.  D's own subtrees decide when some came back; else
   a deeper depth whose subtrees paid (a shallower task is a larger
   subtree of the same kind: more work for the trip), or a shallower one
   whose subtrees did not.  */
static int
site_depth_verdict (struct task_site *s, unsigned d)
{
  int v = -2;
  for (unsigned i = 0; i < GOMP_TASK_SITE_DEPTHS; i++)
    {
      if (__atomic_load_n (&s->depth_n[i], __ATOMIC_RELAXED) == 0)
	continue;
      if (v == -2)
	v = -1;
      long there = __atomic_load_n (&s->depth_there_ns[i], __ATOMIC_RELAXED);
      long here = __atomic_load_n (&s->depth_here_ns[i], __ATOMIC_RELAXED);
      bool good = here >= SITE_MIN_NS && there <= here * SITE_SLOWDOWN;
      if (i == d)
	return good;
      if ((i > d && good) || (i < d && !good))
	v = good;
    }
  return v;
}

bool
gomp_task_site_worth_moving (void (*fn) (void *), bool recursive,
			     unsigned depth, bool *retry)
{
  struct task_site *s = site_of (fn);
  if (s == NULL)
    return true;
  if (recursive && GOMP_UNLIKELY (!__atomic_load_n (&s->recursive,
						     __ATOMIC_RELAXED)))
    __atomic_store_n (&s->recursive, true, __ATOMIC_RELAXED);
  if (retry && GOMP_UNLIKELY (!__atomic_load_n (&s->first_ns,
						 __ATOMIC_RELAXED)))
    __atomic_store_n (&s->first_ns, gomp_task_now_ns (), __ATOMIC_RELAXED);
  unsigned away_n = __atomic_load_n (&s->away_n, __ATOMIC_RELAXED);
  if (site_learning (s))
    {
      /* Still learning: a new task may go later; a queued one goes if
	 fewer than SITE_LEARN are away or known, and the first alone.  */
      unsigned out = __atomic_load_n (&s->away_out, __ATOMIC_RELAXED);
      return retry || (away_n + out < SITE_LEARN && (away_n || !out));
    }
  bool known = __atomic_load_n (&s->known_n, __ATOMIC_RELAXED) != 0;
  /* No subtree valued with times measured here yet, though the site has
     run here by now: the early subtrees, valued by the thief's times
     alone, must not open the site to every thief.  At most SITE_LEARN go at
     once until one comes back valued (or SITE_LEARN_UNKNOWN could not
     be).  */
  if (!known && away_n < SITE_LEARN_UNKNOWN
      && __atomic_load_n (&s->here_n, __ATOMIC_RELAXED))
    return retry
	   || __atomic_load_n (&s->away_out, __ATOMIC_RELAXED) < SITE_LEARN;
  long there = __atomic_load_n (known ? &s->known_there_ns
				: &s->away_there_ns, __ATOMIC_RELAXED);
  long here = __atomic_load_n (known ? &s->known_here_ns
			       : &s->away_here_ns, __ATOMIC_RELAXED);
  long total = __atomic_load_n (&s->away_total_ns, __ATOMIC_RELAXED);
  /* A recursive site's tasks by their depth, where the subtrees back
     tell (its subtrees differ in size by orders of magnitude, and so
     does what moving one gains: bench/apps' strassen's largest ones ran
     1.25-1.45 times as long on a thief, its smallest 2-6 times); else
     the site as a whole, and a depth nothing tells of yet, of a site
     refused as a whole, gives one task at a time, to learn.  A subtree
     goes when away it costs at most SITE_SLOWDOWN times as much as
     here.  */
  int by_depth = __atomic_load_n (&s->recursive, __ATOMIC_RELAXED)
		 ? site_depth_verdict (s, depth) : -2;
  if (by_depth == 1
      || (by_depth < 0 && total >= SITE_MIN_NS
	  && there <= here * SITE_SLOWDOWN))
    {
      if (__atomic_load_n (&s->retry_gap, __ATOMIC_RELAXED))
	__atomic_store_n (&s->retry_gap, 0, __ATOMIC_RELAXED);
      return true;
    }
  if (by_depth == -1)
    return retry
	   || __atomic_load_n (&s->depth_out[depth], __ATOMIC_RELAXED) == 0;
  /* Refused; once in the gap, a new task is tried again.  */
  if (retry)
    {
      unsigned gap = __atomic_load_n (&s->retry_gap, __ATOMIC_RELAXED);
      if (gap == 0)
	gap = SITE_RETRY;
      if (__atomic_add_fetch (&s->refused, 1, __ATOMIC_RELAXED) >= gap)
	{
	  __atomic_store_n (&s->refused, 0, __ATOMIC_RELAXED);
	  __atomic_store_n (&s->retry_gap,
			    gap < SITE_RETRY_MAX ? 2 * gap : gap,
			    __ATOMIC_RELAXED);
	  return *retry = true;
	}
    }
  return false;
}
