/* sys.h -- the system calls and libc functions the runtime interposes so
   that the kernel never touches shared memory that this node holds
   protected (sys.c, sys_io.c, sys_stdio.c, sys_misc.c).

   With several nodes a page of the shared segment may be inaccessible
   (never touched here, or invalidated) or read-only on this node.  A
   user-space access faults and the DSM's handler makes the page
   accessible; a system call given such an address fails with EFAULT
   instead (or stops short), and the DSM never learns of it.  Every
   interposer therefore hands the kernel private memory when its
   arguments point into the segment: a bounce buffer (on the caller's
   stack when small, else malloc'ed) that the kernel fills and the
   interposer then copies into the program's memory with memcpy, or that
   the interposer fills from the program's memory before the call.  Those
   copies are ordinary loads and stores, so they go through the DSM's
   fault path (twins, diffs and write notices stay right), and nothing
   any other thread does between the copy and the call can take the
   access away again: the kernel never sees a shared address.

   The interposers are defined in lib/libgomp.so.1 with the default
   version glibc gives each name (libgomp.map), which every program built
   with ompcc loads before libc: the program's calls, and those of the
   libraries it links, reach them.  Calls inside libc (fread's reads go
   to __read) do not: the stdio functions that hand the program's buffer
   to the kernel have their own interposers.  The real functions come
   from dlsym (RTLD_NEXT) once (gomp_sys_resolve).

   With one node every interposer costs one predictable branch on
   GOMP_SYS_HOOKED, which is set while the real functions are not
   resolved yet (a library's constructor may run before the runtime's)
   and while the program runs on several nodes.  */

#ifndef OMPC_SYS_H
#define OMPC_SYS_H 1

#include "libgomp.h"
#include <dirent.h>
#include <poll.h>
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <sys/resource.h>
#include <sys/select.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/time.h>
#include <sys/times.h>
#include <sys/types.h>
#include <sys/uio.h>
#include <sys/utsname.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

/* The real functions (libc's), filled by gomp_sys_resolve.  */
struct gomp_sys_real
{
  ssize_t (*read) (int, void *, size_t);
  ssize_t (*pread) (int, void *, size_t, off_t);
  ssize_t (*readv) (int, const struct iovec *, int);
  ssize_t (*preadv) (int, const struct iovec *, int, off_t);
  ssize_t (*recv) (int, void *, size_t, int);
  ssize_t (*recvfrom) (int, void *, size_t, int, struct sockaddr *,
		       socklen_t *);
  ssize_t (*recvmsg) (int, struct msghdr *, int);
  ssize_t (*write) (int, const void *, size_t);
  ssize_t (*pwrite) (int, const void *, size_t, off_t);
  ssize_t (*writev) (int, const struct iovec *, int);
  ssize_t (*pwritev) (int, const struct iovec *, int, off_t);
  ssize_t (*send) (int, const void *, size_t, int);
  ssize_t (*sendto) (int, const void *, size_t, int,
		     const struct sockaddr *, socklen_t);
  ssize_t (*sendmsg) (int, const struct msghdr *, int);
  size_t (*fread) (void *, size_t, size_t, FILE *);
  size_t (*fread_unlocked) (void *, size_t, size_t, FILE *);
  size_t (*fwrite) (const void *, size_t, size_t, FILE *);
  size_t (*fwrite_unlocked) (const void *, size_t, size_t, FILE *);
  ssize_t (*getdelim) (char **, size_t *, int, FILE *);
  int (*stat) (const char *, struct stat *);
  int (*fstat) (int, struct stat *);
  int (*lstat) (const char *, struct stat *);
  int (*fstatat) (int, const char *, struct stat *, int);
  int (*pipe) (int *);
  int (*pipe2) (int *, int);
  int (*socketpair) (int, int, int, int *);
  time_t (*time) (time_t *);
  int (*gettimeofday) (struct timeval *, void *);
  int (*clock_gettime) (clockid_t, struct timespec *);
  int (*getrusage) (__rusage_who_t, struct rusage *);
  clock_t (*times) (struct tms *);
  int (*poll) (struct pollfd *, nfds_t, int);
  int (*select) (int, fd_set *, fd_set *, fd_set *, struct timeval *);
  char *(*getcwd) (char *, size_t);
  ssize_t (*readlink) (const char *, char *, size_t);
  int (*uname) (struct utsname *);
  int (*sigaction) (int, const struct sigaction *, struct sigaction *);
  pid_t (*waitpid) (pid_t, int *, int);
  int (*getrlimit) (__rlimit_resource_t, struct rlimit *);
  int (*nanosleep) (const struct timespec *, struct timespec *);
  int (*pthread_create) (pthread_t *, const pthread_attr_t *,
			 void *(*) (void *), void *);
  int (*open) (const char *, int, ...);
  int (*openat) (int, const char *, int, ...);
  FILE *(*fopen) (const char *, const char *);
};

extern struct gomp_sys_real gomp_sys;
/* Set while the interposers must take their slow path (see above).  */
extern int gomp_sys_hooked;

/* sys.c.  The slow path's first step: resolves the real functions if
   needed; returns true when the program runs on several nodes.  */
extern bool gomp_sys_slow (void);
/* Whether the LEN bytes at P touch the shared segment (false for
   LEN 0).  Several nodes only.  */
extern bool gomp_sys_shared (const void *p, size_t len);
/* A bounce buffer: BUF of LEN bytes, the caller's SMALL when it fits.  */
#define GOMP_SYS_SMALL 512
struct gomp_sys_bounce
{
  void *buf;
  char small[GOMP_SYS_SMALL];
};
/* Returns B->buf with room for LEN bytes (a fatal error naming WHAT
   when memory runs out).  */
extern void *gomp_sys_bounce_get (struct gomp_sys_bounce *b, size_t len,
				  const char *what);
/* Frees it; errno is kept.  */
extern void gomp_sys_bounce_put (struct gomp_sys_bounce *b);
/* A private copy of the string S if it lies in the shared segment (in B),
   else S itself.  */
extern const char *gomp_sys_path (struct gomp_sys_bounce *b, const char *s,
				  const char *what);
/* Copies LEN bytes to DST after a call that succeeded, keeping errno.  */
extern void gomp_sys_copy_out (void *dst, const void *src, size_t len);

#endif /* OMPC_SYS_H */
