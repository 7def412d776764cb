/* error.c -- the runtime's one error path: errors, fatal errors, debug
   output and the "not supported" exit of unimplemented entry points.  */

#include "libgomp.h"
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <sys/syscall.h>
#include <unistd.h>

int gomp_debug_enabled;

extern int omp_get_thread_num (void);

static void
gomp_vmessage (const char *kind, const char *fmt, va_list ap)
{
  char buf[1024];
  int n;

  /* Before the cluster starts (start.c's checks), the launcher names
     the rank.  */
  int rank = gomp_cluster ? gomp_cluster->rank
	     : gomp_launcher_size () > 1 ? gomp_launcher_rank () : -1;
  if (rank >= 0)
    n = snprintf (buf, sizeof buf, "ompcluster: rank %d thread %d: %s",
		  rank, omp_get_thread_num (), kind);
  else
    n = snprintf (buf, sizeof buf, "ompcluster: thread %d: %s",
		  omp_get_thread_num (), kind);
  if (n < 0 || (size_t) n >= sizeof buf)
    n = 0;
  vsnprintf (buf + n, sizeof buf - n - 1, fmt, ap);
  n = strlen (buf);
  buf[n++] = '\n';
  /* One write, so that messages from several threads do not interleave;
     the system call itself, not write (): a program may define its own
     write () (start.c refuses it on several nodes, with this message).  */
  if (syscall (SYS_write, STDERR_FILENO, buf, n) < 0)
    return;
}

void
gomp_error (const char *fmt, ...)
{
  va_list ap;
  va_start (ap, fmt);
  gomp_vmessage ("error: ", fmt, ap);
  va_end (ap);
}

void
gomp_fatal (const char *fmt, ...)
{
  va_list ap;
  /* An error that every rank meets (an unsupported construct) would print
     once per rank: the other ranks give rank 0's abort half a second to end
     them first, so that one message is printed.  */
  if (gomp_cluster && gomp_cluster->rank != 0)
    {
      struct timespec ts = { 0, 500000000 };
      nanosleep (&ts, NULL);
    }
  va_start (ap, fmt);
  gomp_vmessage ("fatal error: ", fmt, ap);
  va_end (ap);
  if (gomp_cluster)
    gomp_cluster->abort (EXIT_FAILURE);
  exit (EXIT_FAILURE);
}

void
gomp_unsupported (const char *what)
{
  gomp_fatal ("not supported: %s (this runtime does not implement it yet)",
	      what);
}

void
gomp_debug (const char *fmt, ...)
{
  va_list ap;
  if (!gomp_debug_enabled)
    return;
  va_start (ap, fmt);
  gomp_vmessage ("debug: ", fmt, ap);
  va_end (ap);
}
