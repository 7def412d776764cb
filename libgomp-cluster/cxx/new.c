/* cxx/new.c -- C++'s replaceable allocation functions (operator new and
   delete, every form of the Itanium C++ ABI on x86_64), built into
   lib/libompcluster-cxx.a, which bin/ompcc and libgomp.spec link after the
   program's objects.  A C++ program refers to operator new, so the linker
   takes these into the executable, where they replace libstdc++'s for the
   whole process, as a program's own replacement would: memory that
   libstdc++.so allocates for the program (std::string, std::to_string,
   containers grown out of line) comes from the shared heap too, not only
   what the program's own code allocates.  A program that defines its own
   operator new keeps it (the archive's copy is then not linked).

   With one node each calls the operator it replaces (libstdc++'s, the next
   definition after the executable), so new_handler and bad_alloc behave
   as without ompcluster.  With several nodes new takes memory from the
   shared heap (whose exhaustion ends the job with a message; a size it
   refuses outright goes to libstdc++'s, which throws bad_alloc), and
   delete hands any pointer to the runtime's free, which also takes memory
   libc allocated (e.g. before the cluster started).

   C, not C++: the mangled names are defined directly.  */

#define _GNU_SOURCE
#include <dlfcn.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>

/* From the runtime (libgomp-cluster/ompc_atomic.c, ompc_heap.c): the
   cluster module's operations, NULL with one node.  */
extern void *const *const ompc_cluster_slot;
void *ompc_malloc (size_t);
void *ompc_aligned_alloc (size_t, size_t);
void ompc_free (void *);

/* The operator NAME that this file replaces, looked up once into *SLOT.  */
static void *
ompc_cxx_next (void **slot, const char *name)
{
  void *f = __atomic_load_n (slot, __ATOMIC_ACQUIRE);
  if (__builtin_expect (f == NULL, 0))
    {
      f = dlsym (RTLD_NEXT, name);
      if (f == NULL)
	{
	  fprintf (stderr, "ompcluster: C++'s %s is not in the program: link "
		   "it with g++ (or -lstdc++)\n", name);
	  abort ();
	}
      __atomic_store_n (slot, f, __ATOMIC_RELEASE);
    }
  return f;
}

/* Shared memory for new with several nodes, or NULL (a size the shared
   heap refuses).  */
static inline void *
ompc_cxx_shared (size_t size, size_t align)
{
  if (size == 0)
    size = 1;
  if (align <= 16)
    return ompc_malloc (size);
  return ompc_aligned_alloc (align, size);
}

typedef void *ompc_new_fn (size_t);
typedef void *ompc_new_nothrow_fn (size_t, const void *);
typedef void *ompc_new_al_fn (size_t, size_t);
typedef void *ompc_new_al_nothrow_fn (size_t, size_t, const void *);

/* new (SIZE), new (SIZE, nothrow), new (SIZE, align_val_t),
   new (SIZE, align_val_t, nothrow); MANGLED names the operator.  */
#define OMPC_CXX_NEW(MANGLED, TYPE, PARAMS, ARGS, ALIGN)		\
  void *MANGLED PARAMS;							\
  void *								\
  MANGLED PARAMS							\
  {									\
    static void *next;							\
    if (__builtin_expect (*ompc_cluster_slot != NULL, 0))		\
      {									\
	void *p = ompc_cxx_shared (size, ALIGN);			\
	if (p)								\
	  return p;							\
      }									\
    return ((TYPE *) ompc_cxx_next (&next, #MANGLED)) ARGS;		\
  }

OMPC_CXX_NEW (_Znwm, ompc_new_fn, (size_t size), (size), 0)
OMPC_CXX_NEW (_Znam, ompc_new_fn, (size_t size), (size), 0)
OMPC_CXX_NEW (_ZnwmRKSt9nothrow_t, ompc_new_nothrow_fn,
	      (size_t size, const void *nt), (size, nt), 0)
OMPC_CXX_NEW (_ZnamRKSt9nothrow_t, ompc_new_nothrow_fn,
	      (size_t size, const void *nt), (size, nt), 0)
OMPC_CXX_NEW (_ZnwmSt11align_val_t, ompc_new_al_fn,
	      (size_t size, size_t al), (size, al), al)
OMPC_CXX_NEW (_ZnamSt11align_val_t, ompc_new_al_fn,
	      (size_t size, size_t al), (size, al), al)
OMPC_CXX_NEW (_ZnwmSt11align_val_tRKSt9nothrow_t, ompc_new_al_nothrow_fn,
	      (size_t size, size_t al, const void *nt), (size, al, nt), al)
OMPC_CXX_NEW (_ZnamSt11align_val_tRKSt9nothrow_t, ompc_new_al_nothrow_fn,
	      (size_t size, size_t al, const void *nt), (size, al, nt), al)

typedef void ompc_del_fn (void *);
typedef void ompc_del_sized_fn (void *, size_t);
typedef void ompc_del_nothrow_fn (void *, const void *);
typedef void ompc_del_sized_al_fn (void *, size_t, size_t);
typedef void ompc_del_al_nothrow_fn (void *, size_t, const void *);

/* Every form of delete: the pointer is all the shared heap needs.  */
#define OMPC_CXX_DELETE(MANGLED, TYPE, PARAMS, ARGS)			\
  void MANGLED PARAMS;							\
  void									\
  MANGLED PARAMS							\
  {									\
    static void *next;							\
    if (__builtin_expect (*ompc_cluster_slot != NULL, 0))		\
      {									\
	ompc_free (ptr);						\
	return;								\
      }									\
    ((TYPE *) ompc_cxx_next (&next, #MANGLED)) ARGS;			\
  }

OMPC_CXX_DELETE (_ZdlPv, ompc_del_fn, (void *ptr), (ptr))
OMPC_CXX_DELETE (_ZdaPv, ompc_del_fn, (void *ptr), (ptr))
OMPC_CXX_DELETE (_ZdlPvm, ompc_del_sized_fn, (void *ptr, size_t n),
		 (ptr, n))
OMPC_CXX_DELETE (_ZdaPvm, ompc_del_sized_fn, (void *ptr, size_t n),
		 (ptr, n))
OMPC_CXX_DELETE (_ZdlPvRKSt9nothrow_t, ompc_del_nothrow_fn,
		 (void *ptr, const void *nt), (ptr, nt))
OMPC_CXX_DELETE (_ZdaPvRKSt9nothrow_t, ompc_del_nothrow_fn,
		 (void *ptr, const void *nt), (ptr, nt))
OMPC_CXX_DELETE (_ZdlPvSt11align_val_t, ompc_del_sized_fn,
		 (void *ptr, size_t al), (ptr, al))
OMPC_CXX_DELETE (_ZdaPvSt11align_val_t, ompc_del_sized_fn,
		 (void *ptr, size_t al), (ptr, al))
OMPC_CXX_DELETE (_ZdlPvmSt11align_val_t, ompc_del_sized_al_fn,
		 (void *ptr, size_t n, size_t al), (ptr, n, al))
OMPC_CXX_DELETE (_ZdaPvmSt11align_val_t, ompc_del_sized_al_fn,
		 (void *ptr, size_t n, size_t al), (ptr, n, al))
OMPC_CXX_DELETE (_ZdlPvSt11align_val_tRKSt9nothrow_t, ompc_del_al_nothrow_fn,
		 (void *ptr, size_t al, const void *nt), (ptr, al, nt))
OMPC_CXX_DELETE (_ZdaPvSt11align_val_tRKSt9nothrow_t, ompc_del_al_nothrow_fn,
		 (void *ptr, size_t al, const void *nt), (ptr, al, nt))
