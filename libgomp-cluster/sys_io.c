/* sys_io.c -- interposers of the system calls that move data between a
   file descriptor and the program's buffers: read, pread, readv, preadv,
   recv, recvfrom, recvmsg and their _chk forms; write, pwrite, writev,
   pwritev, send, sendto, sendmsg.

   When a buffer (or an iovec array, a msghdr and what it points to) lies
   in the shared segment, the call goes to the kernel with private copies
   (sys.h): data read lands in a bounce buffer that is then copied into
   the program's buffers, data written is first copied out of them.  A
   vector call then becomes one transfer into or out of a single buffer
   (readv as read, preadv as pread ...), which moves the same bytes in
   the same order as one system call.  */

#include "sys.h"
#include <errno.h>
#include <string.h>

/* Whether the vector IOV of N entries touches the segment; the total
   length in *TOTAL (EINVAL on overflow: returns true, *TOTAL set to
   SIZE_MAX, the real call then reports it).  */
static bool
iov_shared (const struct iovec *iov, int n, size_t *total)
{
  bool shared = n > 0 && gomp_sys_shared (iov, n * sizeof *iov);
  size_t t = 0;
  for (int i = 0; i < n; i++)
    {
      if (__builtin_add_overflow (t, iov[i].iov_len, &t))
	{
	  *total = SIZE_MAX;
	  return shared;
	}
      shared |= gomp_sys_shared (iov[i].iov_base, iov[i].iov_len);
    }
  *total = t;
  return shared;
}

/* Copies LEN bytes of SRC into the buffers of IOV (errno kept).  */
static void
iov_scatter (const struct iovec *iov, int n, const char *src, size_t len)
{
  int saved = errno;
  for (int i = 0; i < n && len; i++)
    {
      size_t k = iov[i].iov_len < len ? iov[i].iov_len : len;
      memcpy (iov[i].iov_base, src, k);
      src += k;
      len -= k;
    }
  errno = saved;
}

static void
iov_gather (const struct iovec *iov, int n, char *dst)
{
  for (int i = 0; i < n; i++)
    {
      memcpy (dst, iov[i].iov_base, iov[i].iov_len);
      dst += iov[i].iov_len;
    }
}

GOMP_EXPORT ssize_t
read (int fd, void *buf, size_t n)
{
  if (GOMP_LIKELY (!gomp_sys_hooked))
    return gomp_sys.read (fd, buf, n);
  if (!gomp_sys_slow () || !gomp_sys_shared (buf, n))
    return gomp_sys.read (fd, buf, n);
  struct gomp_sys_bounce b;
  void *tmp = gomp_sys_bounce_get (&b, n, "read");
  ssize_t r = gomp_sys.read (fd, tmp, n);
  if (r > 0)
    gomp_sys_copy_out (buf, tmp, r);
  gomp_sys_bounce_put (&b);
  return r;
}

GOMP_EXPORT ssize_t
pread (int fd, void *buf, size_t n, off_t off)
{
  if (GOMP_LIKELY (!gomp_sys_hooked))
    return gomp_sys.pread (fd, buf, n, off);
  if (!gomp_sys_slow () || !gomp_sys_shared (buf, n))
    return gomp_sys.pread (fd, buf, n, off);
  struct gomp_sys_bounce b;
  void *tmp = gomp_sys_bounce_get (&b, n, "pread");
  ssize_t r = gomp_sys.pread (fd, tmp, n, off);
  if (r > 0)
    gomp_sys_copy_out (buf, tmp, r);
  gomp_sys_bounce_put (&b);
  return r;
}
GOMP_EXPORT ssize_t pread64 (int, void *, size_t, off64_t)
  __attribute__ ((alias ("pread")));

/* readv (OFF < 0) or preadv.  */
static ssize_t
readv_slow (int fd, const struct iovec *iov, int n, off_t off, bool at)
{
  size_t total;
  if (!gomp_sys_slow () || !iov_shared (iov, n, &total) || total == SIZE_MAX)
    return at ? gomp_sys.preadv (fd, iov, n, off) : gomp_sys.readv (fd, iov, n);
  struct gomp_sys_bounce b;
  void *tmp = gomp_sys_bounce_get (&b, total, at ? "preadv" : "readv");
  ssize_t r = at ? gomp_sys.pread (fd, tmp, total, off)
		 : gomp_sys.read (fd, tmp, total);
  if (r > 0)
    iov_scatter (iov, n, tmp, r);
  gomp_sys_bounce_put (&b);
  return r;
}

