/* cpu.c -- what the transport asks of the machine: whether a processor is
   free for a polling thread (gomp_cl_processor_free), and the stack size
   of the module's own threads (gomp_cl_thread_stack).  */

#define _GNU_SOURCE 1
#include "transport-int.h"
#include "static-tls.h"
#include <fcntl.h>
#include <limits.h>
#include <sched.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* How often gomp_cl_processor_free reads the kernel's count again.  */
#define FREE_CHECK_NS 50000L

/* The processors this process may run on, and /proc/loadavg, whose fourth
   field counts the machine's runnable threads (the reader included).  */
static long free_cpus;
static int free_fd = -1;
static long free_checked;
static int free_last;

bool
gomp_cl_processor_free (void)
{
  long now = gomp_cl_now_ns ();
  if (now - __atomic_load_n (&free_checked, __ATOMIC_RELAXED) < FREE_CHECK_NS)
    return __atomic_load_n (&free_last, __ATOMIC_RELAXED);
  __atomic_store_n (&free_checked, now, __ATOMIC_RELAXED);
  int fd = __atomic_load_n (&free_fd, __ATOMIC_ACQUIRE);
  char buf[128];
  ssize_t n = fd >= 0 ? pread (fd, buf, sizeof buf - 1, 0) : -1;
  if (n <= 0)
    {
      /* No /proc: assume the processors are busy (never spin).  */
      __atomic_store_n (&free_last, 0, __ATOMIC_RELAXED);
      return false;
    }
  buf[n] = 0;
  /* "0.50 0.40 0.30 RUNNING/TOTAL LASTPID".  */
  char *p = buf;
  for (int i = 0; i < 3 && p; i++)
    if ((p = strchr (p, ' ')))
      p++;
  long running = p ? strtol (p, NULL, 10) : LONG_MAX;
  int free = running > 0 && running <= free_cpus;
  __atomic_store_n (&free_last, free, __ATOMIC_RELAXED);
  return free;
}

void
gomp_cl_processor_free_init (void)
{
  cpu_set_t set;
  free_cpus = sysconf (_SC_NPROCESSORS_ONLN);
  if (sched_getaffinity (0, sizeof set, &set) == 0)
    free_cpus = CPU_COUNT (&set);
  __atomic_store_n (&free_fd, open ("/proc/loadavg", O_RDONLY | O_CLOEXEC),
		    __ATOMIC_RELEASE);
}

void
gomp_cl_thread_stack (pthread_attr_t *attr, size_t want)
{
  pthread_attr_setstacksize (attr, want + gomp_cluster_static_tls ());
}
