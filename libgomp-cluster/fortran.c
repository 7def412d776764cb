/* fortran.c -- the Fortran entry points of the OpenMP API (omp_*_ and the
   omp_*_8_ variants), each a thin call of the C routine.

   gfortran -fopenmp compiles `use omp_lib' and `include "omp_lib.h"' against
   GCC 12's own module and header (its finclude directory); this runtime ships
   neither, because that module's interfaces are exactly the ABI implemented
   here (and a .mod file is tied to the compiler that wrote it).  The
   conventions they imply:
   - every argument is passed by reference unless the interface says VALUE
     (only omp_fulfill_event's event);
   - INTEGER and LOGICAL are 4 bytes, and a LOGICAL is 0 or 1 (gfortran
     may negate one by flipping bit 0); a generic interface maps calls with
     8-byte arguments (-fdefault-integer-8) to the *_8_ routine, which clamps
     them to int;
   - a CHARACTER argument comes with its length as a hidden size_t argument
     after all the others, and is blank-padded, not NUL-terminated;
   - omp_lock_kind is 4, the size of omp_lock_t: the Fortran integer is the
     lock.  omp_nest_lock_kind is 8, smaller than omp_nest_lock_t (16): the
     integer holds a pointer to a lock allocated by omp_init_nest_lock_
     (from the heap every node sees, ompc_malloc, since the integer may be
     shared between nodes);
   - allocator, memory space and event handles are C's, integer(c_intptr_t);
     the memory routines (omp_alloc ...) and omp_target_* are BIND(C) and
     call the C functions directly, so they have no entry point here.
   The OpenMP 2.5 versions of the lock routines are in compat.c.  */

#include "libgomp.h"
#include "omp.h"
#include <dlfcn.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>

#define GOMP_FORTRAN GOMP_EXPORT

/* ompc_heap.c: the heap of the cluster (libc's with one node).  */
extern void *ompc_malloc (size_t);
extern void ompc_free (void *);

/* An 8-byte Fortran integer as a C int, saturated.  */
static inline int
gomp_f_int (int64_t x)
{
  return x < INT_MIN ? INT_MIN : x > INT_MAX ? INT_MAX : (int) x;
}

/* A Fortran string (LEN characters) as a new NUL-terminated C string;
   free it with free ().  */
static char *
gomp_f_string (const char *s, size_t len)
{
  char *c = malloc (len + 1);
  if (c == NULL)
    gomp_fatal ("out of memory copying a %zu-character Fortran string", len);
  memcpy (c, s, len);
  c[len] = '\0';
  return c;
}

/* Stores the C string S into the Fortran string BUF of LEN characters,
   truncated or padded with blanks.  */
static void
gomp_f_store (char *buf, size_t len, const char *s)
{
  size_t n = strlen (s);
  if (n > len)
    n = len;
  memcpy (buf, s, n);
  memset (buf + n, ' ', len - n);
}

/* The command line for libgfortran on every node.  A Fortran main
   program's first act is _gfortran_set_args (argc, argv); ranks other than
   0 never run it, so COMMAND_ARGUMENT_COUNT and GET_COMMAND_ARGUMENT in a
   region running there saw no arguments.  glibc hands constructors the
   command line; with one node the main program does it as usual.  */
static void __attribute__ ((constructor))
gomp_fortran_args (int argc, char **argv, char **envp)
{
  if (gomp_launcher_size () <= 1)
    return;
  void (*set_args) (int, char **)
    = (void (*) (int, char **)) dlsym (RTLD_DEFAULT, "_gfortran_set_args");
  if (set_args)
    set_args (argc, argv);
}

/* Locks (OpenMP 5.1, 3.9).  */

typedef omp_nest_lock_t *gomp_f_nest_lock;	/* what the integer(8) holds */

GOMP_FORTRAN void
omp_init_lock_ (omp_lock_t *lock)
{
  omp_init_lock (lock);
}

GOMP_FORTRAN void
omp_destroy_lock_ (omp_lock_t *lock)
{
  omp_destroy_lock (lock);
}

GOMP_FORTRAN void
omp_set_lock_ (omp_lock_t *lock)
{
  omp_set_lock (lock);
}

GOMP_FORTRAN void
omp_unset_lock_ (omp_lock_t *lock)
{
  omp_unset_lock (lock);
}

GOMP_FORTRAN int32_t
omp_test_lock_ (omp_lock_t *lock)
{
  return omp_test_lock (lock) != 0;
}

GOMP_FORTRAN void
omp_init_nest_lock_ (gomp_f_nest_lock *lock)
{
  *lock = ompc_malloc (sizeof (omp_nest_lock_t));
  if (*lock == NULL)
    gomp_fatal ("out of memory in omp_init_nest_lock");
  omp_init_nest_lock (*lock);
}

