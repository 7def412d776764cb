/* dsm-loopback.c -- the DSM in one process without MPI, on the
   transport's loopback backend (transport/loopback/loopback.c): one node,
   every block homed here.  dsm.exp builds it with plain gcc from the
   module's dsm/ objects and the transport's MPI-free ones, and runs it.

   Checks: the remapped globals keep their initial data and take writes;
   the shared heap (malloc, calloc, realloc, memalign, usable size, free)
   inside the segment; a release and an acquire keep what this node wrote;
   atomics of 1 to 8 bytes at the home; a pthread on a stack from the
   segment; a second acquire with its own notices.  Exits non-zero with a
   message on the first wrong value.  */

#define _GNU_SOURCE 1
#include "dsm/dsm-int.h"
#include "transport/transport.h"
#include "cluster.h"
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define DSM_TEST_WHO() ((void) 0)
#define DSM_TEST_END() exit (1)
#include "dsm-test.h"

/* Release and acquire with this node's own notices, as a barrier of one
   node does.  */
static void
barrier (void)
{
  void *blob;
  size_t len = gomp_dsm_release (&blob);
  const void *blobs[1] = { blob };
  size_t lens[1] = { len };
  gomp_dsm_acquire (blobs, lens, 1, true);
  free (blob);
}

static void *
stack_thread (void *arg)
{
  gomp_dsm_thread_init ();
  int local[1024];
  for (int i = 0; i < 1024; i++)
    local[i] = i;
  CHECK (gomp_dsm_contains (local), "the thread's locals not shared");
  barrier ();
  for (int i = 0; i < 1024; i++)
    CHECK (local[i] == i, "local %d = %d", i, local[i]);
  *(long *) arg = local[1023];
  return NULL;
}

int
main (void)
{
  struct gomp_dsm_config cfg = {
    .segment_size = (size_t) 256 << 20, .stack_area = (size_t) 256 << 20,
    .block = 0, .home = HOME_FIRST_TOUCH, .prefetch = true, .eager = true,
    .migrate = true
  };
  gomp_dsm_init (0, 1, &cfg);
  gomp_cl_transport_init ();

  /* Globals.  */
  CHECK (gomp_dsm_contains (globals), "globals not in the segment");
  CHECK (strcmp (globals, "hello") == 0, "globals: '%s'", globals);
  strcpy (globals + 8192, "written");
  barrier ();
  CHECK (strcmp (globals + 8192, "written") == 0, "globals after barrier");

  /* Heap.  */
  enum { N = 100 };
  char *p[N];
  for (int i = 0; i < N; i++)
    {
      size_t sz = i % 10 == 0 ? 100000 + i : 8 + 13 * i;
      p[i] = gomp_dsm_malloc (sz);
      CHECK (p[i] && gomp_dsm_contains (p[i]), "malloc %d", i);
      CHECK (gomp_dsm_usable_size (p[i]) >= sz, "usable size %d", i);
      memset (p[i], i, sz);
    }
  barrier ();
  for (int i = 0; i < N; i++)
    CHECK (p[i][0] == (char) i && p[i][7] == (char) i, "block %d", i);
  int *z = gomp_dsm_calloc (1000, sizeof *z);
  for (int i = 0; i < 1000; i++)
    CHECK (z[i] == 0, "calloc %d", i);
  z = gomp_dsm_realloc (z, 100000 * sizeof *z);
  CHECK (z && gomp_dsm_contains (z), "realloc");
  for (int i = 0; i < 1000; i++)
    CHECK (z[i] == 0, "realloc kept %d", i);
  void *a = gomp_dsm_memalign (65536, 100);
  CHECK (a && ((uintptr_t) a & 65535) == 0, "memalign %p", a);
  for (int i = 0; i < N; i++)
    gomp_dsm_free (p[i]);
  gomp_dsm_free (z);
  gomp_dsm_free (a);

  /* Atomics at the home.  */
  uint64_t *w = gomp_dsm_malloc (64);
  memset (w, 0, 64);
  for (size_t size = 1; size <= 8; size *= 2)
    {
      uint64_t one = 1, old = 0;
      for (int i = 0; i < 10; i++)
	gomp_dsm_atomic (GOMP_CLUSTER_ATOMIC_ADD, w, size, &one, NULL, &old,
			 false, __ATOMIC_SEQ_CST);
      CHECK (old == 9, "fetch_add of %zu bytes returned %lu", size,
	     (unsigned long) old);
      uint64_t expected = 10, desired = 42;
      bool ok = gomp_dsm_atomic (GOMP_CLUSTER_ATOMIC_CAS, w, size, &desired,
				 &expected, &old, false, __ATOMIC_SEQ_CST);
      CHECK (ok, "cas of %zu bytes failed (saw %lu)", size,
	     (unsigned long) expected);
      barrier ();
      uint64_t v = 0;
      memcpy (&v, w, size);
      CHECK (v == 42, "atomic word of %zu bytes: %lu", size,
	     (unsigned long) v);
      memset (w, 0, 8);
    }
  gomp_dsm_free (w);

  /* A thread on a stack from the segment.  */
  size_t size = 1 << 20;
  void *st = gomp_dsm_pthread_stack_alloc (size);
  CHECK (gomp_dsm_contains (st), "stack not in the segment");
  pthread_attr_t attr;
  pthread_t t;
  long last = 0;
  pthread_attr_init (&attr);
  pthread_attr_setstack (&attr, st, size);
  CHECK (pthread_create (&t, &attr, stack_thread, &last) == 0,
	 "pthread_create");
  pthread_join (t, NULL);
  CHECK (last == 1023, "the thread's result %ld", last);

  barrier ();
  gomp_cl_transport_fini ();
  gomp_dsm_fini ();
  printf ("dsm-loopback: all passed\n");
  return 0;
}
