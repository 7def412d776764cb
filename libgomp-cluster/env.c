/* env.c -- the initial values of the internal control variables (OpenMP
   5.1 section 2.4) and the one table of the environment variables the
   runtime reads (OpenMP 5.1 chapter 6, GOMP_SPINCOUNT, and ompcluster's
   OMPC_*).  The table drives parsing, the OMP_DISPLAY_ENV output and the
   README's list.  A bad value is reported with the variable's name and
   ignored (the default stays).  This file parses the OpenMP variables and
   reads the environment for every row; the OMPC_* rows' parse and show
   functions are in env_ompc.c, the output the table drives is in
   env_display.c, and env.h declares what the three share.  */

#include "env.h"
#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

struct gomp_task_icv gomp_global_icv = {
  .nthreads_var = 1,
  .run_sched_var = GFS_DYNAMIC,
  .run_sched_chunk_size = 1,
  .default_device_var = 0,
  .thread_limit_var = UINT_MAX,
  .dyn_var = false,
  .max_active_levels_var = 1,
  .bind_var = GOMP_BIND_FALSE,
};

unsigned long *gomp_nthreads_var_list;
size_t gomp_nthreads_var_list_len;
char *gomp_bind_var_list;
size_t gomp_bind_var_list_len;
bool gomp_cancel_var;
int gomp_max_task_priority_var;
unsigned long gomp_stacksize;
int gomp_wait_policy = -1;
bool gomp_display_affinity_var;
char *gomp_affinity_format_var = "level %L thread %i affinity %A";
size_t gomp_affinity_format_len;
unsigned gomp_global_icvs_gen;
unsigned long gomp_spin_count = 300000, gomp_spin_count_throttled = 1000;
/* OMP_PLACES as given (affinity.c turns it into places when needed).  */
const char *gomp_places_var;
/* OMP_DISPLAY_ENV: 0 no, 1 yes, 2 verbose.  */
static int gomp_display_env;
bool gomp_spin_count_set;

/* Invalid values seen.  One node ignores them, as GCC's libgomp does;
   several nodes refuse to start (start.c), and only rank 0 names them.  */
int gomp_env_errors;

static void
gomp_env_bad (const char *name, const char *val, const char *expected)
{
  gomp_env_errors++;
  if (gomp_launcher_size () <= 1)
    gomp_error ("invalid value '%s' for environment variable %s (expected "
		"%s); it is ignored", val, name, expected);
  else if (gomp_launcher_rank () <= 0)
    gomp_error ("invalid value '%s' for environment variable %s (expected "
		"%s)", val, name, expected);
}

static const char *
gomp_skip_space (const char *s)
{
  while (isspace ((unsigned char) *s))
    s++;
  return s;
}

/* Parses an unsigned number at *S (advancing it); false if none.  */
static bool
gomp_parse_number (const char **s, unsigned long *out)
{
  const char *p = gomp_skip_space (*s);
  char *end;
  if (!isdigit ((unsigned char) *p))
    return false;
  errno = 0;
  *out = strtoul (p, &end, 10);
  if (errno)
    return false;
  *s = gomp_skip_space (end);
  return true;
}

bool
gomp_parse_bool_value (const char *val, bool *out)
{
  const char *p = gomp_skip_space (val);
  size_t n = strlen (p);
  while (n && isspace ((unsigned char) p[n - 1]))
    n--;
  if (n == 4 && strncasecmp (p, "true", 4) == 0)
    *out = true;
  else if (n == 5 && strncasecmp (p, "false", 5) == 0)
    *out = false;
  else
    return false;
  return true;
}

bool
gomp_parse_ulong_value (const char *val, unsigned long *out)
{
  const char *p = val;
  return gomp_parse_number (&p, out) && *p == '\0';
}

/* OMP_NUM_THREADS: a list of positive numbers, each one a thread count
   omp_get_max_threads can return (an int).  */
