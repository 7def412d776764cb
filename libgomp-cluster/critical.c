/* critical.c -- the critical construct (OpenMP 5.1 section 2.19.1),
   unnamed and named, and GOMP_atomic_start/end, which GCC uses for atomics
   it cannot do in hardware, and the cluster form of every lock.  With one
   node each is a futex mutex in the lock's word.  Across nodes that word
   may be in memory the DSM shares, so it is not touched: a node-local
   mutex found by the lock's address orders the node's threads, and the
   one that holds it takes the cluster module's lock of that address
   (cluster.h: the module sees one thread per node per lock).  */

#include "libgomp.h"
#include <stdlib.h>

static gomp_mutex_t gomp_critical_default_lock;
gomp_mutex_t gomp_atomic_lock;

/* The node-local mutexes of cluster locks: a hash table of pointers to
   entries that never move (threads sleep on their futex words).  */
struct gomp_node_lock
{
  void *key;
  gomp_mutex_t mutex;
};

static struct gomp_node_lock **gomp_node_locks;
static size_t gomp_node_locks_size, gomp_node_locks_used;
static gomp_mutex_t gomp_node_locks_lock;

static size_t
gomp_node_lock_hash (void *key, size_t size)
{
  uintptr_t k = (uintptr_t) key;
  k ^= k >> 17;
  k *= 0x9e3779b97f4a7c15ull;
  return (k >> 20) & (size - 1);
}

static void
gomp_node_locks_grow (void)
{
  size_t size = gomp_node_locks_size ? 2 * gomp_node_locks_size : 256;
  struct gomp_node_lock **t = calloc (size, sizeof *t);
  if (!t)
    gomp_fatal ("out of memory for the table of locks");
  for (size_t i = 0; i < gomp_node_locks_size; i++)
    if (gomp_node_locks[i])
      {
	size_t h = gomp_node_lock_hash (gomp_node_locks[i]->key, size);
	while (t[h])
	  h = (h + 1) & (size - 1);
	t[h] = gomp_node_locks[i];
      }
  free (gomp_node_locks);
  gomp_node_locks = t;
  gomp_node_locks_size = size;
}

static gomp_mutex_t *
gomp_node_mutex (void *key)
{
  gomp_mutex_lock (&gomp_node_locks_lock);
  if (2 * (gomp_node_locks_used + 1) > gomp_node_locks_size)
    gomp_node_locks_grow ();
  size_t h = gomp_node_lock_hash (key, gomp_node_locks_size);
  while (gomp_node_locks[h] && gomp_node_locks[h]->key != key)
    h = (h + 1) & (gomp_node_locks_size - 1);
  if (!gomp_node_locks[h])
    {
      struct gomp_node_lock *e = calloc (1, sizeof *e);
      if (!e)
	gomp_fatal ("out of memory for a lock");
      e->key = key;
      gomp_node_locks[h] = e;
      gomp_node_locks_used++;
    }
  gomp_mutex_t *m = &gomp_node_locks[h]->mutex;
  gomp_mutex_unlock (&gomp_node_locks_lock);
  return m;
}

void
gomp_cluster_lock_acquire (void *key)
{
  gomp_mutex_lock (gomp_node_mutex (key));
  gomp_cluster->lock (key);
}

void
gomp_cluster_lock_release (void *key)
{
  gomp_cluster->unlock (key);
  gomp_mutex_unlock (gomp_node_mutex (key));
}

bool
gomp_cluster_lock_try (void *key)
{
  gomp_mutex_t *m = gomp_node_mutex (key);
  if (!gomp_mutex_trylock (m))
    return false;
  if (gomp_cluster->try_lock (key))
    return true;
  gomp_mutex_unlock (m);
  return false;
}

static inline void
gomp_critical_lock (gomp_mutex_t *m)
{
  if (GOMP_UNLIKELY (gomp_cluster != NULL))
    gomp_cluster_lock_acquire (m);
  else
    gomp_mutex_lock (m);
}

static inline void
gomp_critical_unlock (gomp_mutex_t *m)
{
  if (GOMP_UNLIKELY (gomp_cluster != NULL))
    gomp_cluster_lock_release (m);
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
