/* fault.c -- the SIGSEGV handler, and making a block accessible for the
   access that faulted.

   The handler runs for faults inside the DSM's areas only; every other
   fault goes to the handler that was installed before (UCX installs one;
   gomp_dsm_init runs after MPI_Init so that ours comes last).  It runs on
   the thread's alternate signal stack (SA_ONSTACK; gomp_dsm_thread_init),
   reads the access type from bit 1 of the x86-64 error code, takes the
   block's lock (so that one thread per node fetches a block however many
   fault on it) and makes the block accessible: it may ask the block's
   manager for its home (first touch) and fetch the block from its home
   (fetch.c) with gomp_cl_call, whose wait polls MPI for the reply itself
   (or sleeps on a futex while another thread of the node drives MPI;
   see transport/call.c, "Signal context", for why MPI is safe there).
   Nothing else here calls MPI or takes a mutex, but the catch-up after
   a fetch (dsm.h, gomp_dsm_catch_up: a pull, cluster/pull.c).  A fault
   inside MPI (a thread whose stack is in the segment) is safe only when
   it needs no message: stacks are homed at their node and start
   writable there, and the service thread never holds a block lock while
   it calls MPI.  Code that runs with SIGSEGV blocked (glibc's
   pthread_create between its clone and its return, fork) dies on a
   protected block: stacks are therefore never protected at their home
   (release.c); the runtime's pthread_create interposer stores the
   thread id into shared memory itself.  A system call given an
   application-view address of a protected block fails with EFAULT
   instead of faulting: nothing in the module does that, and the
   runtime's interposers (libgomp-cluster/sys.h) hand the kernel private
   copies of the program's shared memory.  */

#include "dsm-int.h"
#include "report.h"
#include <errno.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <ucontext.h>
#include <unistd.h>

/* Home blocks (or cached copies, READ) one write fault opens at most.
   The number doubles along a sequential streak, so what it opens beyond
   the streak's end is at most what the streak used; the cap only bounds
   one mprotect.  */
#define WRITE_AHEAD_MAX GOMP_DSM_GET_MAX

/* How far below the faulting thread's stack pointer a fault on a guard
   page still counts as a stack overflow (a large frame is written from
   its bottom up); farther, it is a wild pointer.  */
#define STACK_OVERFLOW_REACH (256UL << 10)

static struct sigaction old_sa;
static int dsm_finished;

/* The last home block opened by a write fault on a block that others
   cache, and the length of the current sequential streak of such faults
   (shared by the node's threads; races only make the guess worse).  */
static uint32_t home_last = UINT32_MAX - 1, home_streak = 1;
/* The same for write faults on cached copies (READ) of other nodes'
   blocks.  */
static uint32_t copy_last = UINT32_MAX - 1, copy_streak = 1;

/* This thread's fault fetched a block (whose label may ask for a
   catch-up, dsm.h), or found one it must catch up for first.  */
static __thread bool fault_fetched;

const uint64_t *gomp_dsm_seen;

/* True when a label this node received is newer than what it acquired
   from that node (dsm.h).  Signal-safe.  */
bool
gomp_dsm_behind (void)
{
  if (!gomp_dsm_seen || !gomp_dsm_catch_up)
    return false;
  for (int r = 0; r < gomp_dsm.nodes; r++)
    if (r != gomp_dsm.rank
	&& __atomic_load_n (&gomp_dsm_need[r], __ATOMIC_ACQUIRE)
	   > __atomic_load_n (&gomp_dsm_seen[r], __ATOMIC_ACQUIRE))
      return true;
  return false;
}

/* A fault on a PREFETCHED block B (the caller holds its lock): this node
   uses what the last acquire prefetched, so the whole run of PREFETCHED
   blocks around B becomes readable in one mprotect, with no message, and
   counts as used (the next acquire that invalidates it prefetches it
   again).  */
