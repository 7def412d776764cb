/* dsm-unit.c -- the DSM and the transport on their own, without the
   runtime: an MPI program linked with the module's dsm/ and transport
   objects (dsm.exp builds it with mpicc and runs it with mpiexec -n 2 and
   -n 3 under a time limit).  A test barrier does what the cluster's does:
   release, exchange every node's notices, acquire.

   Checks: initial data of the remapped globals region; remote read fault;
   write + release + acquire visibility; false sharing at disjoint bytes by
   every node; many threads faulting on one block (one fetch); atomics of
   every size at the home and from other nodes, mixed with plain writes to
   the same block (multiple writers); heap blocks freed on another node;
   a stack from gomp_dsm_stack_alloc whose locals other nodes read; a
   stencil with a checksum; a lock-style hand-off (notices of one node).
   Exits non-zero with a message on the first wrong value.  */

#define _GNU_SOURCE 1
#include "dsm/dsm-int.h"
#include "transport/transport.h"
#include "cluster.h"
#include <alloca.h>
#include <mpi.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

static int rank, nodes;
static MPI_Comm test_comm;

#define DSM_TEST_WHO() fprintf (stderr, "rank %d: ", rank)
#define DSM_TEST_END() MPI_Abort (MPI_COMM_WORLD, 1)
#include "dsm-test.h"

/* Completes REQ without burning the core the service threads need
   (mpich busy-polls in blocking calls).  */
static void
wait_req (MPI_Request *req)
{
  long ns = 1000;
  for (int spins = 0;; spins++)
    {
      int flag;
      MPI_Test (req, &flag, MPI_STATUS_IGNORE);
      if (flag)
	return;
      if (spins < 50)
	continue;
      struct timespec ts = { 0, ns };
      nanosleep (&ts, NULL);
      if (ns < 100000)
	ns *= 2;
    }
}

/* The blobs this node released since the last barrier (the cluster's
   notice log keeps them the same way: a barrier must give every node all
   of them).  */
static char *log_buf;
static size_t log_len;

static void
log_add (const void *blob, size_t len)
{
  log_buf = realloc (log_buf, log_len + len + 1);
  memcpy (log_buf + log_len, blob, len);
  log_len += len;
}

/* Release, all-gather the notices, acquire.  */
static void
barrier (void)
{
  void *blob;
  size_t blen = gomp_dsm_release (&blob);
  log_add (blob, blen);
  free (blob);
  void *mine = log_buf;
  size_t len = log_len;
  log_buf = NULL;
  log_len = 0;
  int l = len, *lens = malloc (nodes * sizeof (int)), *displ;
  MPI_Request rq;
  MPI_Iallgather (&l, 1, MPI_INT, lens, 1, MPI_INT, test_comm, &rq);
  wait_req (&rq);
  displ = malloc (nodes * sizeof (int));
  int total = 0;
  for (int i = 0; i < nodes; i++)
    {
      displ[i] = total;
      total += lens[i];
    }
  char *all = malloc (total + 1);
  MPI_Iallgatherv (mine, l, MPI_BYTE, all, lens, displ, MPI_BYTE, test_comm,
		   &rq);
  wait_req (&rq);
  const void **ptrs = malloc (nodes * sizeof *ptrs);
  size_t *szs = malloc (nodes * sizeof *szs);
  for (int i = 0; i < nodes; i++)
    {
      ptrs[i] = all + displ[i];
      szs[i] = lens[i];
    }
  gomp_dsm_acquire (ptrs, szs, nodes, false);
  free (mine);
  free (lens);
  free (displ);
  free (all);
  free (ptrs);
  free (szs);
}

/* Rank 0 gives every node a pointer (sent through MPI, a private
   buffer).  */
static void *
share_ptr (void *p)
{
  uint64_t v = (uintptr_t) p;
  MPI_Request rq;
  MPI_Ibcast (&v, 1, MPI_UINT64_T, 0, test_comm, &rq);
  wait_req (&rq);
  return (void *) (uintptr_t) v;
}

static void
test_globals (void)
{
  CHECK (gomp_dsm_contains (globals), "globals not in the DSM");
  CHECK (!strcmp (globals, "hello"), "initial data lost: '%s'", globals);
  barrier ();
  if (rank == 1)
    globals[8192] = 42;
  barrier ();
  CHECK (globals[8192] == 42, "global written by rank 1: %d",
	 globals[8192]);
  barrier ();
}