GOMP_FORTRAN void
omp_destroy_nest_lock_ (gomp_f_nest_lock *lock)
{
  omp_destroy_nest_lock (*lock);
  ompc_free (*lock);
  *lock = NULL;
}

GOMP_FORTRAN void
omp_set_nest_lock_ (gomp_f_nest_lock *lock)
{
  omp_set_nest_lock (*lock);
}

GOMP_FORTRAN void
omp_unset_nest_lock_ (gomp_f_nest_lock *lock)
{
  omp_unset_nest_lock (*lock);
}

GOMP_FORTRAN int32_t
omp_test_nest_lock_ (gomp_f_nest_lock *lock)
{
  return omp_test_nest_lock (*lock);
}

/* Thread team routines (3.2).  */

GOMP_FORTRAN void
omp_set_num_threads_ (const int32_t *n)
{
  omp_set_num_threads (*n);
}

GOMP_FORTRAN void
omp_set_num_threads_8_ (const int64_t *n)
{
  omp_set_num_threads (gomp_f_int (*n));
}

GOMP_FORTRAN int32_t
omp_get_num_threads_ (void)
{
  return omp_get_num_threads ();
}

GOMP_FORTRAN int32_t
omp_get_max_threads_ (void)
{
  return omp_get_max_threads ();
}

GOMP_FORTRAN int32_t
omp_get_thread_num_ (void)
{
  return omp_get_thread_num ();
}

GOMP_FORTRAN int32_t
omp_get_num_procs_ (void)
{
  return omp_get_num_procs ();
}

GOMP_FORTRAN int32_t
omp_in_parallel_ (void)
{
  return omp_in_parallel () != 0;
}

GOMP_FORTRAN void
omp_set_dynamic_ (const int32_t *set)
{
  omp_set_dynamic (*set);
}

GOMP_FORTRAN void
omp_set_dynamic_8_ (const int64_t *set)
{
  omp_set_dynamic (*set != 0);
}

GOMP_FORTRAN int32_t
omp_get_dynamic_ (void)
{
  return omp_get_dynamic () != 0;
}

GOMP_FORTRAN void
omp_set_nested_ (const int32_t *set)
{
  omp_set_nested (*set);
}

GOMP_FORTRAN void
omp_set_nested_8_ (const int64_t *set)
{
  omp_set_nested (*set != 0);
}

GOMP_FORTRAN int32_t
omp_get_nested_ (void)
{
  return omp_get_nested () != 0;
}

/* The Fortran kinds have no monotonic flag: OpenMP 4.5 code compares the
   result with omp_sched_static etc.  */
GOMP_FORTRAN void
omp_set_schedule_ (const int32_t *kind, const int32_t *chunk)
{
  omp_set_schedule ((omp_sched_t) *kind, *chunk);
}

GOMP_FORTRAN void
omp_set_schedule_8_ (const int32_t *kind, const int64_t *chunk)
{
  omp_set_schedule ((omp_sched_t) *kind, gomp_f_int (*chunk));
}

GOMP_FORTRAN void
omp_get_schedule_ (int32_t *kind, int32_t *chunk)
{
  omp_sched_t k;
  int c;
  omp_get_schedule (&k, &c);
  *kind = k & ~omp_sched_monotonic;
  *chunk = c;
}

GOMP_FORTRAN void
omp_get_schedule_8_ (int32_t *kind, int64_t *chunk)
{
  omp_sched_t k;
  int c;
  omp_get_schedule (&k, &c);
  *kind = k & ~omp_sched_monotonic;
  *chunk = c;
}

GOMP_FORTRAN int32_t
omp_get_thread_limit_ (void)
{
  return omp_get_thread_limit ();
}

GOMP_FORTRAN void
omp_set_max_active_levels_ (const int32_t *levels)
{
  omp_set_max_active_levels (*levels);
}

GOMP_FORTRAN void
omp_set_max_active_levels_8_ (const int64_t *levels)
{
  omp_set_max_active_levels (gomp_f_int (*levels));
}

GOMP_FORTRAN int32_t
omp_get_max_active_levels_ (void)
{
  return omp_get_max_active_levels ();
}

GOMP_FORTRAN int32_t
omp_get_supported_active_levels_ (void)
{
  return omp_get_supported_active_levels ();
}

GOMP_FORTRAN int32_t
omp_get_level_ (void)
{
  return omp_get_level ();
}

GOMP_FORTRAN int32_t
omp_get_ancestor_thread_num_ (const int32_t *level)
{
  return omp_get_ancestor_thread_num (*level);
}

