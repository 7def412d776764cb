/* affinity.c -- processors, places and thread binding (OpenMP 5.1
   sections 2.6.2, 6.4 and 6.5).  OMP_PLACES is checked for syntax at
   start-up but made into places only when a region binds threads or the
   program asks about places: the abstract names (threads, cores, sockets,
   ll_caches, numa_domains) go through hwloc then, so a program that does
   not bind never loads the machine's topology.  Places keep only the
   processors the process may run on.  */

#include "libgomp.h"
#include <ctype.h>
#include <dirent.h>
#include <hwloc.h>
#include <pthread.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

unsigned gomp_available_cpus = 1;

/* The processors the process may use at start-up.  */
static cpu_set_t gomp_cpus_allowed;

/* The places, once made (gomp_places_ready).  */
static cpu_set_t *gomp_places;
static unsigned gomp_num_places;
static pthread_once_t gomp_places_once = PTHREAD_ONCE_INIT;

void
gomp_affinity_init_cpus (void)
{
  CPU_ZERO (&gomp_cpus_allowed);
  if (sched_getaffinity (0, sizeof gomp_cpus_allowed, &gomp_cpus_allowed)
      == 0)
    {
      int n = CPU_COUNT (&gomp_cpus_allowed);
      gomp_available_cpus = n > 0 ? (unsigned) n : 1;
    }
  else
    {
      long n = sysconf (_SC_NPROCESSORS_ONLN);
      gomp_available_cpus = n > 0 ? (unsigned) n : 1;
      for (long i = 0; i < n && i < CPU_SETSIZE; i++)
	CPU_SET (i, &gomp_cpus_allowed);
    }
}

/* Ranks sharing a machine.  MPICH's mpiexec binds nothing by default, so
   two ranks of 1 thread on a 2-processor machine each wander over both
   processors, and every mprotect that takes rights away (the DSM's
   releases and invalidations) interrupts the other processor to flush
   its TLB, which runs the other rank: on this project's virtual
   machines those interrupts took 12-20% of a rank's samples in NPB BT.
   Bound each to a processor of its own, a rank's flushes stay on it:
   BT W at 2 x 1 took 39.5 s against 52.2 s, MG W 0.96 s against 1.38 s,
   and no benchmark was slower (bench/results/npb.md, side by side).  Only
   when every rank of the machine started with the same processors (no
   launcher or scheduler bound them: cluster/wait.c compares) and
   OMP_NUM_THREADS says how many threads each has, and only when they
   fit: rank I of N takes the I-th group of THREADS cores of those
   processors (hwloc's order), or of hardware threads when the cores are
   too few; otherwise nothing changes.  Every thread of the process
   (MPI's own, the service thread) moves with it, and the places (which
   keep only the allowed processors) are made from the new set.  */
bool gomp_bind_ranks_var = true;

/* The processors of hwloc object OBJ that the process may use, in *SET;
   returns how many.  */
static int
gomp_obj_allowed (hwloc_obj_t obj, cpu_set_t *set)
{
  CPU_ZERO (set);
  int cpu;
  hwloc_bitmap_foreach_begin (cpu, obj->cpuset)
    if (cpu < CPU_SETSIZE && CPU_ISSET (cpu, &gomp_cpus_allowed))
      CPU_SET (cpu, set);
  hwloc_bitmap_foreach_end ();
  return CPU_COUNT (set);
}

void
gomp_affinity_bind_rank (int local_rank, int local_ranks,
			 unsigned long threads)
{
  if (!gomp_bind_ranks_var || local_ranks < 2 || threads == 0
      || local_rank < 0 || local_rank >= local_ranks)
    return;
  hwloc_topology_t topo;
  if (hwloc_topology_init (&topo))
    return;
  if (hwloc_topology_load (topo))
    {
      hwloc_topology_destroy (topo);
      return;
    }
  cpu_set_t set;
  CPU_ZERO (&set);
  unsigned long first = (unsigned long) local_rank * threads;
  for (int pass = 0; pass < 2 && !CPU_COUNT (&set); pass++)
    {
      hwloc_obj_type_t type = pass == 0 ? HWLOC_OBJ_CORE : HWLOC_OBJ_PU;
      int nobj = hwloc_get_nbobjs_by_type (topo, type);
      unsigned long units = 0;
      for (int i = 0; i < nobj; i++)
	{
	  cpu_set_t unit;
	  if (!gomp_obj_allowed (hwloc_get_obj_by_type (topo, type, i), &unit))
	    continue;
	  if (units >= first && units < first + threads)
	    CPU_OR (&set, &set, &unit);
	  units++;
	}
      if (units < (unsigned long) local_ranks * threads)
	CPU_ZERO (&set);
    }
  hwloc_topology_destroy (topo);
  if (!CPU_COUNT (&set))
    return;
  DIR *d = opendir ("/proc/self/task");
  if (!d)
    return;
  struct dirent *e;
  while ((e = readdir (d)))
    if (isdigit ((unsigned char) e->d_name[0]))
      sched_setaffinity ((pid_t) atoi (e->d_name), sizeof set, &set);
  closedir (d);
  gomp_affinity_init_cpus ();
  char buf[256];
  gomp_place_format (buf, sizeof buf, &set);
  gomp_debug ("rank %d of this machine's %d: bound to processors %s",
	      local_rank, local_ranks, buf);
}

