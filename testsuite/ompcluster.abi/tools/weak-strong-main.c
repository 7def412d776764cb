/* weak-strong-main.c LIB -- loads the library built from stubs.o, error.o
   and weak-strong.c, checks that omp_get_num_procs is the strong definition
   (returns 4242) and that omp_get_num_threads, which only has its stub,
   stops the program (non-zero exit status, "not supported: ...").  */

#define _GNU_SOURCE 1
#include <dlfcn.h>
#include <stdio.h>

int
main (int argc, char **argv)
{
  void *h = dlopen (argv[1], RTLD_NOW | RTLD_LOCAL);
  if (h == NULL)
    {
      fprintf (stderr, "dlopen: %s\n", dlerror ());
      return 1;
    }
  int (*procs) (void) = (int (*) (void)) dlvsym (h, "omp_get_num_procs",
						 "OMP_1.0");
  if (procs == NULL || procs () != 4242)
    {
      fprintf (stderr, "the weak stub won over the strong definition\n");
      return 1;
    }
  printf ("strong definition wins\n");
  fflush (stdout);
  void (*threads) (void) = (void (*) (void)) dlsym (h, "omp_get_num_threads");
  if (threads == NULL)
    return 1;
  threads ();
  fprintf (stderr, "the stub of omp_get_num_threads returned\n");
  return 1;
}
