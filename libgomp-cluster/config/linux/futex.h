/* futex.h -- the futex system call on Linux, the one primitive every
   sleeping wait of the runtime (wait.h's mutex, semaphore and barriers),
   the transport (its service thread and callers) and the DSM (block
   locks) is built on.  ADDR is a 32-bit word private to the process.
   Async-signal-safe (a system call, no lock).  */

#ifndef OMPC_CONFIG_LINUX_FUTEX_H
#define OMPC_CONFIG_LINUX_FUTEX_H 1

#include <linux/futex.h>
#include <stddef.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

/* Sleeps while the word at ADDR holds VAL, for at most TIMEOUT (relative;
   NULL: no limit).  Returns early on a wake, a signal or a changed
   word: callers look at the word again.  */
static inline void
gomp_futex_wait_for (void *addr, unsigned val, const struct timespec *timeout)
{
  syscall (SYS_futex, addr, FUTEX_WAIT_PRIVATE, val, timeout, NULL, 0);
}

static inline void
gomp_futex_wait (void *addr, unsigned val)
{
  gomp_futex_wait_for (addr, val, NULL);
}

/* Wakes up to COUNT threads sleeping on ADDR.  */
static inline void
gomp_futex_wake (void *addr, int count)
{
  syscall (SYS_futex, addr, FUTEX_WAKE_PRIVATE, count, NULL, NULL, 0);
}

#endif /* OMPC_CONFIG_LINUX_FUTEX_H */