static void
open_prefetched (uint32_t b, bool write)
{
  uint32_t lo = b, hi = b;
  size_t bs = gomp_dsm.bsize;
  if (gomp_dsm_block_len (b) == bs)
    {
      while (lo > 0 && b - lo < GOMP_DSM_GET_MAX
	     && gomp_dsm_block_len (lo - 1) == bs
	     && gomp_dsm_block_addr (lo - 1) + bs == gomp_dsm_block_addr (lo)
	     && gomp_dsm_state (lo - 1) == BS_PREFETCHED
	     && gomp_dsm_trylock (lo - 1))
	if (gomp_dsm_state (lo - 1) == BS_PREFETCHED)
	  lo--;
	else
	  {
	    gomp_dsm_unlock (lo - 1);
	    break;
	  }
      while (hi + 1 < gomp_dsm.nblocks && hi - b < GOMP_DSM_GET_MAX
	     && gomp_dsm_block_len (hi + 1) == bs
	     && gomp_dsm_block_addr (hi) + bs == gomp_dsm_block_addr (hi + 1)
	     && gomp_dsm_state (hi + 1) == BS_PREFETCHED
	     && gomp_dsm_trylock (hi + 1))
	if (gomp_dsm_state (hi + 1) == BS_PREFETCHED)
	  hi++;
	else
	  {
	    gomp_dsm_unlock (hi + 1);
	    break;
	  }
    }
  /* Opened by a write: the run was used, and is prefetched, because this
     node wrote it; expect the same writes again and make every block of
     it writable with its twin now (a twin costs less than a fault, and a
     block left unchanged sends no diff and no notice).  */
  uint32_t state = write ? BS_WRITE : BS_READ;
  for (uint32_t c = lo; write && c <= hi; c++)
    {
      memcpy (gomp_dsm.twins + ((size_t) c << gomp_dsm.bshift),
	      gomp_dsm_block_wview (c), gomp_dsm_block_len (c));
      gomp_dsm_list_add (&gomp_dsm.dirty, c);
    }
  gomp_dsm_protect (lo, hi - lo + 1,
		    write ? PROT_READ | PROT_WRITE : PROT_READ);
  for (uint32_t c = lo; c <= hi; c++)
    {
      gomp_dsm_mark_used (c);
      gomp_dsm_set_state (c, state);
      if (c != b)
	gomp_dsm_unlock (c);
    }
  DSM_STAT (prefetch_opens, 1);
}

/* Makes the N blocks from B (of LEN bytes each, consecutive, not homed
   here, locked) writable for a write: each gets its twin and goes on
   the dirty list, then one mprotect; all but B are unlocked.  */
static void
open_written (uint32_t b, uint32_t n, size_t len)
{
  for (uint32_t i = 0; i < n; i++)
    {
      memcpy (gomp_dsm.twins + ((size_t) (b + i) << gomp_dsm.bshift),
	      gomp_dsm_block_wview (b + i), len);
      gomp_dsm_list_add (&gomp_dsm.dirty, b + i);
    }
  gomp_dsm_protect (b, n, PROT_READ | PROT_WRITE);
  for (uint32_t i = 0; i < n; i++)
    {
      gomp_dsm_set_state (b + i, BS_WRITE);
      if (i)
	gomp_dsm_unlock (b + i);
    }
}

