/* critical.c -- the critical construct (OpenMP 5.1 section 2.19.1),
   unnamed and named, and GOMP_atomic_start/end, which GCC uses for atomics
   it cannot do in hardware.  With one node each is a futex mutex; across
   nodes the cluster module's lock named by the mutex's address replaces it
   (the module hands the lock between a node's threads itself; the word in
   memory, which may be shared, is then not touched).  */

#include "libgomp.h"

static gomp_mutex_t gomp_critical_default_lock;
gomp_mutex_t gomp_atomic_lock;

static inline void
gomp_critical_lock (gomp_mutex_t *m)
{
  if (GOMP_UNLIKELY (gomp_cluster != NULL))
    gomp_cluster->lock (m);
  else
    gomp_mutex_lock (m);
}

static inline void
gomp_critical_unlock (gomp_mutex_t *m)
{
  if (GOMP_UNLIKELY (gomp_cluster != NULL))
    gomp_cluster->unlock (m);
  else
    gomp_mutex_unlock (m);
}

GOMP_EXPORT void
GOMP_critical_start (void)
{
  gomp_critical_lock (&gomp_critical_default_lock);
}

GOMP_EXPORT void
GOMP_critical_end (void)
{
  gomp_critical_unlock (&gomp_critical_default_lock);
}

/* PPTR is GCC's pointer-sized common variable .gomp_critical_user_NAME,
   zero at start: its first int is the mutex.  */
GOMP_EXPORT void
GOMP_critical_name_start (void **pptr)
{
  gomp_critical_lock ((gomp_mutex_t *) pptr);
}

GOMP_EXPORT void
GOMP_critical_name_end (void **pptr)
{
  gomp_critical_unlock ((gomp_mutex_t *) pptr);
}

GOMP_EXPORT void
GOMP_atomic_start (void)
{
  gomp_critical_lock (&gomp_atomic_lock);
}

GOMP_EXPORT void
GOMP_atomic_end (void)
{
  gomp_critical_unlock (&gomp_atomic_lock);
}