static bool
parse_num_threads (const struct gomp_env_var *v, const char *val)
{
  unsigned long list[64];
  size_t n = 0;
  const char *p = val;
  for (;;)
    {
      if (n == 64 || !gomp_parse_number (&p, &list[n]) || list[n] == 0
	  || list[n] > INT_MAX)
	return false;
      n++;
      if (*p == '\0')
	break;
      if (*p++ != ',')
	return false;
    }
  gomp_global_icv.nthreads_var = list[0];
  gomp_cluster_env.num_threads = list[0];
  if (n > 1)
    {
      gomp_nthreads_var_list = malloc (n * sizeof *list);
      if (!gomp_nthreads_var_list)
	return false;
      memcpy (gomp_nthreads_var_list, list, n * sizeof *list);
      gomp_nthreads_var_list_len = n;
    }
  return true;
}

static void
show_num_threads (char *buf, size_t len)
{
  int k = snprintf (buf, len, "%lu", gomp_global_icv.nthreads_var);
  for (size_t i = 1; i < gomp_nthreads_var_list_len && k > 0
		     && (size_t) k < len; i++)
    k += snprintf (buf + k, len - k, ",%lu", gomp_nthreads_var_list[i]);
}

/* OMP_SCHEDULE: [monotonic:|nonmonotonic:]kind[,chunk].  */
static bool
parse_schedule (const struct gomp_env_var *v, const char *val)
{
  static const char *const kinds[] = { "static", "dynamic", "guided", "auto" };
  const char *p = gomp_skip_space (val);
  unsigned monotonic = 0;
  if (strncasecmp (p, "monotonic:", 10) == 0)
    {
      monotonic = GFS_MONOTONIC;
      p = gomp_skip_space (p + 10);
    }
  else if (strncasecmp (p, "nonmonotonic:", 13) == 0)
    p = gomp_skip_space (p + 13);
  int kind = -1;
  for (int i = 0; i < 4; i++)
    {
      size_t n = strlen (kinds[i]);
      if (strncasecmp (p, kinds[i], n) == 0
	  && (p[n] == '\0' || p[n] == ',' || isspace ((unsigned char) p[n])))
	{
	  kind = GFS_STATIC + i;
	  p = gomp_skip_space (p + n);
	  break;
	}
    }
  if (kind < 0)
    return false;
  unsigned long chunk = kind == GFS_STATIC || kind == GFS_AUTO ? 0 : 1;
  if (*p == ',')
    {
      p++;
      if (!gomp_parse_number (&p, &chunk) || *p != '\0' || chunk == 0
	  || chunk > INT_MAX)
	return false;
      if (kind == GFS_AUTO)
	chunk = 0;
    }
  else if (*p != '\0')
    return false;
  gomp_global_icv.run_sched_var = (enum gomp_schedule_type) (kind | monotonic);
  gomp_global_icv.run_sched_chunk_size = chunk;
  return true;
}

static void
show_schedule (char *buf, size_t len)
{
  static const char *const kinds[] = { "RUNTIME", "STATIC", "DYNAMIC",
				       "GUIDED", "AUTO" };
  enum gomp_schedule_type s = gomp_global_icv.run_sched_var;
  const char *mod = (s & GFS_MONOTONIC) ? "MONOTONIC:" : "";
  s &= ~GFS_MONOTONIC;
  if (gomp_global_icv.run_sched_chunk_size)
    snprintf (buf, len, "%s%s,%ld", mod, kinds[s],
	      gomp_global_icv.run_sched_chunk_size);
  else
    snprintf (buf, len, "%s%s", mod, kinds[s]);
}

static bool
parse_dynamic (const struct gomp_env_var *v, const char *val)
{
  return gomp_parse_bool_value (val, &gomp_global_icv.dyn_var);
}

static void
show_dynamic (char *buf, size_t len)
{
  snprintf (buf, len, "%s", gomp_global_icv.dyn_var ? "TRUE" : "FALSE");
}

static bool gomp_max_active_levels_set;

static bool
parse_nested (const struct gomp_env_var *v, const char *val)
{
  bool nested;
  if (!gomp_parse_bool_value (val, &nested))
    return false;
  /* OMP_MAX_ACTIVE_LEVELS wins over the deprecated OMP_NESTED.  */
  if (!gomp_max_active_levels_set)
    gomp_global_icv.max_active_levels_var = nested ? 255 : 1;
  return true;
}

static void
show_nested (char *buf, size_t len)
{
  snprintf (buf, len, "%s",
	    gomp_global_icv.max_active_levels_var > 1 ? "TRUE" : "FALSE");
}

