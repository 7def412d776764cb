/* env.h -- the row type of the one table of environment variables and
   what the files behind it share: env.c (the table, the OpenMP variables'
   rows and the reading of the environment), env_ompc.c (the OMPC_* rows'
   functions) and env_display.c (what the table prints).  Everything else
   sees the environment only through the values libgomp.h declares.  */

#ifndef OMPC_ENV_H
#define OMPC_ENV_H 1

#include "libgomp.h"

/* One environment variable.  PARSE stores the value of VAL and returns
   false on a bad value (after which the default stays); SHOW writes the
   current value for OMP_DISPLAY_ENV.  */
struct gomp_env_var
{
  const char *name;
  const char *type;		/* for the documentation */
  const char *dflt;		/* default, as documented */
  const char *doc;		/* one sentence */
  bool (*parse) (const struct gomp_env_var *v, const char *val);
  void (*show) (char *buf, size_t len);
  bool verbose;			/* shown only with OMP_DISPLAY_ENV=VERBOSE */
};

/* env.c: the table, in the order the output lists it.  */
extern const struct gomp_env_var gomp_env_table[];
extern const size_t gomp_env_count;
/* A boolean (true or false, any case, blanks around) into *OUT; false
   if VAL is none.  */
extern bool gomp_parse_bool_value (const char *val, bool *out);
/* An unsigned number (blanks around allowed) into *OUT; false if VAL is
   none.  */
extern bool gomp_parse_ulong_value (const char *val, unsigned long *out);

/* env_ompc.c: the OMPC_* rows' functions.  */
extern bool gomp_parse_ompc_debug (const struct gomp_env_var *v,
				   const char *val);
extern void gomp_show_ompc_debug (char *buf, size_t len);
extern bool gomp_parse_ompc_ordered_output (const struct gomp_env_var *v,
					    const char *val);
extern void gomp_show_ompc_ordered_output (char *buf, size_t len);
extern bool gomp_parse_ompc_stats (const struct gomp_env_var *v,
				   const char *val);
extern void gomp_show_ompc_stats (char *buf, size_t len);
extern bool gomp_parse_ompc_report (const struct gomp_env_var *v,
				    const char *val);
extern void gomp_show_ompc_report (char *buf, size_t len);
extern bool gomp_parse_ompc_heartbeat (const struct gomp_env_var *v,
				       const char *val);
extern void gomp_show_ompc_heartbeat (char *buf, size_t len);
extern bool gomp_parse_ompc_segment_size (const struct gomp_env_var *v,
					  const char *val);
extern void gomp_show_ompc_segment_size (char *buf, size_t len);
extern bool gomp_parse_ompc_stack_area (const struct gomp_env_var *v,
					const char *val);
extern void gomp_show_ompc_stack_area (char *buf, size_t len);
extern bool gomp_parse_ompc_dsm_block (const struct gomp_env_var *v,
				       const char *val);
extern void gomp_show_ompc_dsm_block (char *buf, size_t len);
extern bool gomp_parse_ompc_dsm_home (const struct gomp_env_var *v,
				      const char *val);
extern void gomp_show_ompc_dsm_home (char *buf, size_t len);
extern bool gomp_parse_ompc_dsm_prefetch (const struct gomp_env_var *v,
					  const char *val);
extern void gomp_show_ompc_dsm_prefetch (char *buf, size_t len);
extern bool gomp_parse_ompc_dsm_eager (const struct gomp_env_var *v,
				       const char *val);
extern void gomp_show_ompc_dsm_eager (char *buf, size_t len);
extern bool gomp_parse_ompc_task_steal (const struct gomp_env_var *v,
					const char *val);
extern void gomp_show_ompc_task_steal (char *buf, size_t len);
extern bool gomp_parse_ompc_bind_ranks (const struct gomp_env_var *v,
					const char *val);
extern void gomp_show_ompc_bind_ranks (char *buf, size_t len);
extern bool gomp_parse_ompc_dsm_migrate (const struct gomp_env_var *v,
					 const char *val);
extern void gomp_show_ompc_dsm_migrate (char *buf, size_t len);

/* env_display.c: the OMP_DISPLAY_ENV output on stderr (LEVEL 1: the
   variables not marked verbose; 2: all), and the README's list on stdout
   for OMPC_ENV_DOC=1, after which the process exits.  */
extern void gomp_display_environment (int level);
extern void gomp_env_doc (void) GOMP_NORETURN;

#endif /* OMPC_ENV_H */
