/* misc.c -- the error directive at execution time (OpenMP 5.1, section
   2.5.4: GOMP_warning, GOMP_error) and omp_pause_resource (section 3.2.43).

   The error directive's messages keep the exact text of GCC's libgomp
   ("libgomp: error directive encountered: MSG"): they are the program's
   output, which scripts and GCC's own tests match, not the runtime's.  */

#include "libgomp.h"
#include "omp.h"
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* Writes "\nlibgomp: KIND MSG\n" in one write, so that messages from
   several threads do not interleave.  MSGLEN (size_t) -1 means MSG is
   NUL-terminated (C); otherwise it is a Fortran string of MSGLEN bytes.  */
static void
gomp_directive_message (const char *kind, const char *msg, size_t msglen)
{
  char buf[2048];
  size_t n;

  if (msg == NULL)
    n = snprintf (buf, sizeof buf, "\nlibgomp: %s\n", kind);
  else
    {
      if (msglen == (size_t) -1)
	msglen = strlen (msg);
      n = snprintf (buf, sizeof buf, "\nlibgomp: %s: %.*s\n", kind,
		    (int) (msglen > 1024 ? 1024 : msglen), msg);
    }
  if (n >= sizeof buf)
    n = sizeof buf - 1;
  fflush (stdout);
  if (write (STDERR_FILENO, buf, n) < 0)
    return;
}

GOMP_EXPORT void
GOMP_warning (const char *msg, size_t msglen)
{
  gomp_directive_message ("error directive encountered", msg, msglen);
}

GOMP_EXPORT void
GOMP_error (const char *msg, size_t msglen)
{
  gomp_directive_message ("fatal error: error directive encountered", msg,
			  msglen);
  if (gomp_cluster)
    gomp_cluster->abort (EXIT_FAILURE);
  exit (EXIT_FAILURE);
}

/* Pausing the host releases what the runtime holds between parallel
   regions: the calling thread's idle worker threads (their threadprivate
   data goes with them; the next region starts new ones).  Not allowed
   inside a parallel region or a target region, where it fails with -1, as
   in GCC's libgomp.  With several nodes the pools of this node only are
   released.  */
static bool
gomp_pause_host (void)
{
  struct gomp_pools_saved none = { NULL, 0 };
  gomp_pools_restore (gomp_thread (), &none);
  return true;
}

GOMP_EXPORT int
omp_pause_resource (omp_pause_resource_t kind, int device_num)
{
  if (kind != omp_pause_soft && kind != omp_pause_hard)
    return -1;
  if (device_num != omp_get_initial_device ())
    return -1;
  if (omp_get_level () > 0)
    return -1;
  if (!gomp_pause_host ())
    return -1;
  return 0;
}

GOMP_EXPORT int
omp_pause_resource_all (omp_pause_resource_t kind)
{
  return omp_pause_resource (kind, omp_get_initial_device ());
}