static void
test_visibility (void)
{
  size_t n = 256 * 1024;
  long *a = share_ptr (rank == 0 ? gomp_dsm_malloc (n * sizeof *a) : NULL);
  if (rank == 0)
    for (size_t i = 0; i < n; i++)
      a[i] = i * 3;
  barrier ();
  for (size_t i = 0; i < n; i += 7)
    CHECK (a[i] == (long) i * 3, "a[%zu] = %ld after remote read", i, a[i]);
  barrier ();
  /* Every node rewrites its part; everybody reads everything.  */
  for (size_t i = rank; i < n; i += nodes)
    a[i] = -(long) i;
  barrier ();
  for (size_t i = 0; i < n; i++)
    CHECK (a[i] == -(long) i, "a[%zu] = %ld after partitioned writes", i,
	   a[i]);
  barrier ();
  if (rank == 0)
    gomp_dsm_free (a);
}

static void
test_false_sharing (void)
{
  unsigned char *p = share_ptr (rank == 0 ? gomp_dsm_malloc (4096) : NULL);
  for (int round = 1; round <= 20; round++)
    {
      for (int i = rank; i < 4096; i += nodes)
	p[i] = (unsigned char) (i * 7 + round);
      barrier ();
      for (int i = 0; i < 4096; i++)
	CHECK (p[i] == (unsigned char) (i * 7 + round),
	       "round %d byte %d = %d", round, i, p[i]);
      barrier ();
    }
  if (rank == nodes - 1)
    gomp_dsm_free (p);		/* Another node's block for nodes > 1.  */
  barrier ();
}

static volatile long *many_page;
static pthread_barrier_t many_bar;

static void *
many_reader (void *arg)
{
  pthread_barrier_wait (&many_bar);
  long s = 0;
  for (int i = 0; i < 512; i++)
    s += many_page[i];
  return (void *) s;
}

static void
test_many_threads (void)
{
  long *p = share_ptr (rank == 0 ? gomp_dsm_malloc (4096) : NULL);
  if (rank == 0)
    for (int i = 0; i < 512; i++)
      p[i] = i;
  barrier ();
  many_page = p;
  uint64_t fetches = gomp_dsm.st.fetches;
  pthread_t t[8];
  pthread_barrier_init (&many_bar, NULL, 8);
  for (int i = 0; i < 8; i++)
    pthread_create (&t[i], NULL, many_reader, NULL);
  for (int i = 0; i < 8; i++)
    {
      void *r;
      pthread_join (t[i], &r);
      CHECK ((long) r == 511 * 512 / 2, "thread %d summed %ld", i, (long) r);
    }
  pthread_barrier_destroy (&many_bar);
  CHECK (gomp_dsm.st.fetches - fetches <= 1,
	 "%lu fetches of one block by 8 threads",
	 (unsigned long) (gomp_dsm.st.fetches - fetches));
  barrier ();
}

struct counters
{
  long l;
  int i;
  short s;
  char c;
  double d;
  unsigned __int128 w;
  long plain[64];		/* Plain writes in the same block.  */
};

static struct counters *ctr;

static void
add_double (double *p, double v)
{
  double old, nv;
  gomp_dsm_atomic (GOMP_CLUSTER_ATOMIC_LOAD, p, 8, NULL, NULL, &old, false,
		   5);
  do
    nv = old + v;
  while (!gomp_dsm_atomic (GOMP_CLUSTER_ATOMIC_CAS, p, 8, &nv, &old, NULL,
			   false, 5));
}

static void *
atomic_worker (void *arg)
{
  long one = 1;
  int ione = 1;
  short sone = 1;
  char cone = 1;
  unsigned __int128 wone = 1;
  for (int k = 0; k < 300; k++)
    {
      gomp_dsm_atomic (GOMP_CLUSTER_ATOMIC_ADD, &ctr->l, 8, &one, NULL, NULL,
		       false, 0);
      gomp_dsm_atomic (GOMP_CLUSTER_ATOMIC_ADD, &ctr->i, 4, &ione, NULL, NULL,
		       false, 0);
      gomp_dsm_atomic (GOMP_CLUSTER_ATOMIC_ADD, &ctr->s, 2, &sone, NULL, NULL,
		       false, 0);
      gomp_dsm_atomic (GOMP_CLUSTER_ATOMIC_XOR, &ctr->c, 1, &cone, NULL, NULL,
		       false, 0);
      gomp_dsm_atomic (GOMP_CLUSTER_ATOMIC_ADD, &ctr->w, 16, &wone, NULL,
		       NULL, false, 0);
      add_double (&ctr->d, 0.5);
    }
  return NULL;
}

