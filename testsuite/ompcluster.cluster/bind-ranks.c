/* OMPC_BIND_RANKS (default 1): ranks that share a machine, started
   with the same processors (mpiexec binds nothing), each with threads
   that fit, are bound to processors of their own: pairwise disjoint
   sets, and omp_get_num_procs counts only a rank's own.  When they do
   not fit (3 ranks on a 2-processor machine), or with OMPC_BIND_RANKS=0
   (bind-ranks-off.c), every rank keeps the set it started with, as do
   ranks on hosts of their own (the virtual cluster's "tcp"
   configurations: one host name each).  What the ranks started with is
   their launcher's (the parent process's) set.  */
/* ompc-nodes: 2x1 3x1 */
/* ompc-timeout: 60 */
#define _GNU_SOURCE 1
#include <omp.h>
#include <sched.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define MAX 64
static cpu_set_t sets[MAX];
static int procs[MAX], started[MAX];
static char host[MAX][256];

/* The number of processors in the "Cpus_allowed_list:" line of process
   PID, -1 if it cannot be read.  */
static int
allowed_count (int pid)
{
  char path[64], line[4096];
  snprintf (path, sizeof path, "/proc/%d/status", pid);
  FILE *f = fopen (path, "r");
  if (!f)
    return -1;
  int n = -1;
  while (fgets (line, sizeof line, f))
    if (strncmp (line, "Cpus_allowed_list:", 18) == 0)
      {
	n = 0;
	for (char *p = line + 18; *p && *p != '\n';)
	  {
	    char *end;
	    long a = strtol (p, &end, 10), b = a;
	    if (end == p)
	      {
		p++;
		continue;
	      }
	    if (*end == '-')
	      b = strtol (end + 1, &end, 10);
	    n += (int) (b - a + 1);
	    p = end;
	  }
      }
  fclose (f);
  return n;
}

int
main (void)
{
  int nodes = 0;
#pragma omp parallel
  {
    int me = omp_get_thread_num ();
#pragma omp single
    nodes = omp_get_num_threads ();
    if (me < MAX)
      {
	cpu_set_t s;
	CPU_ZERO (&s);
	sched_getaffinity (0, sizeof s, &s);
	sets[me] = s;
	procs[me] = omp_get_num_procs ();
	started[me] = allowed_count (getppid ());
	gethostname (host[me], sizeof host[me] - 1);
      }
  }
  if (nodes < 1 || nodes > MAX)
    return 2;
  int bad = 0;
  for (int i = 0; i < nodes; i++)
    if (procs[i] != CPU_COUNT (&sets[i]) || CPU_COUNT (&sets[i]) < 1)
      {
	printf ("rank %d: omp_get_num_procs %d, %d processors allowed\n", i,
		procs[i], CPU_COUNT (&sets[i]));
	bad = 1;
      }
  /* Bound when the ranks share one host and every rank's thread fits a
     processor of its own (1 thread each here).  The launcher's set is
     what the ranks started with.  */
  bool one_host = true;
  for (int i = 1; i < nodes; i++)
    one_host = one_host && strcmp (host[i], host[0]) == 0;
#ifdef BIND_OFF
  bool fit = false;
#else
  bool fit = one_host && started[0] >= nodes;
#endif
  for (int i = 0; i < nodes; i++)
    for (int j = i + 1; j < nodes; j++)
      {
	cpu_set_t both;
	CPU_AND (&both, &sets[i], &sets[j]);
	if (fit && CPU_COUNT (&both))
	  {
	    printf ("ranks %d and %d share processors although %d fit in "
		    "%d\n", i, j, nodes, started[0]);
	    bad = 1;
	  }
	if (!fit && !CPU_EQUAL (&sets[i], &sets[j]))
	  {
	    printf ("ranks %d and %d were bound although %d do not fit in "
		    "%d\n", i, j, nodes, started[0]);
	    bad = 1;
	  }
      }
  if (!fit && CPU_COUNT (&sets[0]) != started[0])
    {
      printf ("rank 0 has %d processors, its launcher %d\n",
	      CPU_COUNT (&sets[0]), started[0]);
      bad = 1;
    }
  printf ("%d ranks on %s, %s\n", nodes, one_host ? "one host" : "hosts of "
	  "their own", fit ? "bound" : "not bound");
  return bad;
}
