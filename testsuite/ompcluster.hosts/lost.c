/* lost.c -- a cluster job that runs until a rank is lost (hosts.exp):
   prints "ready" once every node has run a region, then runs regions
   (each thread sleeping 50 ms) for up to ARGV[1] seconds (default 60),
   and says "not lost" if it gets to the end.  The runtime's heartbeat
   (cluster/heartbeat.c) must end it when a rank stops answering.  With
   ARGV[2] "exit" or "kill", the last thread (on the last rank with one
   thread per node) leaves by itself in the first of those regions:
   _exit (3), which bypasses the runtime's exit handler, or SIGKILL.  */
#include <omp.h>
#include <signal.h>
#include <string.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

int
main (int argc, char **argv)
{
  double limit = argc > 1 ? atof (argv[1]) : 60;
  const char *how = argc > 2 ? argv[2] : "";
  int nodes = 0;
#pragma omp parallel
  {
#pragma omp atomic
    nodes++;
  }
  printf ("ready: %d threads\n", nodes);
  fflush (stdout);
  double t0 = omp_get_wtime ();
  while (omp_get_wtime () - t0 < limit)
    {
#pragma omp parallel
      {
	if (omp_get_thread_num () == omp_get_num_threads () - 1)
	  {
	    if (!strcmp (how, "exit"))
	      _exit (3);
	    if (!strcmp (how, "kill"))
	      raise (SIGKILL);
	  }
	usleep (50000);
      }
    }
  printf ("not lost\n");
  return 0;
}