/* The abstract place names, the hwloc object each place is.  */
static const struct
{
  const char *name;
  hwloc_obj_type_t type;
} gomp_place_kinds[] = {
  { "threads", HWLOC_OBJ_PU },
  { "cores", HWLOC_OBJ_CORE },
  { "sockets", HWLOC_OBJ_PACKAGE },
  { "ll_caches", HWLOC_OBJ_L3CACHE },
  { "numa_domains", HWLOC_OBJ_NUMANODE },
};
#define GOMP_PLACE_KINDS (sizeof gomp_place_kinds / sizeof gomp_place_kinds[0])

static const char *
gomp_aff_space (const char *s)
{
  while (isspace ((unsigned char) *s))
    s++;
  return s;
}

static bool
gomp_aff_number (const char **s, long *out, bool allow_negative)
{
  const char *p = gomp_aff_space (*s);
  char *end;
  if (!isdigit ((unsigned char) *p) && !(allow_negative && *p == '-'))
    return false;
  *out = strtol (p, &end, 10);
  if (end == p)
    return false;
  *s = gomp_aff_space (end);
  return true;
}

/* Adds place SET to the list being built (if LIST is not NULL).  */
static bool
gomp_aff_add (cpu_set_t **list, unsigned *n, const cpu_set_t *set)
{
  if (list)
    {
      cpu_set_t *l = realloc (*list, (*n + 1) * sizeof *l);
      if (!l)
	return false;
      *list = l;
      l[*n] = *set;
    }
  (*n)++;
  return true;
}

/* Parses "num[:len[:stride]]" or "!num" inside braces into SET.  */
static bool
gomp_aff_resources (const char **s, cpu_set_t *set)
{
  const char *p = *s;
  CPU_ZERO (set);
  for (;;)
    {
      bool neg = false;
      long num, len = 1, stride = 1;
      p = gomp_aff_space (p);
      if (*p == '!')
	{
	  neg = true;
	  p++;
	}
      if (!gomp_aff_number (&p, &num, false))
	return false;
      if (!neg && *p == ':')
	{
	  p++;
	  if (!gomp_aff_number (&p, &len, false) || len < 1)
	    return false;
	  if (*p == ':')
	    {
	      p++;
	      if (!gomp_aff_number (&p, &stride, true) || stride == 0)
		return false;
	    }
	}
      for (long i = 0; i < len; i++)
	{
	  long cpu = num + i * stride;
	  if (cpu < 0 || cpu >= CPU_SETSIZE)
	    return false;
	  if (neg)
	    CPU_CLR (cpu, set);
	  else
	    CPU_SET (cpu, set);
	}
      p = gomp_aff_space (p);
      if (*p == '}')
	{
	  *s = p + 1;
	  return true;
	}
      if (*p++ != ',')
	return false;
    }
}

/* Parses an explicit place list; with LIST NULL it only checks.  */
static bool
gomp_aff_explicit (const char *p, cpu_set_t **list, unsigned *n)
{
  *n = 0;
  for (;;)
    {
      cpu_set_t set;
      long count = 1, stride = 1;
      bool neg = false;
      p = gomp_aff_space (p);
      if (*p == '!')
	{
	  neg = true;
	  p = gomp_aff_space (p + 1);
	}
      if (*p != '{')
	return false;
      p++;
      if (!gomp_aff_resources (&p, &set))
	return false;
      p = gomp_aff_space (p);
      if (!neg && *p == ':')
	{
	  p++;
	  if (!gomp_aff_number (&p, &count, false) || count < 1)
	    return false;
	  if (*p == ':')
	    {
	      p++;
	      if (!gomp_aff_number (&p, &stride, true))
		return false;
	    }
	}
      for (long k = 0; k < count; k++)
	{
	  cpu_set_t shifted;
	  CPU_ZERO (&shifted);
	  for (int c = 0; c < CPU_SETSIZE; c++)
	    if (CPU_ISSET (c, &set))
	      {
		long d = c + k * stride;
		if (d < 0 || d >= CPU_SETSIZE)
		  return false;
		CPU_SET (d, &shifted);
	      }
	  if (neg)
	    {
	      /* !{...} removes an earlier identical place.  */
	      if (list)
		for (unsigned i = 0; i < *n; i++)
		  if (CPU_EQUAL (&(*list)[i], &shifted))
		    {
		      memmove (&(*list)[i], &(*list)[i + 1],
			       (*n - i - 1) * sizeof **list);
		      (*n)--;
		      break;
		    }
	    }
	  else if (!gomp_aff_add (list, n, &shifted))
	    return false;
	}
      p = gomp_aff_space (p);
      if (*p == '\0')
	return *n > 0 || !list;
      if (*p++ != ',')
	return false;
    }
}