static bool
parse_max_active_levels (const struct gomp_env_var *v, const char *val)
{
  unsigned long n;
  if (!gomp_parse_ulong_value (val, &n))
    return false;
  gomp_global_icv.max_active_levels_var = n > 255 ? 255 : n;
  gomp_max_active_levels_set = true;
  return true;
}

static void
show_max_active_levels (char *buf, size_t len)
{
  snprintf (buf, len, "%u", gomp_global_icv.max_active_levels_var);
}

static bool
parse_thread_limit (const struct gomp_env_var *v, const char *val)
{
  unsigned long n;
  if (!gomp_parse_ulong_value (val, &n) || n == 0)
    return false;
  gomp_global_icv.thread_limit_var = n >= UINT_MAX ? UINT_MAX - 1 : n;
  return true;
}

static void
show_thread_limit (char *buf, size_t len)
{
  unsigned l = gomp_global_icv.thread_limit_var;
  snprintf (buf, len, "%u", l == UINT_MAX ? INT_MAX : l);
}

/* A size with an optional unit B, K, M or G (default K).  */
static bool
parse_stacksize (const struct gomp_env_var *v, const char *val)
{
  const char *p = val;
  unsigned long n, shift = 10;
  if (!gomp_parse_number (&p, &n))
    return false;
  switch (tolower ((unsigned char) *p))
    {
    case 'b': shift = 0; p++; break;
    case 'k': shift = 10; p++; break;
    case 'm': shift = 20; p++; break;
    case 'g': shift = 30; p++; break;
    case '\0': break;
    default: return false;
    }
  p = gomp_skip_space (p);
  if (*p || n == 0 || n > (~0ul >> shift))
    return false;
  gomp_stacksize = n << shift;
  return true;
}

static void
show_stacksize (char *buf, size_t len)
{
  if (gomp_stacksize)
    snprintf (buf, len, "%luK", gomp_stacksize >> 10);
  else
    snprintf (buf, len, "default");
}

static bool
parse_wait_policy (const struct gomp_env_var *v, const char *val)
{
  const char *p = gomp_skip_space (val);
  if (strncasecmp (p, "active", 6) == 0 && !*gomp_skip_space (p + 6))
    gomp_wait_policy = 1;
  else if (strncasecmp (p, "passive", 7) == 0 && !*gomp_skip_space (p + 7))
    gomp_wait_policy = 0;
  else
    return false;
  return true;
}

static void
show_wait_policy (char *buf, size_t len)
{
  snprintf (buf, len, "%s", gomp_wait_policy > 0 ? "ACTIVE" : "PASSIVE");
}

/* GOMP_SPINCOUNT: a number with an optional k, M, G or T factor, or
   "infinite".  */
static bool
parse_spincount (const struct gomp_env_var *v, const char *val)
{
  const char *p = gomp_skip_space (val);
  unsigned long n, mult = 1;
  if (strncasecmp (p, "infinite", 8) == 0 || strncasecmp (p, "infinity", 8) == 0)
    {
      if (*gomp_skip_space (p + 8))
	return false;
      n = ~0ul;
    }
  else
    {
      if (!gomp_parse_number (&p, &n))
	return false;
      switch (tolower ((unsigned char) *p))
	{
	case 'k': mult = 1000ul; p++; break;
	case 'm': mult = 1000000ul; p++; break;
	case 'g': mult = 1000000000ul; p++; break;
	case 't': mult = 1000000000000ul; p++; break;
	default: break;
	}
      if (*gomp_skip_space (p))
	return false;
      n = __builtin_mul_overflow (n, mult, &n) ? ~0ul : n;
    }
  gomp_spin_count = n;
  gomp_spin_count_set = true;
  return true;
}

static void
show_spincount (char *buf, size_t len)
{
  snprintf (buf, len, "%lu", gomp_spin_count);
}

