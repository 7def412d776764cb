/* fork() on several nodes would give the child the parent's shared
   memory (its stack included): the DSM refuses it with a clear error,
   while system() (posix_spawn) still works.
   ompc-nodes: 2x1
   ompc-exit: 1
   ompc-timeout: 60
   ompc-output: system-ok
   ompc-output: fork\(\) is not supported in a program running on several nodes
   ompc-no-output: child ran  */

#include <stdio.h>
#include <stdlib.h>
#include <sys/wait.h>
#include <unistd.h>

int
main (void)
{
  if (system ("echo system-ok") != 0)
    return 2;
  fflush (stdout);
  pid_t p = fork ();
  if (p == 0)
    {
      printf ("child ran\n");
      _exit (0);
    }
  waitpid (p, NULL, 0);
  return 0;
}
