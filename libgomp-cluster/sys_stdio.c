/* sys_stdio.c -- interposers of the stdio functions that hand the
   program's buffer to the kernel themselves: fread (a large request is
   read straight into the buffer), fwrite (a large one is written from
   it), their _unlocked and _chk forms, and getline/getdelim, which
   also grow the line buffer with libc's realloc -- a buffer of the
   shared heap must grow in the shared heap.

   The other stdio functions copy between the program's memory and the
   stream's private buffer with ordinary loads and stores (fgets, fscanf,
   fputs, printf ...: a string is measured before it is written), which
   fault and reach the DSM as the program's own accesses do, so they need
   no interposer.  */

#include "sys.h"
#include <errno.h>
#include <stdlib.h>
#include <string.h>

/* Macros in <stdio.h> when optimising.  */
#undef fread_unlocked
#undef fwrite_unlocked

static size_t
fread_slow (void *buf, size_t size, size_t n, FILE *f, bool unlocked)
{
  size_t len;
  size_t (*real) (void *, size_t, size_t, FILE *)
    = unlocked ? gomp_sys.fread_unlocked : gomp_sys.fread;
  if (!gomp_sys_slow () || __builtin_mul_overflow (size, n, &len)
      || !gomp_sys_shared (buf, len))
    return real (buf, size, n, f);
  struct gomp_sys_bounce b;
  void *tmp = gomp_sys_bounce_get (&b, len, "fread");
  size_t r = real (tmp, size, n, f);
  if (r)
    gomp_sys_copy_out (buf, tmp, r * size);
  gomp_sys_bounce_put (&b);
  return r;
}

GOMP_EXPORT size_t
fread (void *buf, size_t size, size_t n, FILE *f)
{
  if (GOMP_LIKELY (!gomp_sys_hooked))
    return gomp_sys.fread (buf, size, n, f);
  return fread_slow (buf, size, n, f, false);
}

GOMP_EXPORT size_t
fread_unlocked (void *buf, size_t size, size_t n, FILE *f)
{
  if (GOMP_LIKELY (!gomp_sys_hooked))
    return gomp_sys.fread_unlocked (buf, size, n, f);
  return fread_slow (buf, size, n, f, true);
}

extern void __chk_fail (void) GOMP_NORETURN;
extern size_t __fread_chk (void *, size_t, size_t, size_t, FILE *);
extern size_t __fread_unlocked_chk (void *, size_t, size_t, size_t, FILE *);

GOMP_EXPORT size_t
__fread_chk (void *buf, size_t buflen, size_t size, size_t n, FILE *f)
{
  size_t len;
  if (__builtin_mul_overflow (size, n, &len) || len > buflen)
    __chk_fail ();
  return fread (buf, size, n, f);
}

GOMP_EXPORT size_t
__fread_unlocked_chk (void *buf, size_t buflen, size_t size, size_t n,
		      FILE *f)
{
  size_t len;
  if (__builtin_mul_overflow (size, n, &len) || len > buflen)
    __chk_fail ();
  return fread_unlocked (buf, size, n, f);
}

static size_t
fwrite_slow (const void *buf, size_t size, size_t n, FILE *f, bool unlocked)
{
  size_t len;
  size_t (*real) (const void *, size_t, size_t, FILE *)
    = unlocked ? gomp_sys.fwrite_unlocked : gomp_sys.fwrite;
  if (!gomp_sys_slow () || __builtin_mul_overflow (size, n, &len)
      || !gomp_sys_shared (buf, len))
    return real (buf, size, n, f);
  struct gomp_sys_bounce b;
  void *tmp = memcpy (gomp_sys_bounce_get (&b, len, "fwrite"), buf, len);
  size_t r = real (tmp, size, n, f);
  gomp_sys_bounce_put (&b);
  return r;
}

GOMP_EXPORT size_t
fwrite (const void *buf, size_t size, size_t n, FILE *f)
{
  if (GOMP_LIKELY (!gomp_sys_hooked))
    return gomp_sys.fwrite (buf, size, n, f);
  return fwrite_slow (buf, size, n, f, false);
}

GOMP_EXPORT size_t
fwrite_unlocked (const void *buf, size_t size, size_t n, FILE *f)
{
  if (GOMP_LIKELY (!gomp_sys_hooked))
    return gomp_sys.fwrite_unlocked (buf, size, n, f);
  return fwrite_slow (buf, size, n, f, true);
}

/* Several nodes: when the line buffer is a block of the shared heap,
   the line is read into a private buffer and copied into *LINE, which
   grows in the shared heap (libc's realloc cannot grow it).  A NULL or
   private *LINE is libc's to allocate and grow, as the caller (the
   program, or a library that frees it with libc's free) expects: it is
   then private memory of this node.  */
static ssize_t
getdelim_slow (char **line, size_t *cap, int delim, FILE *f)
{
  if (!gomp_sys_slow () || line == NULL || cap == NULL || *line == NULL
      || !gomp_sys_shared (*line, 1))
    return gomp_sys.getdelim (line, cap, delim, f);
  char *tmp = NULL;
  size_t tcap = 0;
  ssize_t r = gomp_sys.getdelim (&tmp, &tcap, delim, f);
  int saved = errno;
  if (r >= 0)
    {
      char *p = *line;
      size_t c = *cap;
      if (c < (size_t) r + 1)
	{
	  c = (size_t) r + 1 < 120 ? 120 : (size_t) r + 1;
	  p = gomp_cluster->realloc (p, c);
	  if (p == NULL)
	    {
	      free (tmp);
	      errno = ENOMEM;
	      return -1;
	    }
	  *line = p;
	  *cap = c;
	}
      memcpy (p, tmp, (size_t) r + 1);
    }
  free (tmp);
  errno = saved;
  return r;
}

GOMP_EXPORT ssize_t
getdelim (char **line, size_t *cap, int delim, FILE *f)
{
  if (GOMP_LIKELY (!gomp_sys_hooked))
    return gomp_sys.getdelim (line, cap, delim, f);
  return getdelim_slow (line, cap, delim, f);
}
GOMP_EXPORT ssize_t __getdelim (char **, size_t *, int, FILE *)
  __attribute__ ((alias ("getdelim")));

GOMP_EXPORT ssize_t
getline (char **line, size_t *cap, FILE *f)
{
  if (GOMP_LIKELY (!gomp_sys_hooked))
    return gomp_sys.getdelim (line, cap, '\n', f);
  return getdelim_slow (line, cap, '\n', f);
}