/* OMP_PROC_BIND: false, true, or a list of primary/master/close/spread.  */
static bool
parse_proc_bind (const struct gomp_env_var *v, const char *val)
{
  static const struct { const char *name; char kind; } kinds[] = {
    { "false", GOMP_BIND_FALSE }, { "true", GOMP_BIND_TRUE },
    { "primary", GOMP_BIND_PRIMARY }, { "master", GOMP_BIND_PRIMARY },
    { "close", GOMP_BIND_CLOSE }, { "spread", GOMP_BIND_SPREAD } };
  char list[64];
  size_t n = 0;
  const char *p = gomp_skip_space (val);
  for (;;)
    {
      size_t k, len = 0;
      for (k = 0; k < sizeof kinds / sizeof kinds[0]; k++)
	{
	  len = strlen (kinds[k].name);
	  if (strncasecmp (p, kinds[k].name, len) == 0
	      && (p[len] == '\0' || p[len] == ','
		  || isspace ((unsigned char) p[len])))
	    break;
	}
      if (k == sizeof kinds / sizeof kinds[0] || n == 64)
	return false;
      /* true and false are valid only alone.  */
      if (kinds[k].kind <= GOMP_BIND_TRUE && (n > 0 || strchr (p, ',')))
	return false;
      list[n++] = kinds[k].kind;
      p = gomp_skip_space (p + len);
      if (*p == '\0')
	break;
      if (*p++ != ',')
	return false;
      p = gomp_skip_space (p);
    }
  gomp_global_icv.bind_var = list[0];
  if (n > 1)
    {
      gomp_bind_var_list = malloc (n);
      if (!gomp_bind_var_list)
	return false;
      memcpy (gomp_bind_var_list, list, n);
      gomp_bind_var_list_len = n;
    }
  return true;
}

static void
show_proc_bind (char *buf, size_t len)
{
  static const char *const names[] = { "FALSE", "TRUE", "PRIMARY", "CLOSE",
				       "SPREAD" };
  int k = snprintf (buf, len, "%s", names[(int) gomp_global_icv.bind_var]);
  for (size_t i = 1; i < gomp_bind_var_list_len && k > 0
		     && (size_t) k < len; i++)
    k += snprintf (buf + k, len - k, ",%s",
		   names[(int) gomp_bind_var_list[i]]);
}

static bool
parse_places (const struct gomp_env_var *v, const char *val)
{
  if (!gomp_places_parse_check (val))
    return false;
  gomp_places_var = val;
  return true;
}

static void
show_places (char *buf, size_t len)
{
  gomp_places_show (buf, len);
}

static bool
parse_cancellation (const struct gomp_env_var *v, const char *val)
{
  return gomp_parse_bool_value (val, &gomp_cancel_var);
}

static void
show_cancellation (char *buf, size_t len)
{
  snprintf (buf, len, "%s", gomp_cancel_var ? "TRUE" : "FALSE");
}

static bool
parse_display_env (const struct gomp_env_var *v, const char *val)
{
  bool b;
  const char *p = gomp_skip_space (val);
  if (strncasecmp (p, "verbose", 7) == 0 && !*gomp_skip_space (p + 7))
    gomp_display_env = 2;
  else if (gomp_parse_bool_value (val, &b))
    gomp_display_env = b;
  else
    return false;
  return true;
}

static void
show_display_env (char *buf, size_t len)
{
  static const char *const names[] = { "FALSE", "TRUE", "VERBOSE" };
  snprintf (buf, len, "%s", names[gomp_display_env]);
}

static bool
parse_display_affinity (const struct gomp_env_var *v, const char *val)
{
  return gomp_parse_bool_value (val, &gomp_display_affinity_var);
}

static void
show_display_affinity (char *buf, size_t len)
{
  snprintf (buf, len, "%s", gomp_display_affinity_var ? "TRUE" : "FALSE");
}

static bool
parse_affinity_format (const struct gomp_env_var *v, const char *val)
{
  gomp_affinity_format_set (val);
  return true;
}

static void
show_affinity_format (char *buf, size_t len)
{
  snprintf (buf, len, "%s", gomp_affinity_format_var);
}

static bool
parse_int_nonneg (const char *val, int *out)
{
  unsigned long n;
  if (!gomp_parse_ulong_value (val, &n) || n > INT_MAX)
    return false;
  *out = (int) n;
  return true;
}

static bool
parse_max_task_priority (const struct gomp_env_var *v, const char *val)
{
  return parse_int_nonneg (val, &gomp_max_task_priority_var);
}

static void
show_max_task_priority (char *buf, size_t len)
{
  snprintf (buf, len, "%d", gomp_max_task_priority_var);
}

