/* env_ompc.c -- ompcluster's own environment variables (OMPC_*): the
   parse and show functions of their rows in the one table (env.c, which
   reads the environment and calls them), and the values they set:
   gomp_cluster_env, which start.c hands to the cluster module (cluster.h),
   and the runtime's own OMPC_DEBUG and OMPC_TASK_STEAL.  Each parse
   function stores the value it is given and returns false on a bad one;
   each show function writes the current value for OMP_DISPLAY_ENV.  */

#include "env.h"
#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

/* OMPC_DEBUG: error.c's debug output.  */
bool
gomp_parse_ompc_debug (const struct gomp_env_var *v, const char *val)
{
  unsigned long n;
  bool b;
  if (gomp_parse_ulong_value (val, &n) && n <= 1)
    gomp_debug_enabled = n;
  else if (gomp_parse_bool_value (val, &b))
    gomp_debug_enabled = b;
  else
    return false;
  return true;
}

void
gomp_show_ompc_debug (char *buf, size_t len)
{
  snprintf (buf, len, "%d", gomp_debug_enabled);
}

/* The values the cluster module uses (cluster.h), with their defaults;
   start.c hands them to the module.  */
struct gomp_cluster_env gomp_cluster_env = {
  .stats = false,
  .heartbeat = 5,
  .segment_size = (size_t) 4 << 30,
  .stack_area = (size_t) 4 << 30,
  .dsm_block = 0,
  .dsm_home = GOMP_CLUSTER_HOME_FIRST_TOUCH,
  .dsm_prefetch = true,
  .dsm_eager = true,
  .dsm_migrate = true,
  .ordered_output = true,
  .report = NULL,
  .num_threads = 0,
  .launcher_rank = -1,
  .pmi_fd = -1
};

/* OMPC_STATS: cluster/stats.c's counters.  */
bool
gomp_parse_ompc_stats (const struct gomp_env_var *v, const char *val)
{
  unsigned long n;
  bool b;
  if (gomp_parse_ulong_value (val, &n) && n <= 1)
    gomp_cluster_env.stats = n;
  else if (gomp_parse_bool_value (val, &b))
    gomp_cluster_env.stats = b;
  else
    return false;
  return true;
}

void
gomp_show_ompc_stats (char *buf, size_t len)
{
  snprintf (buf, len, "%d", gomp_cluster_env.stats);
}

/* OMPC_HEARTBEAT: cluster/heartbeat.c's and cluster/startwatch.c's
   limit.  */
bool
gomp_parse_ompc_heartbeat (const struct gomp_env_var *v, const char *val)
{
  unsigned long n;
  if (!gomp_parse_ulong_value (val, &n) || n > 3600)
    return false;
  gomp_cluster_env.heartbeat = n;
  return true;
}

void
gomp_show_ompc_heartbeat (char *buf, size_t len)
{
  snprintf (buf, len, "%u", gomp_cluster_env.heartbeat);
}

/* OMPC_SEGMENT_SIZE, OMPC_STACK_AREA, OMPC_DSM_BLOCK, OMPC_DSM_HOME,
   OMPC_DSM_PREFETCH, OMPC_DSM_EAGER, OMPC_DSM_MIGRATE: the DSM's settings
   (dsm/segment.c), checked on every run so that every run names a bad
   one.  The strings as given are kept for OMP_DISPLAY_ENV.  */
static const char *gomp_dsm_env[4];

/* Parses a size with an optional K, M or G suffix between MIN and MAX
   (a power of two if POW2) into *OUT.  */
static bool
parse_dsm_size (const char *val, unsigned long long min,
		unsigned long long max, bool pow2, size_t *out)
{
  char *end;
  if (!isdigit ((unsigned char) *val))
    return false;
  errno = 0;
  unsigned long long n = strtoull (val, &end, 10);
  unsigned shift = 0;
  switch (*end)
    {
    case 'k': case 'K': shift = 10; end++; break;
    case 'm': case 'M': shift = 20; end++; break;
    case 'g': case 'G': shift = 30; end++; break;
    default: break;
    }
  if (errno || *end || n > max >> shift)
    return false;
  n <<= shift;
  if (n < min || (pow2 && (n & (n - 1))))
    return false;
  *out = n;
  return true;
}

/* The smallest shared heap (the stacks have their own area,
   OMPC_STACK_AREA).  */
#define GOMP_SEGMENT_MIN (64ULL << 20)

bool
gomp_parse_ompc_segment_size (const struct gomp_env_var *v, const char *val)
{
  bool ok = parse_dsm_size (val, GOMP_SEGMENT_MIN, 16ULL << 40, false,
			    &gomp_cluster_env.segment_size);
  gomp_dsm_env[0] = ok ? val : NULL;
  return ok;
}

bool
gomp_parse_ompc_dsm_block (const struct gomp_env_var *v, const char *val)
{
  bool ok = parse_dsm_size (val, 4096, 16ULL << 20, true,
			    &gomp_cluster_env.dsm_block);
  gomp_dsm_env[1] = ok ? val : NULL;
  return ok;
}

bool
gomp_parse_ompc_dsm_home (const struct gomp_env_var *v, const char *val)
{
  bool ok = true;
  if (!strcmp (val, "first-touch"))
    gomp_cluster_env.dsm_home = GOMP_CLUSTER_HOME_FIRST_TOUCH;
  else if (!strcmp (val, "block"))
    gomp_cluster_env.dsm_home = GOMP_CLUSTER_HOME_BLOCK;
  else if (!strcmp (val, "cyclic"))
    gomp_cluster_env.dsm_home = GOMP_CLUSTER_HOME_CYCLIC;
  else
    ok = false;
  gomp_dsm_env[2] = ok ? val : NULL;
  return ok;
}

