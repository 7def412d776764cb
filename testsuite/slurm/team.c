/* A job across the ranks Slurm started: the team spans them (rank-major
   thread numbers), a shared array written by every thread is read back by
   rank 0, and the program's status is its first argument (0 without one),
   so that the launcher's status can be checked.  Prints "team ok: N
   threads on H hosts" (H: the distinct host names the threads ran on) on
   success; any inconsistency exits with status 3.  */
#include <omp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define N 4096
#define MAX_THREADS 64

static int owner[N];
static char host[MAX_THREADS][64];

int
main (int argc, char **argv)
{
  int threads = 0;
#pragma omp parallel
  {
#pragma omp single
    threads = omp_get_num_threads ();
#pragma omp for schedule(static, 64)
    for (int i = 0; i < N; i++)
      owner[i] = omp_get_thread_num () + 1;
    if (omp_get_thread_num () < MAX_THREADS)
      gethostname (host[omp_get_thread_num ()], sizeof host[0] - 1);
  }
  if (threads != omp_get_max_threads ())
    {
      printf ("team of %d threads, %d expected\n", threads,
	      omp_get_max_threads ());
      return 3;
    }
  /* schedule(static, 64) deals the chunks round-robin in thread order.  */
  int bad = 0;
  for (int i = 0; i < N; i++)
    if (owner[i] != i / 64 % threads + 1 && bad++ < 5)
      printf ("owner[%d] = %d, %d expected\n", i, owner[i],
	      i / 64 % threads + 1);
  if (bad)
    return 3;
  int hosts = 0;
  for (int t = 0; t < threads && t < MAX_THREADS; t++)
    {
      int seen = 0;
      for (int u = 0; u < t; u++)
	seen |= strcmp (host[t], host[u]) == 0;
      hosts += !seen;
    }
  printf ("team ok: %d threads on %d host%s\n", threads, hosts,
	  hosts > 1 ? "s" : "");
  fflush (stdout);
  return argc > 1 ? atoi (argv[1]) : 0;
}