GOMP_EXPORT ssize_t
readv (int fd, const struct iovec *iov, int n)
{
  if (GOMP_LIKELY (!gomp_sys_hooked))
    return gomp_sys.readv (fd, iov, n);
  return readv_slow (fd, iov, n, 0, false);
}

GOMP_EXPORT ssize_t
preadv (int fd, const struct iovec *iov, int n, off_t off)
{
  if (GOMP_LIKELY (!gomp_sys_hooked))
    return gomp_sys.preadv (fd, iov, n, off);
  return readv_slow (fd, iov, n, off, true);
}
GOMP_EXPORT ssize_t preadv64 (int, const struct iovec *, int, off64_t)
  __attribute__ ((alias ("preadv")));

GOMP_EXPORT ssize_t
recvfrom (int fd, void *buf, size_t n, int flags, struct sockaddr *addr,
	  socklen_t *alen)
{
  if (GOMP_LIKELY (!gomp_sys_hooked))
    return gomp_sys.recvfrom (fd, buf, n, flags, addr, alen);
  if (!gomp_sys_slow ()
      || (!gomp_sys_shared (buf, n)
	  && !(alen && gomp_sys_shared (alen, sizeof *alen))
	  && !(addr && alen && gomp_sys_shared (addr, *alen))))
    return gomp_sys.recvfrom (fd, buf, n, flags, addr, alen);
  struct gomp_sys_bounce b;
  struct sockaddr_storage sa;
  socklen_t len = alen ? *alen : 0, got = len < sizeof sa ? len : sizeof sa;
  void *tmp = gomp_sys_bounce_get (&b, n, "recvfrom");
  ssize_t r = gomp_sys.recvfrom (fd, tmp, n, flags,
				 addr ? (struct sockaddr *) &sa : NULL,
				 addr ? &got : NULL);
  if (r >= 0)
    {
      /* With MSG_TRUNC the result may exceed N.  */
      gomp_sys_copy_out (buf, tmp, (size_t) r < n ? (size_t) r : n);
      if (addr && alen)
	{
	  gomp_sys_copy_out (addr, &sa, got < len ? got : len);
	  gomp_sys_copy_out (alen, &got, sizeof got);
	}
    }
  gomp_sys_bounce_put (&b);
  return r;
}

GOMP_EXPORT ssize_t
recv (int fd, void *buf, size_t n, int flags)
{
  if (GOMP_LIKELY (!gomp_sys_hooked))
    return gomp_sys.recv (fd, buf, n, flags);
  return recvfrom (fd, buf, n, flags, NULL, NULL);
}

/* Whether anything MSG points to (or MSG itself) is in the segment; the
   data's total length in *TOTAL.  */
static bool
msg_shared (const struct msghdr *msg, size_t *total)
{
  bool shared = gomp_sys_shared (msg, sizeof *msg);
  shared |= iov_shared (msg->msg_iov, msg->msg_iovlen, total);
  shared |= gomp_sys_shared (msg->msg_name, msg->msg_namelen);
  shared |= gomp_sys_shared (msg->msg_control, msg->msg_controllen);
  return shared;
}

