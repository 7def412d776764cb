/* call-entry.c NAME... -- calls each named entry point of the libgomp.so.1
   this program is linked against, with no arguments, and prints "returned"
   if it comes back.  abi.exp runs it on entry points that are still weak
   stubs, which must stop the program with "not supported: NAME" and a
   non-zero exit status instead.  */

#define _GNU_SOURCE 1
#include <dlfcn.h>
#include <stdio.h>
#include <stdlib.h>

extern int omp_get_num_procs (void);	/* keeps the runtime linked */

int
main (int argc, char **argv)
{
  if (argc < 2)
    return omp_get_num_procs () > 0 ? 0 : 1;
  for (int i = 1; i < argc; i++)
    {
      void (*fn) (void) = (void (*) (void)) dlsym (RTLD_DEFAULT, argv[i]);
      if (fn == NULL)
	{
	  fprintf (stderr, "call-entry: %s not found: %s\n", argv[i], dlerror ());
	  return 2;
	}
      fn ();
      printf ("call-entry: %s returned\n", argv[i]);
    }
  return 0;
}
