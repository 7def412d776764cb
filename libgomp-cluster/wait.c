/* wait.c -- the slow paths of the futex mutex and semaphore of wait.h.  */

#include "libgomp.h"

/* A contended lock: spin while the holder may release it soon (as long as
   other waits spin, GOMP_SPINCOUNT), then mark the mutex contended (2) and
   sleep until it is handed back.  */
void
gomp_mutex_lock_slow (gomp_mutex_t *m)
{
  unsigned long n = gomp_spin_limit ();
  for (unsigned long i = 0; i < n; i++)
    {
      gomp_cpu_relax ();
      if (__atomic_load_n (m, __ATOMIC_RELAXED) == 0 && gomp_mutex_trylock (m))
	return;
    }
  while (__atomic_exchange_n (m, 2, __ATOMIC_ACQUIRE) != 0)
    gomp_futex_wait (m, 2);
}

void
gomp_sem_wait (gomp_sem_t *s)
{
  for (;;)
    {
      int v = __atomic_load_n (s, __ATOMIC_ACQUIRE);
      if (v > 0)
	{
	  if (__atomic_compare_exchange_n (s, &v, v - 1, false,
					   __ATOMIC_ACQUIRE, __ATOMIC_RELAXED))
	    return;
	  continue;
	}
      gomp_wait_while_equal (s, v);
    }
}

void
gomp_sem_post (gomp_sem_t *s)
{
  __atomic_add_fetch (s, 1, __ATOMIC_RELEASE);
  gomp_futex_wake (s, 1);
}