static bool
parse_default_device (const struct gomp_env_var *v, const char *val)
{
  return parse_int_nonneg (val, &gomp_global_icv.default_device_var);
}

static void
show_default_device (char *buf, size_t len)
{
  snprintf (buf, len, "%d", gomp_global_icv.default_device_var);
}

/* alloc.c's def-allocator-var.  */
extern uintptr_t gomp_def_allocator;

static bool
parse_num_teams (const struct gomp_env_var *v, const char *val)
{
  return parse_int_nonneg (val, &gomp_nteams_var) && gomp_nteams_var > 0;
}

static void
show_num_teams (char *buf, size_t len)
{
  snprintf (buf, len, "%d", gomp_nteams_var);
}

static bool
parse_teams_thread_limit (const struct gomp_env_var *v, const char *val)
{
  return parse_int_nonneg (val, &gomp_teams_thread_limit_var)
	 && gomp_teams_thread_limit_var > 0;
}

static void
show_teams_thread_limit (char *buf, size_t len)
{
  snprintf (buf, len, "%d", gomp_teams_thread_limit_var);
}

/* The predefined allocators, by their omp_allocator_handle_t value.  */
static const char *const gomp_allocator_names[] = {
  NULL, "omp_default_mem_alloc", "omp_large_cap_mem_alloc",
  "omp_const_mem_alloc", "omp_high_bw_mem_alloc", "omp_low_lat_mem_alloc",
  "omp_cgroup_mem_alloc", "omp_pteam_mem_alloc", "omp_thread_mem_alloc"
};

static bool
parse_allocator (const struct gomp_env_var *v, const char *val)
{
  const char *p = gomp_skip_space (val);
  size_t n = strlen (p);
  while (n && isspace ((unsigned char) p[n - 1]))
    n--;
  for (size_t i = 1; i < sizeof gomp_allocator_names
			 / sizeof gomp_allocator_names[0]; i++)
    if (strlen (gomp_allocator_names[i]) == n
	&& strncmp (p, gomp_allocator_names[i], n) == 0)
      {
	gomp_def_allocator = i;
	return true;
      }
  return false;
}

static void
show_allocator (char *buf, size_t len)
{
  uintptr_t a = gomp_def_allocator;
  snprintf (buf, len, "%s",
	    a < sizeof gomp_allocator_names / sizeof gomp_allocator_names[0]
	    && gomp_allocator_names[a] ? gomp_allocator_names[a] : "custom");
}

/* OMP_TARGET_OFFLOAD: 0 DEFAULT, 1 MANDATORY, 2 DISABLED (target.c).  */
int gomp_target_offload_var;

static bool
parse_target_offload (const struct gomp_env_var *v, const char *val)
{
  static const char *const names[] = { "default", "mandatory", "disabled" };
  const char *p = gomp_skip_space (val);
  for (int i = 0; i < 3; i++)
    if (strncasecmp (p, names[i], strlen (names[i])) == 0
	&& !*gomp_skip_space (p + strlen (names[i])))
      {
	gomp_target_offload_var = i;
	return true;
      }
  return false;
}

static void
show_target_offload (char *buf, size_t len)
{
  static const char *const names[] = { "DEFAULT", "MANDATORY", "DISABLED" };
  snprintf (buf, len, "%s", names[gomp_target_offload_var]);
}

/* The table.  Other parts add their rows here (the cluster's OMPC_*
   variables included), next to a parse and a show function (for OMPC_*,
   in env_ompc.c).  */
