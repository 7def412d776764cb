/* say.c -- gomp_cl_say, the async-signal-safe message writer of the
   transport, the cluster module and the DSM: it formats by itself (no
   stdio, no malloc, no lock) and writes each message to stderr in one
   write(2), so that the lines of several threads and ranks do not mix.  */

#include "transport.h"
#include <stdarg.h>
#include <stdbool.h>
#include <stdint.h>
#include <sys/types.h>
#include <unistd.h>

/* Appends V in BASE (10 or 16) at P, up to END; returns the new end.  */
static char *
cl_say_num (char *p, char *end, unsigned long long v, unsigned base)
{
  char tmp[24];
  int n = 0;
  do
    tmp[n++] = "0123456789abcdef"[v % base];
  while ((v /= base));
  while (n && p < end)
    *p++ = tmp[--n];
  return p;
}

static char *
cl_say_str (char *p, char *end, const char *s)
{
  while (*s && p < end)
    *p++ = *s++;
  return p;
}

void
gomp_cl_say (const char *fmt, ...)
{
  char buf[2048], *p = buf, *end = buf + sizeof buf;
  va_list ap;

  va_start (ap, fmt);
  while (*fmt && p < end)
    {
      if (*fmt != '%')
	{
	  *p++ = *fmt++;
	  continue;
	}
      const char *conv = fmt++;
      int longs = 0;
      bool size = *fmt == 'z';
      if (size)
	fmt++;
      for (; *fmt == 'l' && longs < 2; fmt++)
	longs++;
      unsigned long long u;
      switch (*fmt)
	{
	case 'd':
	case 'i':
	  {
	    long long v = size ? (long long) va_arg (ap, ssize_t)
			  : longs == 2 ? va_arg (ap, long long)
			  : longs ? va_arg (ap, long) : va_arg (ap, int);
	    u = v;
	    if (v < 0)
	      {
		*p++ = '-';
		u = -u;
	      }
	    p = cl_say_num (p, end, u, 10);
	    break;
	  }
	case 'u':
	case 'x':
	  u = size ? va_arg (ap, size_t)
	      : longs == 2 ? va_arg (ap, unsigned long long)
	      : longs ? va_arg (ap, unsigned long) : va_arg (ap, unsigned);
	  p = cl_say_num (p, end, u, *fmt == 'x' ? 16 : 10);
	  break;
	case 'p':
	  /* As glibc prints pointers.  */
	  u = (uintptr_t) va_arg (ap, void *);
	  if (u)
	    p = cl_say_num (cl_say_str (p, end, "0x"), end, u, 16);
	  else
	    p = cl_say_str (p, end, "(nil)");
	  break;
	case 's':
	  {
	    const char *s = va_arg (ap, const char *);
	    p = cl_say_str (p, end, s ? s : "(null)");
	    break;
	  }
	case 'c':
	  *p++ = (char) va_arg (ap, int);
	  break;
	case '%':
	  *p++ = '%';
	  break;
	default:
	  /* Not a conversion this knows: shown as written.  */
	  *p++ = '%';
	  fmt = conv + 1;
	  continue;
	}
      fmt++;
    }
  va_end (ap);
  /* A message cut short still ends its line.  */
  if (p == end)
    p[-1] = '\n';
  if (write (STDERR_FILENO, buf, p - buf) < 0)
    return;
}
