/* atomic.c -- the plugin's atomics on shared memory.

   An atomic on a block homed here runs natively on the writable view (so
   it never faults) and, when it changed memory, adds a write notice: nodes
   that cache the block will invalidate it.  Elsewhere it runs at the home:
   the service thread executes it on the home's writable view and records
   the notice there; the requester records a notice too (its lock hand-offs
   must carry the write) and patches its own copy with the value now in
   memory -- in both its copy and its twin when it is writing the block
   (multiple writers), so its next diff does not send the old value back
   over the home's result.  Every atomic on a node goes through here, so a
   lock serialises the 16-byte ones.  */

#include "dsm-int.h"
#include <pthread.h>
#include <string.h>
#include <sys/mman.h>

struct atomic_req
{
  uint32_t op, size;
  uint64_t addr;
  unsigned char operand[16], expected[16];
  uint32_t op_fetch, pad;
};

struct atomic_reply
{
  uint32_t ok, changed;
  unsigned char result[16], expected[16], now[16];
};

static pthread_mutex_t wide_mutex = PTHREAD_MUTEX_INITIALIZER;

/* Computes the new value of an arithmetic op on SIZE-byte integers.  */
static uint64_t
arith (int op, uint64_t old, uint64_t v)
{
  switch (op)
    {
    case GOMP_CLUSTER_ATOMIC_ADD: return old + v;
    case GOMP_CLUSTER_ATOMIC_SUB: return old - v;
    case GOMP_CLUSTER_ATOMIC_AND: return old & v;
    case GOMP_CLUSTER_ATOMIC_OR: return old | v;
    case GOMP_CLUSTER_ATOMIC_XOR: return old ^ v;
    case GOMP_CLUSTER_ATOMIC_NAND: return ~(old & v);
    case GOMP_CLUSTER_ATOMIC_STORE:
    case GOMP_CLUSTER_ATOMIC_EXCHANGE: return v;
    default: return old;
    }
}

/* Atomic read and compare-exchange of 1, 2, 4 or 8 bytes at P.  */
static uint64_t
load_n (void *p, size_t size)
{
  switch (size)
    {
    case 1: return __atomic_load_n ((uint8_t *) p, __ATOMIC_SEQ_CST);
    case 2: return __atomic_load_n ((uint16_t *) p, __ATOMIC_SEQ_CST);
    case 4: return __atomic_load_n ((uint32_t *) p, __ATOMIC_SEQ_CST);
    default: return __atomic_load_n ((uint64_t *) p, __ATOMIC_SEQ_CST);
    }
}

static bool
cas_n (void *p, size_t size, uint64_t *old, uint64_t v)
{
  switch (size)
    {
    case 1:
      {
	uint8_t o = *old;
	bool r = __atomic_compare_exchange_n ((uint8_t *) p, &o, (uint8_t) v,
					      false, __ATOMIC_SEQ_CST,
					      __ATOMIC_SEQ_CST);
	*old = o;
	return r;
      }
    case 2:
      {
	uint16_t o = *old;
	bool r = __atomic_compare_exchange_n ((uint16_t *) p, &o,
					      (uint16_t) v, false,
					      __ATOMIC_SEQ_CST,
					      __ATOMIC_SEQ_CST);
	*old = o;
	return r;
      }
    case 4:
      {
	uint32_t o = *old;
	bool r = __atomic_compare_exchange_n ((uint32_t *) p, &o,
					      (uint32_t) v, false,
					      __ATOMIC_SEQ_CST,
					      __ATOMIC_SEQ_CST);
	*old = o;
	return r;
      }
    default:
      return __atomic_compare_exchange_n ((uint64_t *) p, old, v, false,
					  __ATOMIC_SEQ_CST, __ATOMIC_SEQ_CST);
    }
}

