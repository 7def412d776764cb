/* exit() on a rank other than 0 asks rank 0 to end the job (only one rank
   calls MPI_Abort).  If rank 0 does not answer (here it is stopped, as a
   hung rank would be), the asking rank ends the job itself after 2 s,
   saying so, with its status; nothing is left running (the stopped rank
   0 included).  Rank 1 calls exit() once rank 0 is seen stopped (the
   ranks share a machine in this test).  */
/* ompc-nodes: 2x1 2x2 */
/* ompc-exit: 8 */
/* ompc-output: rank 1: exit\(8\) called on a rank other than 0 */
/* ompc-output: rank 1: rank 0 did not end the job within 2 s of exit\(8\) */
/* ompc-no-output: not reached|stopped answering|rank 0: ending */
/* ompc-within: 10 */
/* ompc-timeout: 30 */
#include <omp.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static pid_t rank0_pid;

/* Waits (up to 5 s) until process PID is stopped: state T in
   /proc/PID/stat.  */
static void
wait_stopped (pid_t pid)
{
  char path[64], buf[256];
  snprintf (path, sizeof path, "/proc/%d/stat", (int) pid);
  for (int i = 0; i < 500; i++)
    {
      FILE *f = fopen (path, "r");
      char *p = NULL;
      if (f && fgets (buf, sizeof buf, f))
	p = strrchr (buf, ')');
      if (f)
	fclose (f);
      if (p && p[1] == ' ' && p[2] == 'T')
	return;
      usleep (10000);
    }
}

int
main (void)
{
  rank0_pid = getpid ();
#pragma omp parallel
  {
    if (omp_get_thread_num () == omp_get_num_threads () - 1
	&& getpid () != rank0_pid)
      {
	kill (rank0_pid, SIGSTOP);
	wait_stopped (rank0_pid);
	exit (8);
      }
#pragma omp barrier
  }
  printf ("not reached\n");
  return 0;
}