const struct gomp_env_var gomp_env_table[] = {
  { "OMP_NUM_THREADS", "list of integers, 1 to 2147483647",
    "number of processors",
    "Threads of a parallel region at each nesting level (with several "
    "nodes: threads per node).", parse_num_threads, show_num_threads, false },
  { "OMP_SCHEDULE", "[monotonic:|nonmonotonic:]kind[,chunk]", "dynamic,1",
    "Schedule of schedule(runtime) loops: static, dynamic, guided or auto.",
    parse_schedule, show_schedule, false },
  { "OMP_DYNAMIC", "boolean", "false",
    "Lets the runtime give a region fewer threads than asked (at most the "
    "number of processors).", parse_dynamic, show_dynamic, false },
  { "OMP_NESTED", "boolean", "false",
    "Deprecated: true allows nested active regions (max-active-levels "
    "255).", parse_nested, show_nested, false },
  { "OMP_MAX_ACTIVE_LEVELS", "non-negative integer", "1",
    "Deepest nesting of active parallel regions (at most 255).",
    parse_max_active_levels, show_max_active_levels, false },
  { "OMP_THREAD_LIMIT", "positive integer", "unlimited",
    "Threads the program may use at once.", parse_thread_limit,
    show_thread_limit, false },
  { "OMP_STACKSIZE", "size[B|K|M|G]", "8M (system default)",
    "Stack size of the threads the runtime creates (default unit K).",
    parse_stacksize, show_stacksize, false },
  { "OMP_WAIT_POLICY", "ACTIVE or PASSIVE", "spin briefly, then sleep",
    "ACTIVE: waiting threads spin; PASSIVE: they sleep at once.",
    parse_wait_policy, show_wait_policy, false },
  { "OMP_PROC_BIND", "false, true or list of primary, close, spread",
    "false (true if OMP_PLACES is set)",
    "Binding of threads to places, per nesting level.", parse_proc_bind,
    show_proc_bind, false },
  { "OMP_PLACES", "threads, cores, sockets, ll_caches, numa_domains [(n)] "
    "or {list},...", "cores when binding",
    "The places threads are bound to (found with hwloc when needed).",
    parse_places, show_places, false },
  { "OMP_CANCELLATION", "boolean", "false",
    "Enables the cancel construct.", parse_cancellation, show_cancellation,
    false },
  { "OMP_DISPLAY_ENV", "TRUE, FALSE or VERBOSE", "false",
    "Prints the OpenMP version and these variables' values at start-up.",
    parse_display_env, show_display_env, false },
  { "OMP_DISPLAY_AFFINITY", "boolean", "false",
    "Prints each thread's affinity when a team starts or changes.",
    parse_display_affinity, show_display_affinity, false },
  { "OMP_AFFINITY_FORMAT", "string", "level %L thread %i affinity %A",
    "Format of the affinity lines (OpenMP 5.1 section 3.12 field types).",
    parse_affinity_format, show_affinity_format, false },
  { "OMP_MAX_TASK_PRIORITY", "non-negative integer", "0",
    "Highest priority a task may have.", parse_max_task_priority,
    show_max_task_priority, false },
  { "OMP_DEFAULT_DEVICE", "non-negative integer", "0",
    "Device of target regions without a device clause.",
    parse_default_device, show_default_device, false },
  { "OMP_NUM_TEAMS", "positive integer", "0 (the implementation's choice)",
    "Teams of a teams construct without num_teams.", parse_num_teams,
    show_num_teams, false },
  { "OMP_TEAMS_THREAD_LIMIT", "positive integer", "0 (no limit)",
    "Threads per team of a teams construct without thread_limit.",
    parse_teams_thread_limit, show_teams_thread_limit, false },
  { "OMP_ALLOCATOR", "a predefined allocator's name",
    "omp_default_mem_alloc", "The default memory allocator.",
    parse_allocator, show_allocator, false },
  { "OMP_TARGET_OFFLOAD", "DEFAULT, MANDATORY or DISABLED", "DEFAULT",
    "Whether target regions must run on a device (there is none: "
    "MANDATORY makes them an error).", parse_target_offload,
    show_target_offload, false },
  { "GOMP_SPINCOUNT", "integer[k|M|G|T] or infinite", "300000 (1000 when "
    "oversubscribed)", "How long a waiting thread spins before it sleeps.",
    parse_spincount, show_spincount, true },
  { "OMPC_DEBUG", "0, 1, true or false", "0",
    "Debug output of the runtime on stderr.", gomp_parse_ompc_debug,
    gomp_show_ompc_debug, true },
  { "OMPC_STATS", "0, 1, true or false", "0",
    "With several nodes, every node prints at exit its regions, barriers "
    "(and time in them), lock acquisitions (local/remote), dynamic-loop "
    "chunks, messages and bytes, tasks run locally, stolen and given "
    "away with the bytes moved for them, the requests it waited for by "
    "kind (`page-fetch`, `diff`, `home-lookup`, `steal` ...) with the "
    "time waited for each, and the DSM's counters.",
    gomp_parse_ompc_stats, gomp_show_ompc_stats, true },
  { "OMPC_REPORT", "file name", "none (off)",
    "With several nodes, rank 0 writes at exit a sharing report to this "
    "HTML file (docs/report.md): per global (by symbol) and heap "
    "allocation (by call site), the DSM's faults, blocks fetched, bytes "
    "moved, diffs, invalidations and false sharing, by node and over "
    "time, the top offenders first with what to try; and a summary on "
    "stderr.", gomp_parse_ompc_report, gomp_show_ompc_report, true },
  { "OMPC_HEARTBEAT", "seconds, 0 to 3600", "5",
    "With several nodes, a rank that stays silent this long (killed, "
    "stopped, its host or network down) ends the job with a message naming "
    "it and its host (status 69), and a rank whose partners do not start "
    "MPI within this time (another program, or one built without the "
    "plugin) ends with status 1; 0 turns both checks off (for a debugger).",
    gomp_parse_ompc_heartbeat, gomp_show_ompc_heartbeat, true },
  { "OMPC_ORDERED_OUTPUT", "0, 1, true or false", "1",
    "With several nodes, what the other nodes write to standard output "
    "goes through rank 0's stdout stream, and each release of a node "
    "(a barrier, a lock's release, a region's end) first sends what it "
    "printed: lines printed in an order the program's synchronisation "
    "fixes come out in that order, as with one process; 0 leaves each "
    "rank's output to the launcher, which merges the ranks' lines as "
    "they arrive.", gomp_parse_ompc_ordered_output,
    gomp_show_ompc_ordered_output, true },
  { "OMPC_SEGMENT_SIZE", "size[K|M|G], 64M to 16T", "4G",
    "With several nodes, the shared heap at a fixed address, split "
    "between the nodes; the same on every node.",
    gomp_parse_ompc_segment_size, gomp_show_ompc_segment_size, true },
  { "OMPC_STACK_AREA", "size[K|M|G], 64M to 1T", "4G",
    "With several nodes, each node's part of the shared segment for its "
    "thread stacks (some 500 threads of 8 MiB by default): address space "
    "at the same place on every node, of which only what threads touch "
    "costs memory (and 2 bytes of DSM metadata per 4 KiB); the same on "
    "every node.", gomp_parse_ompc_stack_area, gomp_show_ompc_stack_area,
    true },
  { "OMPC_DSM_BLOCK", "power of two, page size to 16M", "4096",
    "The DSM's coherence unit: larger blocks need fewer memory maps "
    "(vm.max_map_count) but share more falsely.", gomp_parse_ompc_dsm_block,
    gomp_show_ompc_dsm_block, true },
  { "OMPC_DSM_HOME", "first-touch, block or cyclic", "first-touch",
    "Which node is a DSM block's home: the first to touch it, equal "
    "contiguous parts of every area, or blocks dealt round-robin.",
    gomp_parse_ompc_dsm_home, gomp_show_ompc_dsm_home, true },
  { "OMPC_DSM_PREFETCH", "0, 1, true or false", "1",
    "With several nodes, an acquire that invalidates DSM blocks this node "
    "used since their last prefetch fetches them again at once, one "
    "message per home; 0 fetches them only when touched.",
    gomp_parse_ompc_dsm_prefetch, gomp_show_ompc_dsm_prefetch, true },
  { "OMPC_DSM_EAGER", "0, 1, true or false", "1",
    "With several nodes, a barrier updates in place (still readable, no "
    "fault afterwards) the clean DSM blocks this node keeps reading that "
    "others wrote, instead of invalidating them, and the blocks it wrote "
    "in the interval that others wrote too (still writable); a block goes "
    "on being updated only while faults or writes show it is still used; "
    "and rank 0 sends "
    "its stack blocks others read along with a region's start; 0 does "
    "neither.", gomp_parse_ompc_dsm_eager, gomp_show_ompc_dsm_eager,
    true },
  { "OMPC_TASK_STEAL", "0, 1, true or false", "1",
    "With several nodes, 1: threads of a node that wait in a barrier with "
    "no task left ask the other nodes for deferred tasks and run them "
    "there (tasks with detach or reduction clauses, tasks whose "
    "data names private memory, and tasks of a site whose tasks gave "
    "their thieves under 50 us of work, descendants included, or ran "
    "there more than 1.5 times as long as at home, stay on their node; "
    "docs/tasks.md); 0 runs every task on its creator's node.",
    gomp_parse_ompc_task_steal, gomp_show_ompc_task_steal, true },
  { "OMPC_BIND_RANKS", "0, 1, true or false", "1",
    "With several ranks started on one machine with the same processors "
    "(a launcher that binds nothing, as MPICH's mpiexec by default) and "
    "OMP_NUM_THREADS set low enough that every rank's threads fit its "
    "cores, 1 binds each rank's process to cores of its own (its threads "
    "and its service thread); 0 leaves the ranks free to move.",
    gomp_parse_ompc_bind_ranks, gomp_show_ompc_bind_ranks, true },
  { "OMPC_DSM_MIGRATE", "0, 1, true or false", "1",
    "With several nodes and first-touch homes, a block that one other "
    "node alone writes in more of the intervals between barriers than its "
    "home and the other nodes write it (two more; twice as many more after "
    "each move of the block) becomes homed at that node at the next "
    "barrier: its writes then cost no diff; 0 keeps every home where the "
    "first touch put it.",
    gomp_parse_ompc_dsm_migrate, gomp_show_ompc_dsm_migrate, true },
};