GOMP_EXPORT ssize_t
recvmsg (int fd, struct msghdr *msg, int flags)
{
  size_t total;
  if (GOMP_LIKELY (!gomp_sys_hooked))
    return gomp_sys.recvmsg (fd, msg, flags);
  if (!gomp_sys_slow () || !msg_shared (msg, &total) || total == SIZE_MAX)
    return gomp_sys.recvmsg (fd, msg, flags);
  struct gomp_sys_bounce b, bn, bc;
  struct msghdr m = *msg;
  struct iovec v = { gomp_sys_bounce_get (&b, total, "recvmsg"), total };
  m.msg_iov = &v;
  m.msg_iovlen = 1;
  if (m.msg_name)
    m.msg_name = gomp_sys_bounce_get (&bn, m.msg_namelen, "recvmsg");
  else
    bn.buf = bn.small;
  if (m.msg_control)
    m.msg_control = gomp_sys_bounce_get (&bc, m.msg_controllen, "recvmsg");
  else
    bc.buf = bc.small;
  ssize_t r = gomp_sys.recvmsg (fd, &m, flags);
  if (r >= 0)
    {
      int saved = errno;
      iov_scatter (msg->msg_iov, msg->msg_iovlen, v.iov_base,
		   (size_t) r < total ? (size_t) r : total);
      if (msg->msg_name)
	memcpy (msg->msg_name, m.msg_name,
		m.msg_namelen < msg->msg_namelen ? m.msg_namelen
		: msg->msg_namelen);
      if (msg->msg_control)
	memcpy (msg->msg_control, m.msg_control, m.msg_controllen);
      msg->msg_namelen = m.msg_namelen;
      msg->msg_controllen = m.msg_controllen;
      msg->msg_flags = m.msg_flags;
      errno = saved;
    }
  gomp_sys_bounce_put (&bc);
  gomp_sys_bounce_put (&bn);
  gomp_sys_bounce_put (&b);
  return r;
}

GOMP_EXPORT ssize_t
write (int fd, const void *buf, size_t n)
{
  if (GOMP_LIKELY (!gomp_sys_hooked))
    return gomp_sys.write (fd, buf, n);
  if (!gomp_sys_slow () || !gomp_sys_shared (buf, n))
    return gomp_sys.write (fd, buf, n);
  struct gomp_sys_bounce b;
  void *tmp = memcpy (gomp_sys_bounce_get (&b, n, "write"), buf, n);
  ssize_t r = gomp_sys.write (fd, tmp, n);
  gomp_sys_bounce_put (&b);
  return r;
}

GOMP_EXPORT ssize_t
pwrite (int fd, const void *buf, size_t n, off_t off)
{
  if (GOMP_LIKELY (!gomp_sys_hooked))
    return gomp_sys.pwrite (fd, buf, n, off);
  if (!gomp_sys_slow () || !gomp_sys_shared (buf, n))
    return gomp_sys.pwrite (fd, buf, n, off);
  struct gomp_sys_bounce b;
  void *tmp = memcpy (gomp_sys_bounce_get (&b, n, "pwrite"), buf, n);
  ssize_t r = gomp_sys.pwrite (fd, tmp, n, off);
  gomp_sys_bounce_put (&b);
  return r;
}
GOMP_EXPORT ssize_t pwrite64 (int, const void *, size_t, off64_t)
  __attribute__ ((alias ("pwrite")));

static ssize_t
writev_slow (int fd, const struct iovec *iov, int n, off_t off, bool at)
{
  size_t total;
  if (!gomp_sys_slow () || !iov_shared (iov, n, &total) || total == SIZE_MAX)
    return at ? gomp_sys.pwritev (fd, iov, n, off)
	      : gomp_sys.writev (fd, iov, n);
  struct gomp_sys_bounce b;
  void *tmp = gomp_sys_bounce_get (&b, total, at ? "pwritev" : "writev");
  iov_gather (iov, n, tmp);
  ssize_t r = at ? gomp_sys.pwrite (fd, tmp, total, off)
		 : gomp_sys.write (fd, tmp, total);
  gomp_sys_bounce_put (&b);
  return r;
}

GOMP_EXPORT ssize_t
writev (int fd, const struct iovec *iov, int n)
{
  if (GOMP_LIKELY (!gomp_sys_hooked))
    return gomp_sys.writev (fd, iov, n);
  return writev_slow (fd, iov, n, 0, false);
}

GOMP_EXPORT ssize_t
pwritev (int fd, const struct iovec *iov, int n, off_t off)
{
  if (GOMP_LIKELY (!gomp_sys_hooked))
    return gomp_sys.pwritev (fd, iov, n, off);
  return writev_slow (fd, iov, n, off, true);
}
GOMP_EXPORT ssize_t pwritev64 (int, const struct iovec *, int, off64_t)
  __attribute__ ((alias ("pwritev")));

