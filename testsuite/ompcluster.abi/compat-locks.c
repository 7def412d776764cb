/* compat-locks.c -- the OpenMP 2.5 lock entry points (name@OMP_1.0) next to
   the current ones (name@@OMP_3.0): a plain call binds to the current
   version, the old versions exist with 2.5 semantics (an 8-byte nestable
   lock {owner, count}), and both kinds exclude each other's threads.

   ompc-compile: plain
   ompc-options: -ldl
   ompc-nodes: 1x2 1x4
   ompc-timeout: 60  */

#define _GNU_SOURCE 1
#include <dlfcn.h>
#include <omp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef struct { int owner; int count; } nest_lock_25;

typedef void (*lock_fn) (void *);
typedef int (*test_fn) (void *);

static int failures;

#define CHECK(cond) \
  ((cond) ? (void) 0 : (void) (failures++, fprintf (stderr, "%s:%d: %s\n", \
						    __FILE__, __LINE__, #cond)))

static void *
version (const char *name, const char *node)
{
  void *p = dlvsym (RTLD_DEFAULT, name, node);
  if (p == NULL)
    {
      fprintf (stderr, "missing %s@%s\n", name, node);
      exit (1);
    }
  return p;
}

static const char *const names[] = {
  "omp_init_lock", "omp_destroy_lock", "omp_set_lock", "omp_unset_lock",
  "omp_test_lock", "omp_init_nest_lock", "omp_destroy_nest_lock",
  "omp_set_nest_lock", "omp_unset_nest_lock", "omp_test_nest_lock"
};

int
main (void)
{
  /* Every routine, C and Fortran, has both versions; the plain name is
     the OMP_3.0 one; the 2.5 nestable-lock routines are other code.  */
  for (unsigned i = 0; i < sizeof names / sizeof names[0]; i++)
    {
      char f[64];
      snprintf (f, sizeof f, "%s_", names[i]);
      void *old = version (names[i], "OMP_1.0");
      void *cur = version (names[i], "OMP_3.0");
      version (f, "OMP_1.0");
      version (f, "OMP_3.0");
      CHECK (dlsym (RTLD_DEFAULT, names[i]) == cur);
      if (strstr (names[i], "nest"))
	CHECK (old != cur);
    }

  /* 2.5 nestable lock, single thread: the count is what test returns.  */
  lock_fn init = version ("omp_init_nest_lock", "OMP_1.0");
  lock_fn set = version ("omp_set_nest_lock", "OMP_1.0");
  lock_fn unset = version ("omp_unset_nest_lock", "OMP_1.0");
  test_fn test = version ("omp_test_nest_lock", "OMP_1.0");
  lock_fn destroy = version ("omp_destroy_nest_lock", "OMP_1.0");
  nest_lock_25 nl;
  memset (&nl, 0xff, sizeof nl);
  init (&nl);
  CHECK (nl.owner == 0 && nl.count == 0);
  set (&nl);
  set (&nl);
  CHECK (nl.owner != 0 && nl.count == 2);
  CHECK (test (&nl) == 3);
  unset (&nl);
  unset (&nl);
  unset (&nl);
  CHECK (nl.owner == 0 && nl.count == 0);

  /* The Fortran 2.5 routines work on the same object, by reference.  */
  lock_fn fset = version ("omp_set_nest_lock_", "OMP_1.0");
  lock_fn funset = version ("omp_unset_nest_lock_", "OMP_1.0");
  test_fn ftest = version ("omp_test_nest_lock_", "OMP_1.0");
  fset (&nl);
  CHECK (ftest (&nl) == 2);
  funset (&nl);
  funset (&nl);
  CHECK (nl.owner == 0);

  /* Threads: mutual exclusion with the 2.5 nestable lock (taken twice)
     and the 2.5 simple lock; another thread's test fails while held.  */
  lock_fn sinit = version ("omp_init_lock", "OMP_1.0");
  lock_fn sset = version ("omp_set_lock", "OMP_1.0");
  lock_fn sunset = version ("omp_unset_lock", "OMP_1.0");
  test_fn stest = version ("omp_test_lock", "OMP_1.0");
  lock_fn sdestroy = version ("omp_destroy_lock", "OMP_1.0");
  omp_lock_t sl;
  sinit (&sl);
  long n1 = 0, n2 = 0;
  int held_seen = 0, nthreads = 0;
  const int iters = 20000;
#pragma omp parallel shared (n1, n2, held_seen, nthreads)
  {
#pragma omp single
    nthreads = omp_get_num_threads ();
    for (int i = 0; i < iters; i++)
      {
	set (&nl);
	set (&nl);
	long v = n1;
	n1 = v + 1;
	unset (&nl);
	unset (&nl);
	sset (&sl);
	v = n2;
	n2 = v + 1;
	sunset (&sl);
      }
#pragma omp barrier
    if (omp_get_thread_num () == 0)
      set (&nl);
#pragma omp barrier
    if (omp_get_thread_num () == 1)
      held_seen = test (&nl) == 0;
#pragma omp barrier
    if (omp_get_thread_num () == 0)
      unset (&nl);
  }
  CHECK (n1 == (long) nthreads * iters);
  CHECK (n2 == (long) nthreads * iters);
  CHECK (nthreads < 2 || held_seen);
  CHECK (stest (&sl) == 1);
  sunset (&sl);
  sdestroy (&sl);
  destroy (&nl);

  if (failures)
    return 1;
  printf ("compat locks OK (%d threads)\n", nthreads);
  return 0;
}
