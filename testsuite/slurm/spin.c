/* A job that runs for a minute unless it is ended from outside: prints
   "running" once every rank has joined a region, then loops over regions.
   Used to cancel a job, kill a rank or a node's slurmd under it.  */
#include <omp.h>
#include <stdio.h>
#include <unistd.h>

int
main (void)
{
#pragma omp parallel
  {
  }
  printf ("running\n");
  fflush (stdout);
  for (int i = 0; i < 1200; i++)
    {
#pragma omp parallel
      usleep (50000);
    }
  printf ("not reached\n");
  return 0;
}
