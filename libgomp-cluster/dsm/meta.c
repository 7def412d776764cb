/* meta.c -- a block's META word (dsm-int.h): its lock, its state, its
   write notice mark and its eager level.  Everything here is lock-free
   (atomics, and a futex for a lock's waiters) and signal-safe: the fault
   handler, the service thread's handlers and the releases and acquires
   all use it.  */

#include "dsm-int.h"
#include <limits.h>
#include "config/linux/futex.h"

void
gomp_dsm_lock (uint32_t b)
{
  uint32_t *m = &gomp_dsm.meta[b];
  uint32_t v = __atomic_load_n (m, __ATOMIC_RELAXED);
  int spins = 0;
  for (;;)
    {
      if (!(v & M_LOCK))
	{
	  if (__atomic_compare_exchange_n (m, &v, v | M_LOCK, true,
					   __ATOMIC_ACQUIRE, __ATOMIC_RELAXED))
	    return;
	  continue;
	}
      if (spins++ < 100)
	{
	  __builtin_ia32_pause ();
	  v = __atomic_load_n (m, __ATOMIC_RELAXED);
	  continue;
	}
      if (!(v & M_WAITERS)
	  && !__atomic_compare_exchange_n (m, &v, v | M_WAITERS, true,
					   __ATOMIC_RELAXED, __ATOMIC_RELAXED))
	continue;
      gomp_futex_wait (m, v | M_WAITERS);
      v = __atomic_load_n (m, __ATOMIC_RELAXED);
    }
}

bool
gomp_dsm_trylock (uint32_t b)
{
  uint32_t *m = &gomp_dsm.meta[b];
  uint32_t v = __atomic_load_n (m, __ATOMIC_RELAXED);
  while (!(v & M_LOCK))
    if (__atomic_compare_exchange_n (m, &v, v | M_LOCK, true,
				     __ATOMIC_ACQUIRE, __ATOMIC_RELAXED))
      return true;
  return false;
}

void
gomp_dsm_unlock (uint32_t b)
{
  uint32_t v = __atomic_fetch_and (&gomp_dsm.meta[b], ~(M_LOCK | M_WAITERS),
				   __ATOMIC_RELEASE);
  if (v & M_WAITERS)
    gomp_futex_wake (&gomp_dsm.meta[b], INT_MAX);
}

void
gomp_dsm_set_state (uint32_t b, uint32_t state)
{
  uint32_t v = __atomic_load_n (&gomp_dsm.meta[b], __ATOMIC_RELAXED);
  while (!__atomic_compare_exchange_n (&gomp_dsm.meta[b], &v,
				       (v & ~M_STATE) | state, true,
				       __ATOMIC_RELEASE, __ATOMIC_RELAXED))
    ;
}

/* Adds B to this node's write notices, once per list generation.  If a
   release takes the list between our reading of the generation and the
   append, B lands in the newer list while its mark names the older one:
   a later call appends it again (a harmless duplicate), never misses it.  */
void
gomp_dsm_notice (uint32_t b)
{
  uint32_t g = gomp_dsm_notice_gen () << M_GEN_SHIFT;
  uint32_t v = __atomic_load_n (&gomp_dsm.meta[b], __ATOMIC_ACQUIRE);
  do
    if ((v & M_NOTICED) && (v & M_GEN) == g)
      return;
  while (!__atomic_compare_exchange_n (&gomp_dsm.meta[b], &v,
				       (v & ~M_GEN) | M_NOTICED | g, true,
				       __ATOMIC_ACQ_REL, __ATOMIC_ACQUIRE));
  gomp_dsm_list_add (&gomp_dsm.notices, b);
}

bool
gomp_dsm_noticed (uint32_t b)
{
  uint32_t v = __atomic_load_n (&gomp_dsm.meta[b], __ATOMIC_ACQUIRE);
  return ((v & M_NOTICED)
	  && (v & M_GEN) == gomp_dsm_notice_gen () << M_GEN_SHIFT);
}

/* Clears the mark unless it names the generation after GEN: a mark of
   an older generation is stale too (a notice that landed in a newer
   list than its mark says, see gomp_dsm_notice), and must not survive
   until the 8-bit generation comes round again and makes an unwritten
   block look written.  */
bool
gomp_dsm_unnotice (uint32_t b, uint32_t gen)
{
  uint32_t next = ((gen + 1) << M_GEN_SHIFT) & M_GEN;
  uint32_t v = __atomic_load_n (&gomp_dsm.meta[b], __ATOMIC_ACQUIRE);
  while ((v & M_NOTICED) && (v & M_GEN) != next)
    if (__atomic_compare_exchange_n (&gomp_dsm.meta[b], &v, v & ~M_NOTICED,
				     true, __ATOMIC_ACQ_REL, __ATOMIC_ACQUIRE))
      return true;
  return false;
}

void
gomp_dsm_mark_used (uint32_t b)
{
  uint32_t v = __atomic_load_n (&gomp_dsm.meta[b], __ATOMIC_RELAXED), nv;
  do
    {
      uint32_t lvl = (v & M_LVL) >> M_LVL_SHIFT;
      if (lvl < EAGER_LVL_MAX)
	lvl++;
      nv = (v & ~(M_LVL | M_LEFT)) | M_USED | (lvl << M_LVL_SHIFT)
	   | (((1u << lvl) - 1) << M_LEFT_SHIFT);
    }
  while (!__atomic_compare_exchange_n (&gomp_dsm.meta[b], &v, nv, true,
				       __ATOMIC_ACQ_REL, __ATOMIC_RELAXED));
}