GOMP_EXPORT ssize_t
sendto (int fd, const void *buf, size_t n, int flags,
	const struct sockaddr *addr, socklen_t alen)
{
  if (GOMP_LIKELY (!gomp_sys_hooked))
    return gomp_sys.sendto (fd, buf, n, flags, addr, alen);
  if (!gomp_sys_slow ()
      || (!gomp_sys_shared (buf, n) && !gomp_sys_shared (addr, alen)))
    return gomp_sys.sendto (fd, buf, n, flags, addr, alen);
  struct gomp_sys_bounce b;
  struct sockaddr_storage sa;
  if (addr && alen <= sizeof sa)
    addr = memcpy (&sa, addr, alen);
  void *tmp = memcpy (gomp_sys_bounce_get (&b, n, "sendto"), buf, n);
  ssize_t r = gomp_sys.sendto (fd, tmp, n, flags, addr, alen);
  gomp_sys_bounce_put (&b);
  return r;
}

GOMP_EXPORT ssize_t
send (int fd, const void *buf, size_t n, int flags)
{
  if (GOMP_LIKELY (!gomp_sys_hooked))
    return gomp_sys.send (fd, buf, n, flags);
  return sendto (fd, buf, n, flags, NULL, 0);
}

GOMP_EXPORT ssize_t
sendmsg (int fd, const struct msghdr *msg, int flags)
{
  size_t total;
  if (GOMP_LIKELY (!gomp_sys_hooked))
    return gomp_sys.sendmsg (fd, msg, flags);
  if (!gomp_sys_slow () || !msg_shared (msg, &total) || total == SIZE_MAX)
    return gomp_sys.sendmsg (fd, msg, flags);
  struct gomp_sys_bounce b, bn, bc;
  struct msghdr m = *msg;
  struct iovec v = { gomp_sys_bounce_get (&b, total, "sendmsg"), total };
  iov_gather (msg->msg_iov, msg->msg_iovlen, v.iov_base);
  m.msg_iov = &v;
  m.msg_iovlen = 1;
  bn.buf = bn.small;
  bc.buf = bc.small;
  if (m.msg_name)
    m.msg_name = memcpy (gomp_sys_bounce_get (&bn, m.msg_namelen, "sendmsg"),
			 msg->msg_name, m.msg_namelen);
  if (m.msg_control)
    m.msg_control = memcpy (gomp_sys_bounce_get (&bc, m.msg_controllen,
						 "sendmsg"),
			    msg->msg_control, m.msg_controllen);
  ssize_t r = gomp_sys.sendmsg (fd, &m, flags);
  gomp_sys_bounce_put (&bc);
  gomp_sys_bounce_put (&bn);
  gomp_sys_bounce_put (&b);
  return r;
}

/* The _FORTIFY_SOURCE forms: glibc's own call its internal read, so
   they are interposed too; a buffer too small is glibc's error.  */
extern void __chk_fail (void) GOMP_NORETURN;
extern ssize_t __read_chk (int, void *, size_t, size_t);
extern ssize_t __pread_chk (int, void *, size_t, off_t, size_t);
extern ssize_t __pread64_chk (int, void *, size_t, off64_t, size_t);
extern ssize_t __recv_chk (int, void *, size_t, size_t, int);
extern ssize_t __recvfrom_chk (int, void *, size_t, size_t, int,
			       struct sockaddr *, socklen_t *);

GOMP_EXPORT ssize_t
__read_chk (int fd, void *buf, size_t n, size_t buflen)
{
  if (n > buflen)
    __chk_fail ();
  return read (fd, buf, n);
}

GOMP_EXPORT ssize_t
__pread_chk (int fd, void *buf, size_t n, off_t off, size_t buflen)
{
  if (n > buflen)
    __chk_fail ();
  return pread (fd, buf, n, off);
}
GOMP_EXPORT ssize_t __pread64_chk (int, void *, size_t, off64_t, size_t)
  __attribute__ ((alias ("__pread_chk")));

GOMP_EXPORT ssize_t
__recv_chk (int fd, void *buf, size_t n, size_t buflen, int flags)
{
  if (n > buflen)
    __chk_fail ();
  return recv (fd, buf, n, flags);
}

GOMP_EXPORT ssize_t
__recvfrom_chk (int fd, void *buf, size_t n, size_t buflen, int flags,
		struct sockaddr *addr, socklen_t *alen)
{
  if (n > buflen)
    __chk_fail ();
  return recvfrom (fd, buf, n, flags, addr, alen);
}