/* Recognises an abstract name: its kind, and the count in parentheses
   (0 if none).  */
static bool
gomp_aff_abstract (const char *p, int *kind, long *count)
{
  p = gomp_aff_space (p);
  for (size_t k = 0; k < GOMP_PLACE_KINDS; k++)
    {
      size_t len = strlen (gomp_place_kinds[k].name);
      if (strncasecmp (p, gomp_place_kinds[k].name, len) != 0)
	continue;
      const char *q = gomp_aff_space (p + len);
      *kind = (int) k;
      *count = 0;
      if (*q == '(')
	{
	  q++;
	  if (!gomp_aff_number (&q, count, false) || *count < 1 || *q != ')')
	    return false;
	  q = gomp_aff_space (q + 1);
	}
      return *q == '\0';
    }
  return false;
}

bool
gomp_places_parse_check (const char *val)
{
  int kind;
  long count;
  unsigned n;
  return gomp_aff_abstract (val, &kind, &count)
	 || gomp_aff_explicit (val, NULL, &n);
}

/* Places from hwloc objects of the abstract KIND (at most COUNT).  */
static void
gomp_places_from_hwloc (int kind, long count)
{
  hwloc_topology_t topo;
  if (hwloc_topology_init (&topo) || hwloc_topology_load (topo))
    {
      gomp_error ("OMP_PLACES: cannot read the machine's topology with "
		  "hwloc; threads are not bound");
      return;
    }
  hwloc_obj_type_t type = gomp_place_kinds[kind].type;
  int depth = hwloc_get_type_depth (topo, type);
  if (type == HWLOC_OBJ_L3CACHE && depth < 0)
    {
      /* No L3: the last level is the deepest cache there is.  */
      static const hwloc_obj_type_t caches[] = { HWLOC_OBJ_L2CACHE,
						 HWLOC_OBJ_L1CACHE };
      for (size_t i = 0; i < 2 && depth < 0; i++)
	{
	  type = caches[i];
	  depth = hwloc_get_type_depth (topo, type);
	}
    }
  if (depth < 0 && type != HWLOC_OBJ_NUMANODE)
    type = HWLOC_OBJ_PU;
  int nobj = hwloc_get_nbobjs_by_type (topo, type);
  for (int i = 0; i < nobj; i++)
    {
      cpu_set_t set;
      if (!gomp_obj_allowed (hwloc_get_obj_by_type (topo, type, i), &set))
	continue;
      if (count && (long) gomp_num_places >= count)
	break;
      gomp_aff_add (&gomp_places, &gomp_num_places, &set);
    }
  hwloc_topology_destroy (topo);
}

static void
gomp_places_make (void)
{
  const char *val = gomp_places_var;
  int kind;
  long count;
  if (!val)
    {
      /* Binding without OMP_PLACES: one place per core.  */
      gomp_places_from_hwloc (1, 0);
      return;
    }
  if (gomp_aff_abstract (val, &kind, &count))
    {
      gomp_places_from_hwloc (kind, count);
      return;
    }
  cpu_set_t *list = NULL;
  unsigned n = 0;
  if (!gomp_aff_explicit (val, &list, &n))
    {
      free (list);
      return;
    }
  /* Keep the allowed processors of each place, and the non-empty
     places.  */
  for (unsigned i = 0; i < n; i++)
    {
      CPU_AND (&list[i], &list[i], &gomp_cpus_allowed);
      if (CPU_COUNT (&list[i]))
	gomp_aff_add (&gomp_places, &gomp_num_places, &list[i]);
    }
  free (list);
}

/* The number of places, making them on first use.  */
unsigned
gomp_places_count (void)
{
  pthread_once (&gomp_places_once, gomp_places_make);
  return gomp_num_places;
}

const cpu_set_t *
gomp_place_set (unsigned place)
{
  if (place < 1 || place > gomp_places_count ())
    return NULL;
  return &gomp_places[place - 1];
}

void
gomp_bind_thread (unsigned place)
{
  const cpu_set_t *set = gomp_place_set (place);
  if (!set)
    return;
  int err = pthread_setaffinity_np (pthread_self (), sizeof *set, set);
  if (err)
    gomp_debug ("cannot bind a thread to place %u: %s", place - 1,
		strerror (err));
}

