/* Every thread of every node calls exit() at the same moment.  Only rank
   0 may end the job with MPI_Abort (the other ranks ask it to), and only
   one thread of a node may run the exit handlers: glibc 2.36 hands each
   thread that calls exit() the next one, so a third thread ran the
   libraries' destructors (the program's below among them) under the end
   of the job, and hydra sometimes reported "EXIT CODE: 1" ("Hangup
   (signal 1)") instead of the status.  The job must end with the status,
   once, and nothing after the exit() may run.  */
/* ompc-nodes: 2x2 2x4 3x2 */
/* ompc-exit: 7 */
/* ompc-no-output: BAD TERMINATION|signal|not reached|did not end the job|destructor ran */
/* ompc-timeout: 30 */
#include <omp.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

/* The job ends by MPI_Abort: no destructor runs on any node.  */
static void __attribute__ ((destructor))
destructor (void)
{
  static const char msg[] = "destructor ran\n";
  if (write (STDERR_FILENO, msg, sizeof msg - 1) < 0)
    abort ();
}

int
main (void)
{
#pragma omp parallel
  {
#pragma omp barrier
    exit (7);
  }
  printf ("not reached\n");
  return 0;
}