bool
gomp_dsm_make_access (uint32_t b, bool write)
{
  uint32_t st = gomp_dsm_state (b);
  if (st == BS_HOME_RW || st == BS_WRITE
      || (!write && (st == BS_READ || st == BS_HOME_RO)))
    return true;
  int h = gomp_dsm_home (b);
  if (h < 0)
    return false;
  if (h == gomp_dsm.rank)
    {
      uint32_t n = 1;
      if (st == BS_HOME_RO)
	{
	  /* Others cache it: this write must reach them as a notice.  A
	     node writing its home blocks in sequence (a loop over its part
	     of an array) opens the cached blocks after it at once, each
	     with its twin: fewer faults and mprotects.  Only B is noticed
	     now; the release compares the others with their twins and
	     announces those written (release.c, snapshot_home).  Noticed
	     unwritten, blocks past the end of this node's part (the next
	     node's, homed here by a serial first touch) would invalidate
	     that node's copies at every barrier and name this node a
	     writer, which keeps them from moving to their only writer
	     (migrate.c).  */
	  DSM_STAT (home_faults, 1);
	  /* Its twin dropped for being left unchanged (release.c): how
	     long the next stays depends on how soon this write came.  */
	  uint32_t v = __atomic_load_n (&gomp_dsm.meta[b], __ATOMIC_RELAXED);
	  while ((v & M_EXPIRED)
		 && !__atomic_compare_exchange_n
		      (&gomp_dsm.meta[b], &v, gomp_dsm_rewritten (b, v), true,
		       __ATOMIC_RELAXED, __ATOMIC_RELAXED))
	    ;
	  uint32_t want = 1;
	  if (b == __atomic_load_n (&home_last, __ATOMIC_RELAXED) + 1)
	    {
	      want = __atomic_load_n (&home_streak, __ATOMIC_RELAXED) * 2;
	      if (want > WRITE_AHEAD_MAX)
		want = WRITE_AHEAD_MAX;
	    }
	  size_t len = gomp_dsm_block_len (b);
	  char *a = gomp_dsm_block_addr (b);
	  for (uint32_t c = b + 1; n < want && c < gomp_dsm.nblocks; c++, n++)
	    if (gomp_dsm_block_addr (c) != a + (size_t) n * len
		|| gomp_dsm_block_len (c) != len
		|| __atomic_load_n (&gomp_dsm.home[c], __ATOMIC_ACQUIRE)
		   != gomp_dsm.rank
		|| gomp_dsm_state (c) != BS_HOME_RO || !gomp_dsm_trylock (c))
	      break;
	    else if (gomp_dsm_state (c) != BS_HOME_RO)
	      {
		gomp_dsm_unlock (c);
		break;
	      }
	  for (uint32_t i = 0; i < n; i++)
	    gomp_dsm_htwin_make (b + i);
	  gomp_dsm_notice (b);
	  __atomic_store_n (&home_streak, n < want ? 1 : want, __ATOMIC_RELAXED);
	  __atomic_store_n (&home_last, b + n - 1, __ATOMIC_RELAXED);
	}
      else if (st != BS_INVALID)
	gomp_dsm_fatal_sig ("internal error: bad state of a home block", 0);
      /* A first touch: the untouched blocks after it that are homed here
	 too (claimed in sequence) become accessible with it.  */
      if (st == BS_INVALID)
	{
	  size_t len = gomp_dsm_block_len (b);
	  char *a = gomp_dsm_block_addr (b);
	  for (uint32_t c = b + 1; n < MANAGER_GROUP && c < gomp_dsm.nblocks;
	       c++, n++)
	    if (gomp_dsm_block_addr (c) != a + (size_t) n * len
		|| gomp_dsm_block_len (c) != len
		|| (gomp_dsm.policy == HOME_FIRST_TOUCH
		    ? __atomic_load_n (&gomp_dsm.home[c], __ATOMIC_ACQUIRE)
		    : gomp_dsm_home (c)) != gomp_dsm.rank
		|| gomp_dsm_state (c) != BS_INVALID || !gomp_dsm_trylock (c))
	      break;
	    else if (gomp_dsm_state (c) != BS_INVALID)
	      {
		gomp_dsm_unlock (c);
		break;
	      }
	}
      gomp_dsm_protect (b, n, PROT_READ | PROT_WRITE);
      for (uint32_t i = 0; i < n; i++)
	gomp_dsm_set_state (b + i, BS_HOME_RW);
      if (n > 1)
	gomp_dsm_touch_extend (b, b + n - 1);
      for (uint32_t i = 1; i < n; i++)
	gomp_dsm_unlock (b + i);
      return true;
    }
  size_t len = gomp_dsm_block_len (b);
  if (st == BS_PREFETCHED)
    {
      /* Prefetched by another thread's acquire, or fetched by a fault,
	 with a label this node has not caught up with yet (the label is
	 recorded before the block becomes PREFETCHED): this thread
	 catches up first, and the access faults again.  */
      if (!gomp_dsm_in_catch_up && !gomp_dsm_stack_block (b)
	  && gomp_dsm_behind ())
	{
	  fault_fetched = true;
	  return true;
	}
      open_prefetched (b, write);
      return true;
    }
  else if (st == BS_INVALID)
    {
      fault_fetched = true;
      uint32_t got = gomp_dsm_fetch (b, h, len, write);
      if (got == 0)
	return false;
      if (!gomp_dsm_in_catch_up && !gomp_dsm_stack_block (b)
	  && gomp_dsm_behind ())
	{
	  /* Newer than what this node acquired: inaccessible, as if
	     prefetched, until this thread caught up (the fault handler);
	     the access then faults again and opens them.  Another thread
	     that touches them first catches up itself (above): made
	     readable now, they could show it a flag before the
	     invalidation of its data.  */
	  for (uint32_t i = 0; i < got; i++)
	    {
	      gomp_dsm_set_state (b + i, BS_PREFETCHED);
	      if (i)
		gomp_dsm_unlock (b + i);
	    }
	  return true;
	}
      if (!write)
	{
	  gomp_dsm_protect (b, got, PROT_READ);
	  for (uint32_t i = 0; i < got; i++)
	    gomp_dsm_set_state (b + i, BS_READ);
	  for (uint32_t i = 1; i < got; i++)
	    gomp_dsm_unlock (b + i);
	  return true;
	}
      if (got > 1)
	{
	  /* Fetched ahead for a write (a sequential one, or a scatter):
	     the blocks after B will most likely be written too, so they
	     all become writable with their twins now, as a prefetched
	     run opened by a write does; a block left unchanged sends no
	     diff, and counts as used only once a release finds it
	     changed (release.c).  IS at 2 x 1, first sort: ~2000 write
	     faults less per node.  */
	  open_written (b, got, len);
	  return true;
	}
    }
  /* First write since the last release: keep a twin for the diff.  A
     block that went READ for being left unchanged (M_EXPIRED) is
     written again: how long it stays writable next time depends on how
     soon (release.c).  */
  uint32_t n = 1;
  if (st == BS_READ)
    {
      uint32_t v = __atomic_load_n (&gomp_dsm.meta[b], __ATOMIC_RELAXED);
      while (!__atomic_compare_exchange_n (&gomp_dsm.meta[b], &v,
					   gomp_dsm_rewritten (b, v) | M_USED,
					   true, __ATOMIC_RELAXED,
					   __ATOMIC_RELAXED))
	;
      /* A thread writing through cached copies in sequence (NPB IS adds
	 its counts to a shared array in a critical section, FT writes
	 back its rows) opens the READ blocks after them at once, each
	 with its twin, as a node writing its home blocks does (above):
	 one fault and one mprotect for a run.  A block opened and left
	 unchanged sends no diff and no notice, and counts as used only
	 once a release finds it changed (release.c).  */
      uint32_t want = 1;
      if (b == __atomic_load_n (&copy_last, __ATOMIC_RELAXED) + 1)
	{
	  want = __atomic_load_n (&copy_streak, __ATOMIC_RELAXED) * 2;
	  if (want > WRITE_AHEAD_MAX)
	    want = WRITE_AHEAD_MAX;
	}
      char *a = gomp_dsm_block_addr (b);
      for (uint32_t c = b + 1; n < want && c < gomp_dsm.nblocks; c++, n++)
	if (gomp_dsm_block_addr (c) != a + (size_t) n * len
	    || gomp_dsm_block_len (c) != len
	    || gomp_dsm_block_wview (c)
	       != gomp_dsm_block_wview (b) + (size_t) n * len
	    || __atomic_load_n (&gomp_dsm.home[c], __ATOMIC_ACQUIRE)
	       == gomp_dsm.rank
	    || gomp_dsm_state (c) != BS_READ || !gomp_dsm_trylock (c))
	  break;
	else if (gomp_dsm_state (c) != BS_READ)
	  {
	    gomp_dsm_unlock (c);
	    break;
	  }
      __atomic_store_n (&copy_streak, n < want ? 1 : want, __ATOMIC_RELAXED);
      __atomic_store_n (&copy_last, b + n - 1, __ATOMIC_RELAXED);
    }
  open_written (b, n, len);
  return true;
}