/* Writes a place's processors as "{0,1,2}" with runs as "0:3".  */
int
gomp_place_format (char *buf, size_t len, const cpu_set_t *set)
{
  int k = snprintf (buf, len, "{");
  bool first = true;
  for (int c = 0; c < CPU_SETSIZE && k > 0 && (size_t) k < len; c++)
    {
      if (!CPU_ISSET (c, set))
	continue;
      int e = c;
      while (e + 1 < CPU_SETSIZE && CPU_ISSET (e + 1, set))
	e++;
      if (e > c)
	k += snprintf (buf + k, len - k, "%s%d:%d", first ? "" : ",", c,
		       e - c + 1);
      else
	k += snprintf (buf + k, len - k, "%s%d", first ? "" : ",", c);
      first = false;
      c = e;
    }
  if (k > 0 && (size_t) k < len)
    k += snprintf (buf + k, len - k, "}");
  return k;
}

void
gomp_places_show (char *buf, size_t len)
{
  if (!gomp_places_var)
    {
      snprintf (buf, len, "%s", "");
      return;
    }
  int k = 0;
  unsigned n = gomp_places_count ();
  for (unsigned i = 0; i < n && k >= 0 && (size_t) k < len; i++)
    {
      if (i)
	k += snprintf (buf + k, len - k, ",");
      if ((size_t) k < len)
	k += gomp_place_format (buf + k, len - k, &gomp_places[i]);
    }
}

/* OpenMP 5.1 section 2.6.2: where thread I (0: the master) of a new team
   of N threads goes, for policy BIND, when the master is at place MASTER
   (1-based) of the partition [*OFF, *OFF + *LEN) (0-based place numbers).
   Returns the thread's place and narrows *OFF and *LEN to its partition.  */
unsigned
gomp_affinity_place (int bind, unsigned master, unsigned *off, unsigned *len,
		     unsigned n, unsigned i)
{
  unsigned p = *len, m = master - 1 - *off;
  if (bind == GOMP_BIND_PRIMARY || p == 0)
    return master;
  if (bind == GOMP_BIND_CLOSE || n > p)
    {
      unsigned k = n <= p ? i : (unsigned) ((unsigned long) i * p / n);
      unsigned place = *off + (m + k) % p;
      if (bind != GOMP_BIND_CLOSE)
	{
	  /* spread with more threads than places: one place each.  */
	  *off = place;
	  *len = 1;
	}
      return place + 1;
    }
  /* spread (and true): N subpartitions of P / N places (the first P % N
     one more); the master's subpartition is the one holding its place and
     thread I gets the I-th after it, at its first place.  */
  unsigned q = p / n, r = p % n;
  unsigned k0 = m < r * (q + 1) ? m / (q + 1) : r + (m - r * (q + 1)) / q;
  unsigned k = (k0 + i) % n;
  unsigned start = k < r ? k * (q + 1) : r * (q + 1) + (k - r) * q;
  unsigned base = *off;
  *off = base + start;
  *len = k < r ? q + 1 : q;
  return base + (i == 0 ? m : start) + 1;
}

/* The places API (OpenMP 5.1 sections 3.3.2-3.3.7).  */
GOMP_EXPORT int
omp_get_num_places (void)
{
  return (int) gomp_places_count ();
}

GOMP_EXPORT int
omp_get_place_num_procs (int place)
{
  const cpu_set_t *set = gomp_place_set ((unsigned) place + 1);
  return set && place >= 0 ? CPU_COUNT (set) : 0;
}

GOMP_EXPORT void
omp_get_place_proc_ids (int place, int *ids)
{
  const cpu_set_t *set = gomp_place_set ((unsigned) place + 1);
  if (!set || place < 0)
    return;
  for (int c = 0, k = 0; c < CPU_SETSIZE; c++)
    if (CPU_ISSET (c, set))
      ids[k++] = c;
}

GOMP_EXPORT int
omp_get_place_num (void)
{
  unsigned place = gomp_thread ()->place;
  return place && place <= gomp_places_count () ? (int) place - 1 : -1;
}

/* A thread's partition: ts.place_partition_len 0 means all places.  */
static void
gomp_partition (unsigned *off, unsigned *len)
{
  struct gomp_thread *thr = gomp_thread ();
  *off = thr->ts.place_partition_off;
  *len = thr->ts.place_partition_len;
  if (*len == 0)
    {
      *off = 0;
      *len = gomp_places_count ();
    }
}

GOMP_EXPORT int
omp_get_partition_num_places (void)
{
  unsigned off, len;
  gomp_partition (&off, &len);
  return (int) len;
}

GOMP_EXPORT void
omp_get_partition_place_nums (int *place_nums)
{
  unsigned off, len;
  gomp_partition (&off, &len);
  for (unsigned i = 0; i < len; i++)
    place_nums[i] = (int) (off + i);
}
