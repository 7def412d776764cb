/* sys.c -- the interposers' common part: the real functions, the slow
   path's test and the bounce buffers (sys.h says why they exist).  */

#include "sys.h"
#include <dlfcn.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>

struct gomp_sys_real gomp_sys;
int gomp_sys_hooked = 1;
static int gomp_sys_resolved;

/* Name and slot of every real function.  */
#define SLOT(name) { #name, (void **) &gomp_sys.name }
static const struct
{
  const char *name;
  void **slot;
} gomp_sys_names[] = {
  SLOT (read), SLOT (pread), SLOT (readv), SLOT (preadv), SLOT (recv),
  SLOT (recvfrom), SLOT (recvmsg), SLOT (write), SLOT (pwrite),
  SLOT (writev), SLOT (pwritev), SLOT (send), SLOT (sendto),
  SLOT (sendmsg), SLOT (fread), SLOT (fread_unlocked), SLOT (fwrite),
  SLOT (fwrite_unlocked), SLOT (getdelim), SLOT (stat), SLOT (fstat),
  SLOT (lstat), SLOT (fstatat), SLOT (pipe), SLOT (pipe2),
  SLOT (socketpair), SLOT (time), SLOT (gettimeofday),
  SLOT (clock_gettime), SLOT (getrusage), SLOT (times), SLOT (poll),
  SLOT (select), SLOT (getcwd), SLOT (readlink), SLOT (uname),
  SLOT (sigaction), SLOT (waitpid), SLOT (getrlimit), SLOT (nanosleep),
  SLOT (pthread_create), SLOT (open), SLOT (openat), SLOT (fopen)
};
#undef SLOT

/* Fills gomp_sys.  Several threads may do it at once: they store the
   same values.  */
static void
gomp_sys_resolve (void)
{
  for (size_t i = 0; i < sizeof gomp_sys_names / sizeof gomp_sys_names[0];
       i++)
    {
      void *f = dlsym (RTLD_NEXT, gomp_sys_names[i].name);
      if (f == NULL)
	{
	  /* Not write: that is an interposer too.  */
	  static const char msg[] = "ompcluster: cannot find libc's own "
				    "function behind an interposer\n";
	  (void) !syscall (SYS_write, 2, msg, sizeof msg - 1);
	  abort ();
	}
      __atomic_store_n (gomp_sys_names[i].slot, f, __ATOMIC_RELAXED);
    }
  __atomic_store_n (&gomp_sys_resolved, 1, __ATOMIC_RELEASE);
}

/* Early, so that the one-node fast path starts soon; start.c sets
   gomp_sys_hooked again when the cluster module is loaded.  */
static void __attribute__ ((constructor (102)))
gomp_sys_init (void)
{
  gomp_sys_resolve ();
  __atomic_store_n (&gomp_sys_hooked, gomp_cluster != NULL,
		    __ATOMIC_RELEASE);
}

bool
gomp_sys_slow (void)
{
  if (!__atomic_load_n (&gomp_sys_resolved, __ATOMIC_ACQUIRE))
    gomp_sys_resolve ();
  return gomp_cluster != NULL;
}

bool
gomp_sys_shared (const void *p, size_t len)
{
  if (len == 0 || gomp_cluster == NULL)
    return false;
  return gomp_cluster->shared (p)
	 || gomp_cluster->shared ((const char *) p + (len - 1));
}

void *
gomp_sys_bounce_get (struct gomp_sys_bounce *b, size_t len, const char *what)
{
  if (len <= sizeof b->small)
    return b->buf = b->small;
  b->buf = malloc (len);
  if (b->buf == NULL)
    gomp_fatal ("out of memory for a private copy of %zu bytes of shared "
		"memory that %s hands to the kernel", len, what);
  return b->buf;
}

void
gomp_sys_bounce_put (struct gomp_sys_bounce *b)
{
  if (b->buf != b->small)
    {
      int saved = errno;
      free (b->buf);
      errno = saved;
    }
}

const char *
gomp_sys_path (struct gomp_sys_bounce *b, const char *s, const char *what)
{
  b->buf = b->small;
  if (s == NULL || !gomp_sys_shared (s, 1))
    return s;
  size_t len = strlen (s) + 1;
  return memcpy (gomp_sys_bounce_get (b, len, what), s, len);
}

void
gomp_sys_copy_out (void *dst, const void *src, size_t len)
{
  int saved = errno;
  memcpy (dst, src, len);
  errno = saved;
}
