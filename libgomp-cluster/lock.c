/* lock.c -- the simple and nestable lock routines (OpenMP 5.1 section
   3.9), the default (OMP_3.0) versions; the OMP_1.0 compatibility symbols
   are in the "abi" part.  omp_lock_t is GCC's 4-byte lock word (a futex
   mutex here); omp_nest_lock_t is the struct below (16 bytes like GCC's).
   A nestable lock is owned by a task.  GCC 12's libgomp.so.1 exports no
   omp_init_*lock_with_hint (omp.h declares them), so neither do we.  Across nodes critical.c's cluster
   locks replace the word in memory (which the DSM may share between
   nodes), and the owner token carries the rank.  */

#include "libgomp.h"

struct gomp_nest_lock
{
  gomp_mutex_t lock;
  int count;
  void *owner;
};

_Static_assert (sizeof (struct gomp_nest_lock) == 16,
		"omp_nest_lock_t is 16 bytes in GCC's omp.h");

/* Who owns a nestable lock: the task running (the thread when taskteam.c
   has not set one), unique across nodes.  */
static inline void *
gomp_lock_owner (void)
{
  struct gomp_thread *thr = gomp_thread ();
  uintptr_t t = (uintptr_t) (thr->task ? thr->task : (void *) thr);
  if (GOMP_UNLIKELY (gomp_cluster != NULL))
    t ^= (uintptr_t) gomp_cluster->rank << 48;
  return (void *) t;
}

static inline void
gomp_lock_acquire (gomp_mutex_t *m)
{
  if (GOMP_UNLIKELY (gomp_cluster != NULL))
    gomp_cluster_lock_acquire (m);
  else
    gomp_mutex_lock (m);
}

static inline void
gomp_lock_release (gomp_mutex_t *m)
{
  if (GOMP_UNLIKELY (gomp_cluster != NULL))
    gomp_cluster_lock_release (m);
  else
    gomp_mutex_unlock (m);
}

static inline bool
gomp_lock_try (gomp_mutex_t *m)
{
  if (GOMP_UNLIKELY (gomp_cluster != NULL))
    return gomp_cluster_lock_try (m);
  return gomp_mutex_trylock (m);
}

GOMP_EXPORT void
omp_init_lock (gomp_mutex_t *lock)
{
  gomp_mutex_init (lock);
}

GOMP_EXPORT void
omp_destroy_lock (gomp_mutex_t *lock)
{
}

GOMP_EXPORT void
omp_set_lock (gomp_mutex_t *lock)
{
  gomp_lock_acquire (lock);
}

GOMP_EXPORT void
omp_unset_lock (gomp_mutex_t *lock)
{
  gomp_lock_release (lock);
}

GOMP_EXPORT int
omp_test_lock (gomp_mutex_t *lock)
{
  return gomp_lock_try (lock);
}

GOMP_EXPORT void
omp_init_nest_lock (struct gomp_nest_lock *lock)
{
  gomp_mutex_init (&lock->lock);
  lock->count = 0;
  lock->owner = NULL;
}

GOMP_EXPORT void
omp_destroy_nest_lock (struct gomp_nest_lock *lock)
{
}

GOMP_EXPORT void
omp_set_nest_lock (struct gomp_nest_lock *lock)
{
  void *me = gomp_lock_owner ();
  if (__atomic_load_n (&lock->owner, __ATOMIC_RELAXED) != me)
    {
      gomp_lock_acquire (&lock->lock);
      __atomic_store_n (&lock->owner, me, __ATOMIC_RELAXED);
    }
  lock->count++;
}

GOMP_EXPORT void
omp_unset_nest_lock (struct gomp_nest_lock *lock)
{
  if (--lock->count == 0)
    {
      __atomic_store_n (&lock->owner, NULL, __ATOMIC_RELAXED);
      gomp_lock_release (&lock->lock);
    }
}

GOMP_EXPORT int
omp_test_nest_lock (struct gomp_nest_lock *lock)
{
  void *me = gomp_lock_owner ();
  if (__atomic_load_n (&lock->owner, __ATOMIC_RELAXED) == me)
    return ++lock->count;
  if (!gomp_lock_try (&lock->lock))
    return 0;
  __atomic_store_n (&lock->owner, me, __ATOMIC_RELAXED);
  lock->count = 1;
  return 1;
}
