/* sys_misc.c -- interposers of the system calls that store a small,
   fixed-size result into the program's memory (stat and its family,
   pipe, socketpair, the clocks, getrusage, times, poll, select, getcwd,
   readlink, uname, sigaction's old action, wait's status, getrlimit,
   nanosleep's remainder, pthread_create's thread id) or read a path from
   it (open, openat, fopen, and the stat family's).

   When such an argument lies in the shared segment the call gets a
   private variable (or a private copy of the path) and the result is
   copied into the program's memory afterwards (sys.h).  pthread_create
   matters beyond EFAULT: glibc stores the new thread's id with signals
   blocked, where a fault on a protected page would kill the process.  */

#include "sys.h"
#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <string.h>

#define SHARED(p) (gomp_sys_slow () && gomp_sys_shared ((p), sizeof *(p)))

GOMP_EXPORT int
stat (const char *path, struct stat *st)
{
  if (GOMP_LIKELY (!gomp_sys_hooked)
      || (!SHARED (st) && !gomp_sys_shared (path, 1)))
    return gomp_sys.stat (path, st);
  struct gomp_sys_bounce b;
  struct stat s;
  int r = gomp_sys.stat (gomp_sys_path (&b, path, "stat"), &s);
  if (r == 0)
    gomp_sys_copy_out (st, &s, sizeof s);
  gomp_sys_bounce_put (&b);
  return r;
}
GOMP_EXPORT int stat64 (const char *, struct stat64 *)
  __attribute__ ((alias ("stat")));

GOMP_EXPORT int
lstat (const char *path, struct stat *st)
{
  if (GOMP_LIKELY (!gomp_sys_hooked)
      || (!SHARED (st) && !gomp_sys_shared (path, 1)))
    return gomp_sys.lstat (path, st);
  struct gomp_sys_bounce b;
  struct stat s;
  int r = gomp_sys.lstat (gomp_sys_path (&b, path, "lstat"), &s);
  if (r == 0)
    gomp_sys_copy_out (st, &s, sizeof s);
  gomp_sys_bounce_put (&b);
  return r;
}
GOMP_EXPORT int lstat64 (const char *, struct stat64 *)
  __attribute__ ((alias ("lstat")));

GOMP_EXPORT int
fstatat (int dirfd, const char *path, struct stat *st, int flags)
{
  if (GOMP_LIKELY (!gomp_sys_hooked)
      || (!SHARED (st) && !gomp_sys_shared (path, 1)))
    return gomp_sys.fstatat (dirfd, path, st, flags);
  struct gomp_sys_bounce b;
  struct stat s;
  int r = gomp_sys.fstatat (dirfd, gomp_sys_path (&b, path, "fstatat"), &s,
			    flags);
  if (r == 0)
    gomp_sys_copy_out (st, &s, sizeof s);
  gomp_sys_bounce_put (&b);
  return r;
}
GOMP_EXPORT int fstatat64 (int, const char *, struct stat64 *, int)
  __attribute__ ((alias ("fstatat")));

GOMP_EXPORT int
fstat (int fd, struct stat *st)
{
  if (GOMP_LIKELY (!gomp_sys_hooked) || !SHARED (st))
    return gomp_sys.fstat (fd, st);
  struct stat s;
  int r = gomp_sys.fstat (fd, &s);
  if (r == 0)
    gomp_sys_copy_out (st, &s, sizeof s);
  return r;
}
GOMP_EXPORT int fstat64 (int, struct stat64 *)
  __attribute__ ((alias ("fstat")));

GOMP_EXPORT int
pipe (int fds[2])
{
  if (GOMP_LIKELY (!gomp_sys_hooked)
      || !(gomp_sys_slow () && gomp_sys_shared (fds, 2 * sizeof (int))))
    return gomp_sys.pipe (fds);
  int f[2];
  int r = gomp_sys.pipe (f);
  if (r == 0)
    gomp_sys_copy_out (fds, f, sizeof f);
  return r;
}

GOMP_EXPORT int
pipe2 (int fds[2], int flags)
{
  if (GOMP_LIKELY (!gomp_sys_hooked)
      || !(gomp_sys_slow () && gomp_sys_shared (fds, 2 * sizeof (int))))
    return gomp_sys.pipe2 (fds, flags);
  int f[2];
  int r = gomp_sys.pipe2 (f, flags);
  if (r == 0)
    gomp_sys_copy_out (fds, f, sizeof f);
  return r;
}

