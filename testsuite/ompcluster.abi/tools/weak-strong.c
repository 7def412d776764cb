/* weak-strong.c -- linked with stubs.o and libgomp.map into a small
   library (abi.exp does it): a strong definition of one entry point must
   replace its weak stub, and a stubbed one must still fail loudly.  This
   file stands in for the runtime's real files: the entry point below and
   the runtime's error path.  */

#include <stdio.h>
#include <stdlib.h>

__attribute__ ((visibility ("default"))) int
omp_get_num_procs (void)
{
  return 4242;
}

__attribute__ ((visibility ("hidden"), noreturn)) void
gomp_unsupported (const char *what)
{
  fprintf (stderr, "not supported: %s\n", what);
  exit (3);
}