void
gomp_show_ompc_segment_size (char *buf, size_t len)
{
  snprintf (buf, len, "%s", gomp_dsm_env[0] ? gomp_dsm_env[0] : "4G");
}

void
gomp_show_ompc_dsm_block (char *buf, size_t len)
{
  snprintf (buf, len, "%s", gomp_dsm_env[1] ? gomp_dsm_env[1] : "4096");
}

void
gomp_show_ompc_dsm_home (char *buf, size_t len)
{
  snprintf (buf, len, "%s", gomp_dsm_env[2] ? gomp_dsm_env[2] : "first-touch");
}

/* OMPC_STACK_AREA.  */
static const char *gomp_dsm_stack_area_env;

bool
gomp_parse_ompc_stack_area (const struct gomp_env_var *v, const char *val)
{
  bool ok = parse_dsm_size (val, 64ULL << 20, 1ULL << 40, false,
			    &gomp_cluster_env.stack_area);
  gomp_dsm_stack_area_env = ok ? val : NULL;
  return ok;
}

void
gomp_show_ompc_stack_area (char *buf, size_t len)
{
  snprintf (buf, len, "%s",
	    gomp_dsm_stack_area_env ? gomp_dsm_stack_area_env : "4G");
}

/* OMPC_DSM_PREFETCH and OMPC_DSM_EAGER: 0, 1, true or false.  */
static bool
parse_dsm_flag (const char *val, bool *out)
{
  if (!strcmp (val, "1") || !strcasecmp (val, "true"))
    *out = true;
  else if (!strcmp (val, "0") || !strcasecmp (val, "false"))
    *out = false;
  else
    return false;
  return true;
}

bool
gomp_parse_ompc_dsm_prefetch (const struct gomp_env_var *v, const char *val)
{
  bool ok = parse_dsm_flag (val, &gomp_cluster_env.dsm_prefetch);
  gomp_dsm_env[3] = ok ? val : NULL;
  return ok;
}

void
gomp_show_ompc_dsm_prefetch (char *buf, size_t len)
{
  snprintf (buf, len, "%s", gomp_dsm_env[3] ? gomp_dsm_env[3] : "1");
}

static const char *gomp_dsm_eager_env;

bool
gomp_parse_ompc_dsm_eager (const struct gomp_env_var *v, const char *val)
{
  bool ok = parse_dsm_flag (val, &gomp_cluster_env.dsm_eager);
  gomp_dsm_eager_env = ok ? val : NULL;
  return ok;
}

void
gomp_show_ompc_dsm_eager (char *buf, size_t len)
{
  snprintf (buf, len, "%s", gomp_dsm_eager_env ? gomp_dsm_eager_env : "1");
}

/* OMPC_TASK_STEAL: tasksteal.c's gomp_task_steal_var, read by the
   runtime's own files (the module never sees it).  */
bool
gomp_parse_ompc_task_steal (const struct gomp_env_var *v, const char *val)
{
  return parse_dsm_flag (val, &gomp_task_steal_var);
}

void
gomp_show_ompc_task_steal (char *buf, size_t len)
{
  snprintf (buf, len, "%d", gomp_task_steal_var);
}

/* OMPC_BIND_RANKS: affinity.c's gomp_bind_ranks_var, read by start.c.  */
bool
gomp_parse_ompc_bind_ranks (const struct gomp_env_var *v, const char *val)
{
  return parse_dsm_flag (val, &gomp_bind_ranks_var);
}

void
gomp_show_ompc_bind_ranks (char *buf, size_t len)
{
  snprintf (buf, len, "%d", gomp_bind_ranks_var);
}

/* OMPC_ORDERED_OUTPUT: cluster/output.c.  */
bool
gomp_parse_ompc_ordered_output (const struct gomp_env_var *v,
				const char *val)
{
  return parse_dsm_flag (val, &gomp_cluster_env.ordered_output);
}

void
gomp_show_ompc_ordered_output (char *buf, size_t len)
{
  snprintf (buf, len, "%d", gomp_cluster_env.ordered_output);
}

/* OMPC_DSM_MIGRATE.  */
static const char *gomp_dsm_migrate_env;

bool
gomp_parse_ompc_dsm_migrate (const struct gomp_env_var *v, const char *val)
{
  bool ok = parse_dsm_flag (val, &gomp_cluster_env.dsm_migrate);
  gomp_dsm_migrate_env = ok ? val : NULL;
  return ok;
}

void
gomp_show_ompc_dsm_migrate (char *buf, size_t len)
{
  snprintf (buf, len, "%s",
	    gomp_dsm_migrate_env ? gomp_dsm_migrate_env : "1");
}

/* OMPC_REPORT: the cluster module's sharing report (cluster/report.c);
   any path is taken, empty means off.  */
bool
gomp_parse_ompc_report (const struct gomp_env_var *v, const char *val)
{
  gomp_cluster_env.report = *val ? val : NULL;
  return true;
}

void
gomp_show_ompc_report (char *buf, size_t len)
{
  snprintf (buf, len, "%s",
	    gomp_cluster_env.report ? gomp_cluster_env.report : "");
}
