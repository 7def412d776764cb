/* env_display.c -- what the table of environment variables (env.c)
   prints: the OMP_DISPLAY_ENV output at start-up, omp_display_env (OpenMP
   5.1 section 3.15) and, with OMPC_ENV_DOC=1, the README's Markdown list.
   env.c reads those variables and calls gomp_display_environment and
   gomp_env_doc; nothing here reads the environment.  */

#include "env.h"
#include <stdio.h>
#include <stdlib.h>

/* Prints the OpenMP version and the value of every variable of the table
   (LEVEL 1: all but the verbose ones; 2: all) on stderr.  */
void
gomp_display_environment (int level)
{
  char line[4096], val[1024];
  size_t k = 0;
  k += snprintf (line + k, sizeof line - k,
		 "\nOPENMP DISPLAY ENVIRONMENT BEGIN\n  _OPENMP = '201511'\n");
  for (size_t i = 0; i < gomp_env_count && k < sizeof line; i++)
    {
      const struct gomp_env_var *v = &gomp_env_table[i];
      if (v->verbose && level < 2)
	continue;
      val[0] = '\0';
      v->show (val, sizeof val);
      k += snprintf (line + k, sizeof line - k, "  %s = '%s'\n", v->name,
		     val);
    }
  if (k < sizeof line)
    snprintf (line + k, sizeof line - k, "OPENMP DISPLAY ENVIRONMENT END\n");
  fputs (line, stderr);
}

/* OpenMP 5.1 section 3.15: what OMP_DISPLAY_ENV prints, on demand.  */
GOMP_EXPORT void
omp_display_env (int verbose)
{
  gomp_display_environment (verbose ? 2 : 1);
}

/* Prints the table as the README's Markdown table (OMPC_ENV_DOC=1); the
   testsuite checks that README.md holds these rows (ompcluster.abi).  */
void
gomp_env_doc (void)
{
  printf ("| variable | value | default | meaning |\n| --- | --- | --- | --- |\n");
  for (size_t i = 0; i < gomp_env_count; i++)
    printf ("| `%s` | %s | %s | %s |\n", gomp_env_table[i].name,
	    gomp_env_table[i].type, gomp_env_table[i].dflt,
	    gomp_env_table[i].doc);
  exit (0);
}