static void
test_atomics (void)
{
  ctr = share_ptr (rank == 0 ? gomp_dsm_malloc (sizeof *ctr) : NULL);
  if (rank == 0)
    memset (ctr, 0, sizeof *ctr);
  barrier ();
  /* Plain writes by every node to the same block, then atomics.  */
  ctr->plain[rank] = rank + 100;
  pthread_t t[2];
  for (int i = 0; i < 2; i++)
    pthread_create (&t[i], NULL, atomic_worker, NULL);
  for (int i = 0; i < 2; i++)
    pthread_join (t[i], NULL);
  /* The node's own atomic is visible to it at once.  */
  long l;
  gomp_dsm_atomic (GOMP_CLUSTER_ATOMIC_LOAD, &ctr->l, 8, NULL, NULL, &l,
		   false, 5);
  CHECK (l >= 600, "own atomics not visible: %ld", l);
  barrier ();
  long total = 600L * nodes;
  CHECK (ctr->l == total, "long counter %ld, expected %ld", ctr->l, total);
  CHECK (ctr->i == total, "int counter %d", ctr->i);
  CHECK (ctr->s == (short) total, "short counter %d", ctr->s);
  CHECK (ctr->c == 0, "char xor %d", ctr->c);
  CHECK (ctr->w == (unsigned __int128) total, "16-byte counter wrong");
  CHECK (ctr->d == total * 0.5, "double counter %g", ctr->d);
  for (int r = 0; r < nodes; r++)
    CHECK (ctr->plain[r] == r + 100, "plain write of rank %d lost: %ld", r,
	   ctr->plain[r]);
  /* Exchange and CAS return the old value.  */
  barrier ();
  if (rank == nodes - 1)
    {
      long v = 7, old;
      gomp_dsm_atomic (GOMP_CLUSTER_ATOMIC_EXCHANGE, &ctr->l, 8, &v, NULL,
		       &old, false, 5);
      CHECK (old == total, "exchange returned %ld", old);
      long exp = 8, nv = 9;
      CHECK (!gomp_dsm_atomic (GOMP_CLUSTER_ATOMIC_CAS, &ctr->l, 8, &nv, &exp,
			       NULL, false, 5) && exp == 7,
	     "failed CAS: expected now %ld", exp);
      CHECK (ctr->l == 7, "plain read after own exchange: %ld", ctr->l);
    }
  barrier ();
  CHECK (ctr->l == 7, "after exchange: %ld", ctr->l);
  barrier ();
}

static void
test_heap (void)
{
  enum { N = 200 };
  void **ptrs = malloc (N * sizeof *ptrs);
  uint64_t v[N];
  /* Every node allocates, the next node frees.  */
  for (int round = 0; round < 3; round++)
    {
      for (int i = 0; i < N; i++)
	{
	  size_t sz = (i % 10 == 0) ? 100000 + i : 8 + i * 13;
	  ptrs[i] = gomp_dsm_malloc (sz);
	  CHECK (gomp_dsm_usable_size (ptrs[i]) >= sz, "usable size");
	  memset (ptrs[i], i, 8);
	  v[i] = (uintptr_t) ptrs[i];
	}
      uint64_t *all = malloc (N * nodes * 8);
      MPI_Request rq;
      MPI_Iallgather (v, N, MPI_UINT64_T, all, N, MPI_UINT64_T, test_comm,
		      &rq);
      wait_req (&rq);
      barrier ();
      int from = (rank + nodes - 1) % nodes;
      for (int i = 0; i < N; i++)
	{
	  unsigned char *p = (unsigned char *) (uintptr_t) all[from * N + i];
	  CHECK (p[0] == (unsigned char) i, "heap block %d of rank %d", i,
		 from);
	  if (i == 3)
	    CHECK (gomp_dsm_usable_size (p) >= 8 + 3 * 13,
		   "remote usable size");
	  gomp_dsm_free (p);
	}
      free (all);
      barrier ();
    }
  void *a = gomp_dsm_memalign (4096, 10);
  CHECK (((uintptr_t) a & 4095) == 0, "memalign 4096");
  void *b = gomp_dsm_memalign (1 << 16, 1 << 17);
  CHECK (((uintptr_t) b & 65535) == 0, "memalign 64K");
  char *c = gomp_dsm_realloc (NULL, 10);
  strcpy (c, "realloc");
  c = gomp_dsm_realloc (c, 100000);
  CHECK (!strcmp (c, "realloc"), "realloc lost data");
  gomp_dsm_free (a);
  gomp_dsm_free (b);
  gomp_dsm_free (c);
  void *lp = malloc (10);
  gomp_dsm_free (lp);		/* libc's pointer back to libc.  */
  free (ptrs);
}