GOMP_EXPORT int
socketpair (int domain, int type, int protocol, int fds[2])
{
  if (GOMP_LIKELY (!gomp_sys_hooked)
      || !(gomp_sys_slow () && gomp_sys_shared (fds, 2 * sizeof (int))))
    return gomp_sys.socketpair (domain, type, protocol, fds);
  int f[2];
  int r = gomp_sys.socketpair (domain, type, protocol, f);
  if (r == 0)
    gomp_sys_copy_out (fds, f, sizeof f);
  return r;
}

GOMP_EXPORT time_t
time (time_t *t)
{
  if (GOMP_LIKELY (!gomp_sys_hooked) || t == NULL || !SHARED (t))
    return gomp_sys.time (t);
  time_t v = gomp_sys.time (NULL);
  if (v != (time_t) -1)
    gomp_sys_copy_out (t, &v, sizeof v);
  return v;
}

GOMP_EXPORT int
gettimeofday (struct timeval *tv, void *tz)
{
  /* glibc declares TV non-null; the kernel accepts NULL.  */
  struct timeval *volatile tvp = tv;
  if (GOMP_LIKELY (!gomp_sys_hooked)
      || (!(tvp && SHARED (tv)) && !(tz && SHARED ((struct timezone *) tz))))
    return gomp_sys.gettimeofday (tv, tz);
  struct timeval v;
  struct timezone z;
  int r = gomp_sys.gettimeofday (tvp ? &v : NULL, tz ? &z : NULL);
  if (r == 0 && tvp)
    gomp_sys_copy_out (tv, &v, sizeof v);
  if (r == 0 && tz)
    gomp_sys_copy_out (tz, &z, sizeof z);
  return r;
}

GOMP_EXPORT int
clock_gettime (clockid_t clk, struct timespec *ts)
{
  if (GOMP_LIKELY (!gomp_sys_hooked) || !SHARED (ts))
    return gomp_sys.clock_gettime (clk, ts);
  struct timespec v;
  int r = gomp_sys.clock_gettime (clk, &v);
  if (r == 0)
    gomp_sys_copy_out (ts, &v, sizeof v);
  return r;
}

GOMP_EXPORT int
getrusage (__rusage_who_t who, struct rusage *ru)
{
  if (GOMP_LIKELY (!gomp_sys_hooked) || !SHARED (ru))
    return gomp_sys.getrusage (who, ru);
  struct rusage v;
  int r = gomp_sys.getrusage (who, &v);
  if (r == 0)
    gomp_sys_copy_out (ru, &v, sizeof v);
  return r;
}

GOMP_EXPORT clock_t
times (struct tms *t)
{
  if (GOMP_LIKELY (!gomp_sys_hooked) || t == NULL || !SHARED (t))
    return gomp_sys.times (t);
  struct tms v;
  clock_t r = gomp_sys.times (&v);
  if (r != (clock_t) -1)
    gomp_sys_copy_out (t, &v, sizeof v);
  return r;
}

GOMP_EXPORT int
poll (struct pollfd *fds, nfds_t n, int timeout)
{
  if (GOMP_LIKELY (!gomp_sys_hooked)
      || !(gomp_sys_slow () && gomp_sys_shared (fds, n * sizeof *fds)))
    return gomp_sys.poll (fds, n, timeout);
  struct gomp_sys_bounce b;
  struct pollfd *p = memcpy (gomp_sys_bounce_get (&b, n * sizeof *fds,
						  "poll"),
			     fds, n * sizeof *fds);
  int r = gomp_sys.poll (p, n, timeout);
  if (r >= 0)
    for (nfds_t i = 0; i < n; i++)
      gomp_sys_copy_out (&fds[i].revents, &p[i].revents,
			 sizeof p[i].revents);
  gomp_sys_bounce_put (&b);
  return r;
}

extern int __poll_chk (struct pollfd *, nfds_t, int, size_t);
extern void __chk_fail (void) GOMP_NORETURN;

