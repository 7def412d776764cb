/* The renamed main: arguments, environment, atexit handlers and the exit
   status through exit() from a parallel program behave as without the
   plugin.
   ompc-nodes: 1 1x2 2x1 2x2
   ompc-args: one "two words" 3
   ompc-env: OMPC_TEST_VAR=value
   ompc-exit: 42
   ompc-output: argc=4 one|two words|3
   ompc-output: env=value
   ompc-output: atexit ran after 2 regions
   ompc-check: nm %exe | grep -q ' T __ompc_user_main$'
   ompc-timeout: 60  */

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int regions;

static void
at_exit (void)
{
  printf ("atexit ran after %d regions\n", regions);
  fflush (stdout);
}

static void
finish (void)
{
  exit (42);
}

int
main (int argc, char **argv, char **envp)
{
  const char *v = NULL;
  for (char **e = envp; *e; e++)
    if (strncmp (*e, "OMPC_TEST_VAR=", 14) == 0)
      v = *e + 14;
  atexit (at_exit);
#pragma omp parallel
#pragma omp single
  regions++;
#pragma omp parallel
#pragma omp master
  regions++;
  printf ("argc=%d %s|%s|%s\n", argc, argv[1], argv[2], argv[3]);
  printf ("env=%s\n", v ? v : "(none)");
  if (argc == 4)
    finish ();
  return 1;
}