static volatile int *stack_local;

static void *
stack_thread_body (void)
{
  int local[1024];
  for (int i = 0; i < 1024; i++)
    local[i] = i;
  stack_local = local;
  share_ptr (local);
  barrier ();
  barrier ();			/* Others read it (rank 1 caches it).  */
  /* Writing our own stack now faults (the home's copy is protected).  */
  for (int i = 0; i < 1024; i++)
    local[i] = 2 * i;
  barrier ();
  barrier ();
  return NULL;
}

static void *
stack_thread (void *arg)
{
  gomp_dsm_thread_init ();
  volatile char *skip = alloca (GOMP_DSM_STACK_PRIVATE);
  skip[0] = 0;
  return stack_thread_body ();
}

static void
test_stack (void)
{
  if (rank == 0)
    {
      size_t size = 1 << 20;
      void *st = gomp_dsm_pthread_stack_alloc (size);
      CHECK (gomp_dsm_contains (st), "stack not in the segment");
      pthread_attr_t attr;
      pthread_t t;
      pthread_attr_init (&attr);
      pthread_attr_setstack (&attr, st, size);
      pthread_create (&t, &attr, stack_thread, NULL);
      pthread_join (t, NULL);
      return;
    }
  int *local = share_ptr (NULL);
  barrier ();
  for (int i = 0; i < 1024; i++)
    CHECK (local[i] == i, "master's local %d = %d", i, local[i]);
  barrier ();
  barrier ();
  for (int i = 0; i < 1024; i++)
    CHECK (local[i] == 2 * i, "master's local %d = %d after write", i,
	   local[i]);
  barrier ();
}

static void
test_stencil (void)
{
  enum { R = 64, C = 512, IT = 30 };
  double *g = share_ptr (rank == 0 ? gomp_dsm_malloc (2 * R * C * 8) : NULL);
  double *ser = malloc (2 * R * C * 8);
  int lo = 1 + (R - 2) * rank / nodes, hi = 1 + (R - 2) * (rank + 1) / nodes;
  /* Each node initialises its rows (first touch), rank 0 the borders.  */
  for (int b = 0; b < 2; b++)
    for (int r = 0; r < R; r++)
      if ((r >= lo && r < hi) || (rank == 0 && (r == 0 || r == R - 1)))
	for (int c = 0; c < C; c++)
	  g[b * R * C + r * C + c] = (r == 0 || c == 0) ? 1.0 : 0.0;
  for (int b = 0; b < 2; b++)
    for (int r = 0; r < R; r++)
      for (int c = 0; c < C; c++)
	ser[b * R * C + r * C + c] = (r == 0 || c == 0) ? 1.0 : 0.0;
  barrier ();
  for (int it = 0; it < IT; it++)
    {
      double *src = g + (it & 1) * R * C, *dst = g + ((it + 1) & 1) * R * C;
      double *ss = ser + (it & 1) * R * C, *sd = ser + ((it + 1) & 1) * R * C;
      for (int r = lo; r < hi; r++)
	for (int c = 1; c < C - 1; c++)
	  dst[r * C + c] = 0.25 * (src[(r - 1) * C + c] + src[(r + 1) * C + c]
				   + src[r * C + c - 1] + src[r * C + c + 1]);
      for (int r = 1; r < R - 1; r++)
	for (int c = 1; c < C - 1; c++)
	  sd[r * C + c] = 0.25 * (ss[(r - 1) * C + c] + ss[(r + 1) * C + c]
				  + ss[r * C + c - 1] + ss[r * C + c + 1]);
      barrier ();
    }
  double sum = 0, ssum = 0;
  for (int i = 0; i < R * C; i++)
    {
      sum += g[(IT & 1) * R * C + i];
      ssum += ser[(IT & 1) * R * C + i];
    }
  CHECK (sum == ssum, "stencil checksum %.17g, serial %.17g", sum, ssum);
  free (ser);
  barrier ();
}