GOMP_EXPORT int
__poll_chk (struct pollfd *fds, nfds_t n, int timeout, size_t len)
{
  if (len / sizeof *fds < n)
    __chk_fail ();
  return poll (fds, n, timeout);
}

GOMP_EXPORT int
select (int nfds, fd_set *r, fd_set *w, fd_set *e, struct timeval *t)
{
  if (GOMP_LIKELY (!gomp_sys_hooked)
      || !gomp_sys_slow ()
      || (!(r && SHARED (r)) && !(w && SHARED (w)) && !(e && SHARED (e))
	  && !(t && SHARED (t))))
    return gomp_sys.select (nfds, r, w, e, t);
  fd_set sr, sw, se;
  struct timeval st;
  int n = gomp_sys.select (nfds, r ? memcpy (&sr, r, sizeof sr) : NULL,
			   w ? memcpy (&sw, w, sizeof sw) : NULL,
			   e ? memcpy (&se, e, sizeof se) : NULL,
			   t ? memcpy (&st, t, sizeof st) : NULL);
  if (n >= 0)
    {
      if (r)
	gomp_sys_copy_out (r, &sr, sizeof sr);
      if (w)
	gomp_sys_copy_out (w, &sw, sizeof sw);
      if (e)
	gomp_sys_copy_out (e, &se, sizeof se);
    }
  if (t)
    gomp_sys_copy_out (t, &st, sizeof st);
  return n;
}

GOMP_EXPORT char *
getcwd (char *buf, size_t size)
{
  if (GOMP_LIKELY (!gomp_sys_hooked) || buf == NULL
      || !(gomp_sys_slow () && gomp_sys_shared (buf, size)))
    return gomp_sys.getcwd (buf, size);
  struct gomp_sys_bounce b;
  char *tmp = gomp_sys_bounce_get (&b, size, "getcwd");
  char *r = gomp_sys.getcwd (tmp, size);
  if (r)
    gomp_sys_copy_out (buf, tmp, strlen (tmp) + 1);
  gomp_sys_bounce_put (&b);
  return r ? buf : NULL;
}

GOMP_EXPORT ssize_t
readlink (const char *path, char *buf, size_t size)
{
  if (GOMP_LIKELY (!gomp_sys_hooked)
      || !(gomp_sys_slow ()
	   && (gomp_sys_shared (buf, size) || gomp_sys_shared (path, 1))))
    return gomp_sys.readlink (path, buf, size);
  struct gomp_sys_bounce b, bp;
  char *tmp = gomp_sys_bounce_get (&b, size, "readlink");
  ssize_t r = gomp_sys.readlink (gomp_sys_path (&bp, path, "readlink"), tmp,
				 size);
  if (r > 0)
    gomp_sys_copy_out (buf, tmp, r);
  gomp_sys_bounce_put (&bp);
  gomp_sys_bounce_put (&b);
  return r;
}

GOMP_EXPORT int
uname (struct utsname *u)
{
  if (GOMP_LIKELY (!gomp_sys_hooked) || !SHARED (u))
    return gomp_sys.uname (u);
  struct utsname v;
  int r = gomp_sys.uname (&v);
  if (r == 0)
    gomp_sys_copy_out (u, &v, sizeof v);
  return r;
}

GOMP_EXPORT int
sigaction (int sig, const struct sigaction *act, struct sigaction *old)
{
  if (GOMP_LIKELY (!gomp_sys_hooked)
      || !gomp_sys_slow ()
      || (!(act && SHARED (act)) && !(old && SHARED (old))))
    return gomp_sys.sigaction (sig, act, old);
  struct sigaction a, o;
  int r = gomp_sys.sigaction (sig, act ? memcpy (&a, act, sizeof a) : NULL,
			      old ? &o : NULL);
  if (r == 0 && old)
    gomp_sys_copy_out (old, &o, sizeof o);
  return r;
}

GOMP_EXPORT pid_t
waitpid (pid_t pid, int *status, int options)
{
  if (GOMP_LIKELY (!gomp_sys_hooked) || status == NULL || !SHARED (status))
    return gomp_sys.waitpid (pid, status, options);
  int s;
  pid_t r = gomp_sys.waitpid (pid, &s, options);
  if (r > 0)
    gomp_sys_copy_out (status, &s, sizeof s);
  return r;
}