GOMP_FORTRAN int32_t
omp_get_ancestor_thread_num_8_ (const int64_t *level)
{
  return omp_get_ancestor_thread_num (gomp_f_int (*level));
}

GOMP_FORTRAN int32_t
omp_get_team_size_ (const int32_t *level)
{
  return omp_get_team_size (*level);
}

GOMP_FORTRAN int32_t
omp_get_team_size_8_ (const int64_t *level)
{
  return omp_get_team_size (gomp_f_int (*level));
}

GOMP_FORTRAN int32_t
omp_get_active_level_ (void)
{
  return omp_get_active_level ();
}

GOMP_FORTRAN int32_t
omp_in_final_ (void)
{
  return omp_in_final () != 0;
}

GOMP_FORTRAN int32_t
omp_get_cancellation_ (void)
{
  return omp_get_cancellation () != 0;
}

GOMP_FORTRAN int32_t
omp_get_max_task_priority_ (void)
{
  return omp_get_max_task_priority ();
}

/* Timing (3.10).  */

GOMP_FORTRAN double
omp_get_wtime_ (void)
{
  return omp_get_wtime ();
}

GOMP_FORTRAN double
omp_get_wtick_ (void)
{
  return omp_get_wtick ();
}

/* Affinity and places (3.3).  */

GOMP_FORTRAN int32_t
omp_get_proc_bind_ (void)
{
  return omp_get_proc_bind ();
}

GOMP_FORTRAN int32_t
omp_get_num_places_ (void)
{
  return omp_get_num_places ();
}

GOMP_FORTRAN int32_t
omp_get_place_num_procs_ (const int32_t *place)
{
  return omp_get_place_num_procs (*place);
}

GOMP_FORTRAN int32_t
omp_get_place_num_procs_8_ (const int64_t *place)
{
  return omp_get_place_num_procs (gomp_f_int (*place));
}

GOMP_FORTRAN void
omp_get_place_proc_ids_ (const int32_t *place, int32_t *ids)
{
  omp_get_place_proc_ids (*place, (int *) ids);
}

/* The C routine fills ints; widen them into the caller's 8-byte array.  */
GOMP_FORTRAN void
omp_get_place_proc_ids_8_ (const int64_t *place, int64_t *ids)
{
  int p = gomp_f_int (*place);
  int n = omp_get_place_num_procs (p);
  if (n <= 0)
    return;
  int *tmp = malloc (n * sizeof (int));
  if (tmp == NULL)
    gomp_fatal ("out of memory in omp_get_place_proc_ids");
  omp_get_place_proc_ids (p, tmp);
  for (int i = 0; i < n; i++)
    ids[i] = tmp[i];
  free (tmp);
}

GOMP_FORTRAN int32_t
omp_get_place_num_ (void)
{
  return omp_get_place_num ();
}

GOMP_FORTRAN int32_t
omp_get_partition_num_places_ (void)
{
  return omp_get_partition_num_places ();
}

GOMP_FORTRAN void
omp_get_partition_place_nums_ (int32_t *nums)
{
  omp_get_partition_place_nums ((int *) nums);
}

GOMP_FORTRAN void
omp_get_partition_place_nums_8_ (int64_t *nums)
{
  int n = omp_get_partition_num_places ();
  if (n <= 0)
    return;
  int *tmp = malloc (n * sizeof (int));
  if (tmp == NULL)
    gomp_fatal ("out of memory in omp_get_partition_place_nums");
  omp_get_partition_place_nums (tmp);
  for (int i = 0; i < n; i++)
    nums[i] = tmp[i];
  free (tmp);
}

/* Affinity display (3.3.5-3.3.8): CHARACTER arguments.  An empty format
   means the affinity-format-var, as a NULL one does in C.  */

GOMP_FORTRAN void
omp_set_affinity_format_ (const char *format, size_t format_len)
{
  char *f = gomp_f_string (format, format_len);
  omp_set_affinity_format (f);
  free (f);
}

GOMP_FORTRAN int32_t
omp_get_affinity_format_ (char *buffer, size_t buffer_len)
{
  size_t n = omp_get_affinity_format (NULL, 0);
  char *f = malloc (n + 1);
  if (f == NULL)
    gomp_fatal ("out of memory in omp_get_affinity_format");
  omp_get_affinity_format (f, n + 1);
  gomp_f_store (buffer, buffer_len, f);
  free (f);
  return n;
}

GOMP_FORTRAN void
omp_display_affinity_ (const char *format, size_t format_len)
{
  char *f = format_len ? gomp_f_string (format, format_len) : NULL;
  omp_display_affinity (f);
  free (f);
}