/* A token passed from node to node with only the holder's notices, like
   a lock: each holder increments a shared counter with plain code.  */
static void
test_handoff (void)
{
  long *cnt = share_ptr (rank == 0 ? gomp_dsm_malloc (64) : NULL);
  if (rank == 0)
    *cnt = 0;
  barrier ();
  for (int round = 0; round < 50; round++)
    for (int holder = 0; holder < nodes; holder++)
      {
	int next = (holder + 1) % nodes;
	if (rank == holder)
	  {
	    (*cnt)++;
	    void *n;
	    size_t len = gomp_dsm_release (&n);
	    log_add (n, len);
	    uint64_t l = len;
	    MPI_Request rq[2];
	    MPI_Isend (&l, 1, MPI_UINT64_T, next, 5, test_comm, &rq[0]);
	    MPI_Isend (n, len, MPI_BYTE, next, 6, test_comm, &rq[1]);
	    wait_req (&rq[0]);
	    wait_req (&rq[1]);
	    free (n);
	  }
	if (rank == next)
	  {
	    uint64_t l;
	    MPI_Request rq;
	    MPI_Irecv (&l, 1, MPI_UINT64_T, holder, 5, test_comm, &rq);
	    wait_req (&rq);
	    char *n = malloc (l + 1);
	    MPI_Irecv (n, l, MPI_BYTE, holder, 6, test_comm, &rq);
	    wait_req (&rq);
	    const void **slots = calloc (nodes, sizeof *slots);
	    size_t *lens = calloc (nodes, sizeof *lens);
	    slots[holder] = n;
	    lens[holder] = l;
	    gomp_dsm_acquire (slots, lens, nodes, false);
	    free (slots);
	    free (lens);
	    free (n);
	    CHECK (*cnt == round * nodes + holder + 1,
		   "counter %ld at round %d from %d", *cnt, round, holder);
	  }
      }
  barrier ();
  CHECK (*cnt == 50 * nodes, "final counter %ld", *cnt);
  barrier ();
}

/* Two threads per node keep writing their own slots of pages that every
   node writes (false sharing), while the third hands a token around with
   release/acquire: blocks in state WRITE get flushed and invalidated under
   the writers' feet.  Every slot must end with its owner's last value.  */
#define CONC_SLOTS 64
#define CONC_STRIDE 512
static long *conc;
static volatile int conc_stop;

static long
conc_final (int r, int t)
{
  return -1000 - 10 * r - t;
}

static void *
conc_writer (void *arg)
{
  int t = (int) (long) arg;
  long v = 0;
  while (!conc_stop)
    {
      v++;
      for (int k = 0; k < CONC_SLOTS; k++)
	conc[k * CONC_STRIDE + rank * 2 + t] = v;
    }
  for (int k = 0; k < CONC_SLOTS; k++)
    conc[k * CONC_STRIDE + rank * 2 + t] = conc_final (rank, t);
  return NULL;
}