GOMP_EXPORT pid_t
wait (int *status)
{
  return waitpid (-1, status, 0);
}

GOMP_EXPORT int
getrlimit (__rlimit_resource_t res, struct rlimit *rl)
{
  if (GOMP_LIKELY (!gomp_sys_hooked) || !SHARED (rl))
    return gomp_sys.getrlimit (res, rl);
  struct rlimit v;
  int r = gomp_sys.getrlimit (res, &v);
  if (r == 0)
    gomp_sys_copy_out (rl, &v, sizeof v);
  return r;
}
GOMP_EXPORT int getrlimit64 (__rlimit_resource_t, struct rlimit64 *)
  __attribute__ ((alias ("getrlimit")));

GOMP_EXPORT int
nanosleep (const struct timespec *req, struct timespec *rem)
{
  if (GOMP_LIKELY (!gomp_sys_hooked)
      || !gomp_sys_slow ()
      || (!SHARED (req) && !(rem && SHARED (rem))))
    return gomp_sys.nanosleep (req, rem);
  struct timespec q = *req, m;
  int r = gomp_sys.nanosleep (&q, rem ? &m : NULL);
  if (r != 0 && rem)
    gomp_sys_copy_out (rem, &m, sizeof m);
  return r;
}

GOMP_EXPORT int
pthread_create (pthread_t *id, const pthread_attr_t *attr,
		void *(*fn) (void *), void *arg)
{
  if (GOMP_LIKELY (!gomp_sys_hooked) || !SHARED (id))
    return gomp_sys.pthread_create (id, attr, fn, arg);
  pthread_t t;
  int r = gomp_sys.pthread_create (&t, attr, fn, arg);
  if (r == 0)
    gomp_sys_copy_out (id, &t, sizeof t);
  return r;
}

/* The mode argument when FLAGS create a file.  */
static mode_t
open_mode (int flags, va_list ap)
{
  return (flags & O_CREAT) || (flags & O_TMPFILE) == O_TMPFILE
	 ? va_arg (ap, mode_t) : 0;
}

GOMP_EXPORT int
open (const char *path, int flags, ...)
{
  va_list ap;
  va_start (ap, flags);
  mode_t mode = open_mode (flags, ap);
  va_end (ap);
  if (GOMP_LIKELY (!gomp_sys_hooked)
      || !(gomp_sys_slow () && gomp_sys_shared (path, 1)))
    return gomp_sys.open (path, flags, mode);
  struct gomp_sys_bounce b;
  int r = gomp_sys.open (gomp_sys_path (&b, path, "open"), flags, mode);
  gomp_sys_bounce_put (&b);
  return r;
}
GOMP_EXPORT int open64 (const char *, int, ...) __attribute__ ((alias ("open")));

GOMP_EXPORT int
openat (int dirfd, const char *path, int flags, ...)
{
  va_list ap;
  va_start (ap, flags);
  mode_t mode = open_mode (flags, ap);
  va_end (ap);
  if (GOMP_LIKELY (!gomp_sys_hooked)
      || !(gomp_sys_slow () && gomp_sys_shared (path, 1)))
    return gomp_sys.openat (dirfd, path, flags, mode);
  struct gomp_sys_bounce b;
  int r = gomp_sys.openat (dirfd, gomp_sys_path (&b, path, "openat"), flags,
			   mode);
  gomp_sys_bounce_put (&b);
  return r;
}
GOMP_EXPORT int openat64 (int, const char *, int, ...)
  __attribute__ ((alias ("openat")));

GOMP_EXPORT FILE *
fopen (const char *path, const char *mode)
{
  if (GOMP_LIKELY (!gomp_sys_hooked)
      || !(gomp_sys_slow ()
	   && (gomp_sys_shared (path, 1) || gomp_sys_shared (mode, 1))))
    return gomp_sys.fopen (path, mode);
  struct gomp_sys_bounce b, bm;
  FILE *r = gomp_sys.fopen (gomp_sys_path (&b, path, "fopen"),
			    gomp_sys_path (&bm, mode, "fopen"));
  gomp_sys_bounce_put (&bm);
  gomp_sys_bounce_put (&b);
  return r;
}
GOMP_EXPORT FILE *fopen64 (const char *, const char *)
  __attribute__ ((alias ("fopen")));