static void
chain (int sig, siginfo_t *si, void *ctx)
{
  if (old_sa.sa_flags & SA_SIGINFO)
    old_sa.sa_sigaction (sig, si, ctx);
  else if (old_sa.sa_handler == SIG_DFL || old_sa.sa_handler == SIG_IGN)
    {
      /* Let the fault happen again with the default action.  */
      struct sigaction d;
      memset (&d, 0, sizeof d);
      sigemptyset (&d.sa_mask);
      d.sa_handler = SIG_DFL;
      sigaction (SIGSEGV, &d, NULL);
    }
  else
    old_sa.sa_handler (sig);
}

/* dsm.h; read by gomp_dsm_protect and below.  */
int gomp_dsm_stack_prot;

void (*gomp_dsm_catch_up) (bool in_fault);
/* A fault inside the catch-up (its acquire touches no program memory,
   but a prefetch reply might): no catch-up again.  */
__thread bool gomp_dsm_in_catch_up;

/* gomp_dsm_fault_time: what the faults below took on this thread, less
   their waits for answers (counted by gomp_cl_thread_wait_ns).  */
static __thread uint64_t fault_ns;

uint64_t
gomp_dsm_fault_time (void)
{
  return fault_ns;
}

static void
fault_handler (int sig, siginfo_t *si, void *ctx)
{
  int saved = errno;
  uint32_t b = gomp_dsm_block (si->si_addr);
  ucontext_t *uc = ctx;
  if (b != UINT32_MAX && gomp_dsm_state (b) == BS_UNMANAGED)
    {
      /* A guard page (private stack tops never fault): an overflow when
	 the faulting thread's stack pointer is next to the address.  */
      uintptr_t a = (uintptr_t) si->si_addr;
      uintptr_t sp = uc->uc_mcontext.gregs[REG_RSP];
      if (a < sp + 4096 && a + STACK_OVERFLOW_REACH >= sp)
	gomp_dsm_fatal_sig ("a thread overflowed its stack in the shared "
			    "segment (it hit the guard page); raise "
			    "OMP_STACKSIZE or the stack limit", 0);
      gomp_dsm_wild (si->si_addr);
    }
  if (b == UINT32_MAX)
    {
      chain (sig, si, ctx);
      errno = saved;
      return;
    }
  if (__atomic_load_n (&dsm_finished, __ATOMIC_ACQUIRE))
    {
      /* After the shutdown (an exit handler, a destructor): no messages
	 any more; give the node's local copy rather than hang.  */
      if (__atomic_exchange_n (&dsm_finished, 2, __ATOMIC_ACQ_REL) == 1)
	gomp_cl_say ("ompcluster: warning: shared memory touched after the "
		     "cluster shut down; its contents may be stale\n");
      gomp_dsm_protect (b, 1, PROT_READ | PROT_WRITE);
      errno = saved;
      return;
    }
  /* Bit 4 of the error code: an instruction fetch, which no protection
     the DSM gives allows outside an executable stack area.  */
  if ((uc->uc_mcontext.gregs[REG_ERR] & 16)
      && !(gomp_dsm_stack_prot && gomp_dsm_stack_block (b)))
    gomp_dsm_fatal_sig ("not supported: code executed from the shared "
			"segment (a nested function's trampoline on a "
			"thread stack, in a program linked without an "
			"executable stack: drop -z noexecstack)", 0);
  bool write = (uc->uc_mcontext.gregs[REG_ERR] & 2) != 0;
  long t0 = gomp_cl_now_ns ();
  uint64_t waited0 = gomp_cl_thread_wait_ns ();
  if (write)
    DSM_STAT (write_faults, 1);
  else
    DSM_STAT (read_faults, 1);
  gomp_dsm_report_fault (b, write);
  /* The first touch of a block on this node: what this node knows
     holds nothing is a wild access; what another node knows, its
     answer tells (make_access).  */
  if (__atomic_load_n (&gomp_dsm.home[b], __ATOMIC_ACQUIRE) < 0
      && !gomp_dsm_allocated_here (b))
    gomp_dsm_wild (si->si_addr);
  fault_fetched = false;
  gomp_dsm_lock (b);
  bool ok = gomp_dsm_make_access (b, write);
  gomp_dsm_unlock (b);
  if (!ok)
    gomp_dsm_wild (si->si_addr);
  /* What the fetch brought may be newer than what this node acquired
     from its home (dsm.h): acquire that first.  Should B be invalidated
     by it, the access faults again.  Only after a fetch: a fault that
     needs no message (one inside MPI, on a stack) sends none.  */
  if (fault_fetched && gomp_dsm_catch_up && !gomp_dsm_in_catch_up)
    {
      fault_fetched = false;
      gomp_dsm_in_catch_up = true;
      gomp_dsm_catch_up (true);
      gomp_dsm_in_catch_up = false;
    }
  fault_ns += gomp_cl_now_ns () - t0
	      - (gomp_cl_thread_wait_ns () - waited0);
  errno = saved;
}

/* Called by gomp_dsm_fini, after the transport stopped.  */
void
gomp_dsm_fault_fini (void)
{
  __atomic_store_n (&dsm_finished, 1, __ATOMIC_RELEASE);
}

void
gomp_dsm_fault_init (void)
{
  struct sigaction sa;
  memset (&sa, 0, sizeof sa);
  sigemptyset (&sa.sa_mask);
  sa.sa_sigaction = fault_handler;
  sa.sa_flags = SA_SIGINFO | SA_ONSTACK | SA_RESTART;
  if (sigaction (SIGSEGV, &sa, &old_sa) != 0)
    gomp_dsm_fatal ("cannot install the SIGSEGV handler: %s",
		    strerror (errno));
  gomp_dsm_home_init ();
}
