/* wait.h -- the waiting primitives of the runtime on Linux: futex calls,
   spin-then-sleep waits (GOMP_SPINCOUNT, OMP_WAIT_POLICY), a three-state
   futex mutex and a counting semaphore.  Everything here is node-local; the
   cluster's waits live in the cluster module.  */

#ifndef OMPC_WAIT_H
#define OMPC_WAIT_H 1

#include <limits.h>
#include <sched.h>
#include <stdbool.h>
#include "config/linux/futex.h"

/* How many polls a waiter makes before it sleeps in the kernel (env.c:
   GOMP_SPINCOUNT and OMP_WAIT_POLICY); gomp_spin_count_throttled is used
   when the process runs more threads than it has processors.  */
extern unsigned long gomp_spin_count, gomp_spin_count_throttled;
/* Threads started by the runtime plus the initial one (team.c), and the
   processors available to the process (affinity.c).  */
extern unsigned gomp_managed_threads, gomp_available_cpus;

extern int gomp_wait_policy;

/* Whether the thread that will end a wait may be queued behind the
   waiter on its processor: the process runs more threads than it has
   processors, or start.c throttled every wait because the ranks sharing
   this machine together do (gomp_spin_count is then the throttled count;
   not so under OMP_WAIT_POLICY=active).  Spinning waits then hand the
   processor over between polls, as LLVM's libomp does: a waiter that
   pauses keeps it for its whole spin count (~50 us), which at 2 nodes x 2
   threads on 2 processors was the cost of every node-local barrier (the
   thread it waited for could not run meanwhile).  */
static inline bool
gomp_spin_hands_over (void)
{
  return __atomic_load_n (&gomp_managed_threads, __ATOMIC_RELAXED)
	 > gomp_available_cpus
	 || (gomp_spin_count == gomp_spin_count_throttled
	     && gomp_wait_policy != 1);
}

/* Between two polls of a spinning wait.  */
static inline void
gomp_cpu_relax (void)
{
  if (gomp_spin_hands_over ())
    sched_yield ();
  else
    __builtin_ia32_pause ();
}

/* The polls of a spinning wait.  Far more threads than processors (a
   team of thousands): every poll hands the processor over to another
   waiter (gomp_cpu_relax), so the waiters' polls add up to one context
   switch each before the last of them sleeps -- 2000 threads on 2
   processors took ten times as long as GCC's libgomp.  Their sum is then
   kept near that of 8 waiters per processor.  */
static inline unsigned long
gomp_spin_limit (void)
{
  unsigned m = __atomic_load_n (&gomp_managed_threads, __ATOMIC_RELAXED);
  if (m <= gomp_available_cpus)
    return gomp_spin_count;
  if (m / 8 > gomp_available_cpus)
    return gomp_spin_count_throttled * 8 * gomp_available_cpus / m;
  return gomp_spin_count_throttled;
}

/* Polls *ADDR until it differs from VAL, then sleeps on it; returns when it
   differs (or on a spurious wake: callers re-check their condition).  */
static inline void
gomp_wait_while_equal (int *addr, int val)
{
  unsigned long n = gomp_spin_limit ();
  for (unsigned long i = 0; i < n; i++)
    {
      if (__atomic_load_n (addr, __ATOMIC_ACQUIRE) != val)
	return;
      gomp_cpu_relax ();
    }
  gomp_futex_wait (addr, val);
}

/* A one-way signal on a futex word: the waiter waits for *WORD to change
   from OLD (spinning, then sleeping with *SLEEPERS counting it); the
   signaller changes *WORD and calls gomp_signal_change, which makes a
   system call only when someone sleeps.  */
static inline void
gomp_wait_for_change (int *word, int *sleepers, int old)
{
  unsigned long n = gomp_spin_limit ();
  for (unsigned long i = 0; i < n; i++)
    {
      if (__atomic_load_n (word, __ATOMIC_ACQUIRE) != old)
	return;
      gomp_cpu_relax ();
    }
  while (__atomic_load_n (word, __ATOMIC_ACQUIRE) == old)
    {
      __atomic_add_fetch (sleepers, 1, __ATOMIC_SEQ_CST);
      if (__atomic_load_n (word, __ATOMIC_SEQ_CST) == old)
	gomp_futex_wait (word, old);
      __atomic_sub_fetch (sleepers, 1, __ATOMIC_RELAXED);
    }
}

static inline void
gomp_signal_change (int *word, int *sleepers, int count)
{
  if (__atomic_load_n (sleepers, __ATOMIC_SEQ_CST))
    gomp_futex_wake (word, count);
}

/* A mutex in one int: 0 free, 1 held, 2 held with possible sleepers.  It
   fits omp_lock_t (4 bytes) and the pointer-sized variable of a named
   critical section.  */
typedef int gomp_mutex_t;

extern void gomp_mutex_lock_slow (gomp_mutex_t *m);

static inline void
gomp_mutex_init (gomp_mutex_t *m)
{
  *m = 0;
}

static inline void
gomp_mutex_lock (gomp_mutex_t *m)
{
  int expected = 0;
  if (GOMP_LIKELY (__atomic_compare_exchange_n (m, &expected, 1, false,
						__ATOMIC_ACQUIRE,
						__ATOMIC_RELAXED)))
    return;
  gomp_mutex_lock_slow (m);
}

static inline bool
gomp_mutex_trylock (gomp_mutex_t *m)
{
  int expected = 0;
  return __atomic_compare_exchange_n (m, &expected, 1, false,
				      __ATOMIC_ACQUIRE, __ATOMIC_RELAXED);
}

static inline void
gomp_mutex_unlock (gomp_mutex_t *m)
{
  if (GOMP_UNLIKELY (__atomic_exchange_n (m, 0, __ATOMIC_RELEASE) == 2))
    gomp_futex_wake (m, 1);
}

/* A counting semaphore in one int.  */
typedef int gomp_sem_t;

static inline void
gomp_sem_init (gomp_sem_t *s, int value)
{
  *s = value;
}

extern void gomp_sem_wait (gomp_sem_t *s);
extern void gomp_sem_post (gomp_sem_t *s);

#endif /* OMPC_WAIT_H */