GOMP_FORTRAN int32_t
omp_capture_affinity_ (char *buffer, const char *format, size_t buffer_len,
		       size_t format_len)
{
  char *f = format_len ? gomp_f_string (format, format_len) : NULL;
  char *b = malloc (buffer_len + 1);
  if (b == NULL)
    gomp_fatal ("out of memory in omp_capture_affinity");
  size_t n = omp_capture_affinity (b, buffer_len + 1, f);
  gomp_f_store (buffer, buffer_len, b);
  free (b);
  free (f);
  return n;
}

/* Devices and teams (3.4, 3.7).  */

GOMP_FORTRAN void
omp_set_default_device_ (const int32_t *device)
{
  omp_set_default_device (*device);
}

GOMP_FORTRAN void
omp_set_default_device_8_ (const int64_t *device)
{
  omp_set_default_device (gomp_f_int (*device));
}

GOMP_FORTRAN int32_t
omp_get_default_device_ (void)
{
  return omp_get_default_device ();
}

GOMP_FORTRAN int32_t
omp_get_num_devices_ (void)
{
  return omp_get_num_devices ();
}

GOMP_FORTRAN int32_t
omp_get_device_num_ (void)
{
  return omp_get_device_num ();
}

GOMP_FORTRAN int32_t
omp_is_initial_device_ (void)
{
  return omp_is_initial_device () != 0;
}

GOMP_FORTRAN int32_t
omp_get_initial_device_ (void)
{
  return omp_get_initial_device ();
}

GOMP_FORTRAN int32_t
omp_get_num_teams_ (void)
{
  return omp_get_num_teams ();
}

GOMP_FORTRAN int32_t
omp_get_team_num_ (void)
{
  return omp_get_team_num ();
}

GOMP_FORTRAN void
omp_set_num_teams_ (const int32_t *n)
{
  omp_set_num_teams (*n);
}

GOMP_FORTRAN void
omp_set_num_teams_8_ (const int64_t *n)
{
  omp_set_num_teams (gomp_f_int (*n));
}

GOMP_FORTRAN int32_t
omp_get_max_teams_ (void)
{
  return omp_get_max_teams ();
}

GOMP_FORTRAN void
omp_set_teams_thread_limit_ (const int32_t *n)
{
  omp_set_teams_thread_limit (*n);
}

GOMP_FORTRAN void
omp_set_teams_thread_limit_8_ (const int64_t *n)
{
  omp_set_teams_thread_limit (gomp_f_int (*n));
}

GOMP_FORTRAN int32_t
omp_get_teams_thread_limit_ (void)
{
  return omp_get_teams_thread_limit ();
}

/* Tasks: the event handle is passed by value.  */
GOMP_FORTRAN void
omp_fulfill_event_ (intptr_t event)
{
  omp_fulfill_event ((omp_event_handle_t) event);
}

/* Resource relinquishing (3.6).  */

GOMP_FORTRAN int32_t
omp_pause_resource_ (const int32_t *kind, const int32_t *device)
{
  return omp_pause_resource ((omp_pause_resource_t) *kind, *device);
}

GOMP_FORTRAN int32_t
omp_pause_resource_all_ (const int32_t *kind)
{
  return omp_pause_resource_all ((omp_pause_resource_t) *kind);
}

/* Allocators (3.13): the Fortran type omp_alloctrait has omp_alloctrait_t's
   layout (an int key, an intptr_t value).  */

GOMP_FORTRAN intptr_t
omp_init_allocator_ (const intptr_t *memspace, const int32_t *ntraits,
		     const omp_alloctrait_t *traits)
{
  return omp_init_allocator ((omp_memspace_handle_t) *memspace, *ntraits,
			     traits);
}

GOMP_FORTRAN intptr_t
omp_init_allocator_8_ (const intptr_t *memspace, const int64_t *ntraits,
		       const omp_alloctrait_t *traits)
{
  return omp_init_allocator ((omp_memspace_handle_t) *memspace,
			     gomp_f_int (*ntraits), traits);
}

GOMP_FORTRAN void
omp_destroy_allocator_ (const intptr_t *allocator)
{
  omp_destroy_allocator ((omp_allocator_handle_t) *allocator);
}

GOMP_FORTRAN void
omp_set_default_allocator_ (const intptr_t *allocator)
{
  omp_set_default_allocator ((omp_allocator_handle_t) *allocator);
}

GOMP_FORTRAN intptr_t
omp_get_default_allocator_ (void)
{
  return omp_get_default_allocator ();
}

/* Environment display (3.15).  */

GOMP_FORTRAN void
omp_display_env_ (const int32_t *verbose)
{
  omp_display_env (*verbose);
}

GOMP_FORTRAN void
omp_display_env_8_ (const int64_t *verbose)
{
  omp_display_env (*verbose != 0);
}