#define GOMP_ENV_COUNT (sizeof gomp_env_table / sizeof gomp_env_table[0])
const size_t gomp_env_count = GOMP_ENV_COUNT;

static void __attribute__ ((constructor (101)))
gomp_env_init (void)
{
  const char *doc = getenv ("OMPC_ENV_DOC");
  if (doc && *doc == '1')
    gomp_env_doc ();

  gomp_affinity_init_cpus ();
  gomp_global_icv.nthreads_var = gomp_available_cpus;
  bool bind_set = false;
  /* OMP_MAX_ACTIVE_LEVELS must win over OMP_NESTED: pass 0 parses it,
     pass 1 the others.  */
  for (int pass = 0; pass < 2; pass++)
    for (size_t i = 0; i < GOMP_ENV_COUNT; i++)
      {
	const struct gomp_env_var *v = &gomp_env_table[i];
	if ((pass == 0) != (v->parse == parse_max_active_levels))
	  continue;
	const char *val = getenv (v->name);
	if (!val)
	  continue;
	if (!v->parse (v, val))
	  {
	    gomp_env_bad (v->name, val, v->type);
	    continue;
	  }
	if (v->parse == parse_proc_bind)
	  bind_set = true;
      }
  /* Lists of more than one level imply nesting (unless said otherwise).  */
  if (!gomp_max_active_levels_set && !getenv ("OMP_NESTED")
      && (gomp_nthreads_var_list_len > 1 || gomp_bind_var_list_len > 1))
    gomp_global_icv.max_active_levels_var = 255;
  if (!bind_set && gomp_places_var)
    gomp_global_icv.bind_var = GOMP_BIND_TRUE;
  if (gomp_wait_policy == 1 && !gomp_spin_count_set)
    gomp_spin_count = ~0ul;
  else if (gomp_wait_policy == 0 && !gomp_spin_count_set)
    gomp_spin_count = 0;
  gomp_spin_count_throttled = gomp_spin_count < 1000 ? gomp_spin_count : 1000;
  if (gomp_wait_policy == 1)
    gomp_spin_count_throttled = gomp_spin_count;
  if (gomp_display_env)
    gomp_display_environment (gomp_display_env);
}

void
gomp_cluster_init_icvs (void)
{
  static bool done;
  if (!gomp_cluster || done)
    return;
  done = true;
  /* A top-level team spans the nodes: OMP_NUM_THREADS threads on each.
     A value the program set itself is the whole team's size already.  */
  unsigned long env = gomp_global_icv.nthreads_var;
  gomp_global_icv.nthreads_var = env * gomp_cluster->nodes;
  struct gomp_thread *thr = gomp_thread ();
  if (thr->icv == &thr->implicit_icv && thr->ts.level == 0
      && thr->implicit_icv.nthreads_var == env)
    thr->implicit_icv.nthreads_var = env * gomp_cluster->nodes;
}