static void
test_concurrent (void)
{
  conc = share_ptr (rank == 0
		    ? gomp_dsm_calloc (CONC_SLOTS * CONC_STRIDE, sizeof (long))
		    : NULL);
  barrier ();
  conc_stop = 0;
  pthread_t w[2];
  for (int t = 0; t < 2; t++)
    pthread_create (&w[t], NULL, conc_writer, (void *) (long) t);
  for (int round = 0; round < 30; round++)
    for (int holder = 0; holder < nodes; holder++)
      {
	int next = (holder + 1) % nodes;
	if (rank == holder)
	  {
	    void *n;
	    size_t len = gomp_dsm_release (&n);
	    log_add (n, len);
	    uint64_t l = len;
	    MPI_Request rq[2];
	    MPI_Isend (&l, 1, MPI_UINT64_T, next, 7, test_comm, &rq[0]);
	    MPI_Isend (n, len, MPI_BYTE, next, 8, test_comm, &rq[1]);
	    wait_req (&rq[0]);
	    wait_req (&rq[1]);
	    free (n);
	  }
	if (rank == next)
	  {
	    uint64_t l;
	    MPI_Request rq;
	    MPI_Irecv (&l, 1, MPI_UINT64_T, holder, 7, test_comm, &rq);
	    wait_req (&rq);
	    char *n = malloc (l + 1);
	    MPI_Irecv (n, l, MPI_BYTE, holder, 8, test_comm, &rq);
	    wait_req (&rq);
	    const void **slots = calloc (nodes, sizeof *slots);
	    size_t *lens = calloc (nodes, sizeof *lens);
	    slots[holder] = n;
	    lens[holder] = l;
	    gomp_dsm_acquire (slots, lens, nodes, false);
	    free (slots);
	    free (lens);
	    free (n);
	  }
      }
  conc_stop = 1;
  for (int t = 0; t < 2; t++)
    pthread_join (w[t], NULL);
  barrier ();
  for (int k = 0; k < CONC_SLOTS; k++)
    for (int r = 0; r < nodes; r++)
      for (int t = 0; t < 2; t++)
	CHECK (conc[k * CONC_STRIDE + r * 2 + t] == conc_final (r, t),
	       "slot %d of rank %d thread %d = %ld", k, r, t,
	       conc[k * CONC_STRIDE + r * 2 + t]);
  barrier ();
}

/* Round trips of remote atomics (printed, not checked: the machine may be
   loaded).  */
static void
test_latency (void)
{
  long *c = share_ptr (rank == 0 ? gomp_dsm_malloc (64) : NULL);
  if (rank == 0)
    *c = 0;
  barrier ();
  if (rank == 1)
    {
      long one = 1;
      double t0 = MPI_Wtime ();
      for (int i = 0; i < 2000; i++)
	gomp_dsm_atomic (GOMP_CLUSTER_ATOMIC_ADD, c, 8, &one, NULL, NULL,
			 false, 0);
      printf ("remote atomic round trip %.1f us\n",
	      (MPI_Wtime () - t0) / 2000 * 1e6);
    }
  if (rank == 0 && getenv ("LAT_SLEEP"))
    sleep (3);
  barrier ();
}

int
main (int argc, char **argv)
{
  int provided;
  MPI_Init_thread (&argc, &argv, MPI_THREAD_MULTIPLE, &provided);
  CHECK (provided == MPI_THREAD_MULTIPLE, "no MPI_THREAD_MULTIPLE");
  MPI_Comm_rank (MPI_COMM_WORLD, &rank);
  MPI_Comm_size (MPI_COMM_WORLD, &nodes);
  MPI_Comm_dup (MPI_COMM_WORLD, &test_comm);
  /* The runtime's defaults; dsm.exp sets OMPC_DSM_BLOCK and
     OMPC_DSM_HOME for one run.  */
  struct gomp_dsm_config cfg = {
    .segment_size = (size_t) 4 << 30, .stack_area = (size_t) 4 << 30,
    .block = 0, .home = HOME_FIRST_TOUCH, .prefetch = true, .eager = true,
    .migrate = true
  };
  const char *block = getenv ("OMPC_DSM_BLOCK");
  const char *home = getenv ("OMPC_DSM_HOME");
  if (block)
    cfg.block = strtoul (block, NULL, 10);
  if (home && !strcmp (home, "block"))
    cfg.home = HOME_BLOCK;
  else if (home && !strcmp (home, "cyclic"))
    cfg.home = HOME_CYCLIC;
  gomp_dsm_init (rank, nodes, &cfg);
  gomp_cl_transport_init ();
  const char *only = argc > 1 ? argv[1] : "";
#define RUN(t) if (!*only || strstr (only, #t)) { double t0 = MPI_Wtime (); \
    test_##t (); \
    if (rank == 0) printf ("ok %s %.3f s\n", #t, MPI_Wtime () - t0); \
    fflush (stdout); }
  RUN (latency);
  RUN (globals);
  RUN (visibility);
  RUN (false_sharing);
  RUN (many_threads);
  RUN (atomics);
  RUN (heap);
  RUN (stack);
  RUN (stencil);
  RUN (handoff);
  RUN (concurrent);
  if (getenv ("OMPC_STATS"))
    gomp_dsm_print_stats ();
  gomp_cl_transport_fini ();
  gomp_dsm_fini ();
  MPI_Finalize ();
  if (rank == 0)
    printf ("dsm-unit: all passed on %d nodes\n", nodes);
  return 0;
}