bool
gomp_dsm_atomic_exec (int op, void *p, size_t size, const void *operand,
		      void *expected, void *result, bool op_fetch,
		      bool *changed)
{
  *changed = false;
  if (size == 16)
    {
      /* Under the node's lock: every 16-byte atomic on it comes here.  */
      unsigned char old[16], nv[16];
      bool ok = true;
      pthread_mutex_lock (&wide_mutex);
      memcpy (old, p, 16);
      if (op == GOMP_CLUSTER_ATOMIC_LOAD)
	memcpy (nv, old, 16);
      else if (op == GOMP_CLUSTER_ATOMIC_CAS)
	{
	  ok = !memcmp (old, expected, 16);
	  memcpy (nv, ok ? operand : old, 16);
	  if (!ok)
	    memcpy (expected, old, 16);
	}
      else if (op == GOMP_CLUSTER_ATOMIC_STORE || op == GOMP_CLUSTER_ATOMIC_EXCHANGE)
	memcpy (nv, operand, 16);
      else
	{
	  unsigned __int128 a, b;
	  memcpy (&a, old, 16);
	  memcpy (&b, operand, 16);
	  switch (op)
	    {
	    case GOMP_CLUSTER_ATOMIC_ADD: a += b; break;
	    case GOMP_CLUSTER_ATOMIC_SUB: a -= b; break;
	    case GOMP_CLUSTER_ATOMIC_AND: a &= b; break;
	    case GOMP_CLUSTER_ATOMIC_OR: a |= b; break;
	    case GOMP_CLUSTER_ATOMIC_XOR: a ^= b; break;
	    default: a = ~(a & b); break;
	    }
	  memcpy (nv, &a, 16);
	}
      if (memcmp (nv, old, 16))
	{
	  memcpy (p, nv, 16);
	  *changed = true;
	}
      pthread_mutex_unlock (&wide_mutex);
      if (result)
	memcpy (result, op_fetch ? nv : old, 16);
      return ok;
    }
  if (size != 1 && size != 2 && size != 4 && size != 8)
    gomp_dsm_fatal ("atomic of %zu bytes is not supported", size);
  uint64_t v = 0, old = 0, nv;
  if (operand)
    memcpy (&v, operand, size);
  if (op == GOMP_CLUSTER_ATOMIC_LOAD)
    {
      old = load_n (p, size);
      if (result)
	memcpy (result, &old, size);
      return true;
    }
  if (op == GOMP_CLUSTER_ATOMIC_CAS)
    {
      memcpy (&old, expected, size);
      bool ok = cas_n (p, size, &old, v);
      if (!ok)
	memcpy (expected, &old, size);
      *changed = ok;
      if (result)
	memcpy (result, &old, size);
      return ok;
    }
  old = load_n (p, size);
  do
    nv = arith (op, old, v);
  while (!cas_n (p, size, &old, nv));
  *changed = nv != old || op == GOMP_CLUSTER_ATOMIC_STORE;
  if (result && op != GOMP_CLUSTER_ATOMIC_STORE)
    memcpy (result, op_fetch ? &nv : &old, size);
  return true;
}

