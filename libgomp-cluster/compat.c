/* compat.c -- the lock entry points of OpenMP 2.5 (version node OMP_1.0),
   kept for programs linked against libgomp before GCC 4.4.

   When OpenMP 3.0 came, libgomp changed omp_nest_lock_t (it grew an owner
   pointer, 16 bytes) and gave every lock routine a new default version,
   name@@OMP_3.0: that is the plain omp_init_lock etc. which lock.c defines
   and libgomp.map versions.  The old binaries still call name@OMP_1.0, bound
   here with the symver attribute to functions with the 2.5 semantics:
   - a simple lock is the same 32-bit word in both versions, so the OMP_1.0
     simple-lock routines call the current ones;
   - a 2.5 nestable lock is two ints, the owner's thread id and the nesting
     count (8 bytes); it is implemented here, node-local (no cluster lock:
     no program built for the cluster can have been linked that long ago).
   The Fortran 2.5 routines take the same objects by reference (their lock
   kinds, 4 and 8, are the objects' sizes) and call the C ones.  */

#include "libgomp.h"
#include "omp.h"
#include <sys/syscall.h>
#include <unistd.h>

#define GOMP_COMPAT(name) __attribute__ ((symver (name "@OMP_1.0"), used)) \
  GOMP_EXPORT

/* The 2.5 nestable lock: 0 when free, else the holder's thread id.  */
typedef struct
{
  int owner;
  int count;
} gomp_nest_lock_25_t;

/* A thread id unique in the process (the kernel's), cached per thread.  */
static int
gomp_compat_tid (void)
{
  static __thread int tid;
  if (GOMP_UNLIKELY (tid == 0))
    tid = syscall (SYS_gettid);
  return tid;
}

/* Simple locks: unchanged since 2.5.  */

GOMP_COMPAT ("omp_init_lock") void
gomp_compat_init_lock (omp_lock_t *lock)
{
  omp_init_lock (lock);
}

GOMP_COMPAT ("omp_destroy_lock") void
gomp_compat_destroy_lock (omp_lock_t *lock)
{
  omp_destroy_lock (lock);
}

GOMP_COMPAT ("omp_set_lock") void
gomp_compat_set_lock (omp_lock_t *lock)
{
  omp_set_lock (lock);
}

GOMP_COMPAT ("omp_unset_lock") void
gomp_compat_unset_lock (omp_lock_t *lock)
{
  omp_unset_lock (lock);
}

GOMP_COMPAT ("omp_test_lock") int
gomp_compat_test_lock (omp_lock_t *lock)
{
  return omp_test_lock (lock);
}

/* Nestable locks of 2.5 (OpenMP 2.5, 3.3): the owner may set the lock
   again, which counts; omp_test_nest_lock returns the new count, or 0 when
   another thread holds it.  */

GOMP_COMPAT ("omp_init_nest_lock") void
gomp_compat_init_nest_lock (gomp_nest_lock_25_t *lock)
{
  lock->owner = 0;
  lock->count = 0;
}

GOMP_COMPAT ("omp_destroy_nest_lock") void
gomp_compat_destroy_nest_lock (gomp_nest_lock_25_t *lock)
{
}

GOMP_COMPAT ("omp_test_nest_lock") int
gomp_compat_test_nest_lock (gomp_nest_lock_25_t *lock)
{
  int me = gomp_compat_tid ();
  int holder = 0;

  if (__atomic_compare_exchange_n (&lock->owner, &holder, me, false,
				   __ATOMIC_ACQUIRE, __ATOMIC_RELAXED))
    {
      lock->count = 1;
      return 1;
    }
  if (holder == me)
    return ++lock->count;
  return 0;
}

GOMP_COMPAT ("omp_set_nest_lock") void
gomp_compat_set_nest_lock (gomp_nest_lock_25_t *lock)
{
  int me = gomp_compat_tid ();

  for (;;)
    {
      int holder = 0;
      if (__atomic_compare_exchange_n (&lock->owner, &holder, me, false,
				       __ATOMIC_ACQUIRE, __ATOMIC_RELAXED))
	{
	  lock->count = 1;
	  return;
	}
      if (holder == me)
	{
	  lock->count++;
	  return;
	}
      /* Sleep until the owner word changes (unset wakes one waiter).  */
      gomp_wait_while_equal (&lock->owner, holder);
    }
}

GOMP_COMPAT ("omp_unset_nest_lock") void
gomp_compat_unset_nest_lock (gomp_nest_lock_25_t *lock)
{
  if (--lock->count == 0)
    {
      __atomic_store_n (&lock->owner, 0, __ATOMIC_RELEASE);
      gomp_futex_wake (&lock->owner, 1);
    }
}

/* Fortran 2.5 (omp_lock_kind 4, omp_nest_lock_kind 8: the objects
   themselves, by reference).  */

GOMP_COMPAT ("omp_init_lock_") void
gomp_compat_init_lock_ (omp_lock_t *lock)
{
  gomp_compat_init_lock (lock);
}

GOMP_COMPAT ("omp_destroy_lock_") void
gomp_compat_destroy_lock_ (omp_lock_t *lock)
{
  gomp_compat_destroy_lock (lock);
}

GOMP_COMPAT ("omp_set_lock_") void
gomp_compat_set_lock_ (omp_lock_t *lock)
{
  gomp_compat_set_lock (lock);
}

GOMP_COMPAT ("omp_unset_lock_") void
gomp_compat_unset_lock_ (omp_lock_t *lock)
{
  gomp_compat_unset_lock (lock);
}

GOMP_COMPAT ("omp_test_lock_") int
gomp_compat_test_lock_ (omp_lock_t *lock)
{
  return gomp_compat_test_lock (lock);
}

GOMP_COMPAT ("omp_init_nest_lock_") void
gomp_compat_init_nest_lock_ (gomp_nest_lock_25_t *lock)
{
  gomp_compat_init_nest_lock (lock);
}

GOMP_COMPAT ("omp_destroy_nest_lock_") void
gomp_compat_destroy_nest_lock_ (gomp_nest_lock_25_t *lock)
{
  gomp_compat_destroy_nest_lock (lock);
}

GOMP_COMPAT ("omp_set_nest_lock_") void
gomp_compat_set_nest_lock_ (gomp_nest_lock_25_t *lock)
{
  gomp_compat_set_nest_lock (lock);
}

GOMP_COMPAT ("omp_unset_nest_lock_") void
gomp_compat_unset_nest_lock_ (gomp_nest_lock_25_t *lock)
{
  gomp_compat_unset_nest_lock (lock);
}

GOMP_COMPAT ("omp_test_nest_lock_") int
gomp_compat_test_nest_lock_ (gomp_nest_lock_25_t *lock)
{
  return gomp_compat_test_nest_lock (lock);
}