/* The home's side (service thread).  */
static void
atomic_handler (int src, const void *msg, size_t len, uint64_t token)
{
  struct atomic_req rq;
  struct atomic_reply rp;
  memcpy (&rq, msg, sizeof rq);
  void *addr = (void *) (uintptr_t) rq.addr;
  uint32_t b = gomp_dsm_block (addr);
  if (b == UINT32_MAX)
    gomp_dsm_fatal ("rank %d sent an atomic for %p, outside the DSM", src,
		    addr);
  /* Busy: a local thread may be asking the manager for B's home, which
     is this node (or the manager's answer has not arrived yet).  */
  if ((__atomic_load_n (&gomp_dsm.home[b], __ATOMIC_ACQUIRE) < 0
       && gomp_dsm.policy == HOME_FIRST_TOUCH)
      || !gomp_dsm_trylock (b))
    {
      gomp_cl_defer ();
      return;
    }
  if (gomp_dsm.policy != HOME_FIRST_TOUCH)
    gomp_dsm_home (b);
  if (gomp_dsm.home[b] != gomp_dsm.rank)
    gomp_dsm_fatal ("rank %d sent an atomic for %p, not homed here", src,
		    addr);
  if (gomp_dsm_state (b) == BS_INVALID)
    {
      /* Homed here (a static placement) but never touched.  */
      gomp_dsm_protect (b, 1, PROT_READ | PROT_WRITE);
      gomp_dsm_set_state (b, BS_HOME_RW);
    }
  /* An atomic works on the latest value: the diffs this home received
     before it come first (stage.c).  */
  gomp_dsm_stage_apply (b);
  char *w = gomp_dsm_block_wview (b) + ((char *) addr - gomp_dsm_block_addr (b));
  bool changed;
  memset (&rp, 0, sizeof rp);
  memcpy (rp.expected, rq.expected, 16);
  rp.ok = gomp_dsm_atomic_exec (rq.op, w, rq.size, rq.operand, rp.expected,
				rp.result, rq.op_fetch, &changed);
  rp.changed = changed;
  memcpy (rp.now, w, rq.size);
  if (changed)
    {
      gomp_dsm_htwin_update (b, w - gomp_dsm_block_wview (b), rq.size);
      gomp_dsm_notice (b);
    }
  gomp_dsm_unlock (b);
  gomp_cl_reply (src, token, &rp, sizeof rp);
}

bool
gomp_dsm_atomic (int op, void *addr, size_t size, const void *operand,
		 void *expected, void *result, bool op_fetch, int memorder)
{
  bool changed, ok;
  uint32_t b = gomp_dsm_block (addr);
  if (b == UINT32_MAX || gomp_dsm_state (b) == BS_UNMANAGED)
    return gomp_dsm_atomic_exec (op, addr, size, operand, expected, result,
				 op_fetch, &changed);
  size_t off = (char *) addr - gomp_dsm_block_addr (b);
  if (off + size > gomp_dsm_block_len (b))
    gomp_dsm_fatal ("an atomic at %p of %zu bytes crosses a DSM block", addr,
		    size);
  gomp_dsm_lock (b);
  int h = gomp_dsm_home (b);
  if (h < 0)
    {
      gomp_dsm_unlock (b);
      gomp_dsm_wild (addr);
    }
  if (h == gomp_dsm.rank)
    {
      gomp_dsm_make_access (b, false);
      gomp_dsm_stage_apply (b);
      ok = gomp_dsm_atomic_exec (op, gomp_dsm_block_wview (b) + off, size,
				 operand, expected, result, op_fetch,
				 &changed);
      if (changed)
	{
	  gomp_dsm_htwin_update (b, off, size);
	  gomp_dsm_notice (b);
	}
      gomp_dsm_unlock (b);
      return ok;
    }
  struct atomic_req rq;
  struct atomic_reply rp;
  memset (&rq, 0, sizeof rq);
  rq.op = op;
  rq.size = size;
  rq.addr = (uintptr_t) addr;
  rq.op_fetch = op_fetch;
  if (operand)
    memcpy (rq.operand, operand, size);
  if (expected)
    memcpy (rq.expected, expected, size);
  gomp_cl_call (h, GOMP_CL_TAG_ATOMIC, &rq, sizeof rq, &rp, sizeof rp);
  DSM_STAT (remote_atomics, 1);
  uint32_t st = gomp_dsm_state (b);
  if (st == BS_READ || st == BS_WRITE || st == BS_PREFETCHED)
    {
      memcpy (gomp_dsm_block_wview (b) + off, rp.now, size);
      if (st == BS_WRITE)
	memcpy (gomp_dsm.twins + ((size_t) b << gomp_dsm.bshift) + off,
		rp.now, size);
    }
  if (rp.changed)
    gomp_dsm_notice (b);
  gomp_dsm_unlock (b);
  if (result)
    memcpy (result, rp.result, size);
  if (op == GOMP_CLUSTER_ATOMIC_CAS && !rp.ok)
    memcpy (expected, rp.expected, size);
  return rp.ok;
}

void
gomp_dsm_atomic_init (void)
{
  gomp_cl_register (GOMP_CL_TAG_ATOMIC, atomic_handler);
}
