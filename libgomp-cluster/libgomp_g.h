/* libgomp_g.h -- the GOMP_* entry points that GCC 12 emits calls to.

   This is the compiler-facing ABI of libgomp.so.1: the signatures are GCC
   12's, grouped by construct; the version node of each group is noted
   (libgomp.map binds them).  The runtime's files define them; tests may
   include this header to call the ABI directly.  OpenACC (GOACC_*) is not
   part of this runtime.  */

#ifndef OMPC_LIBGOMP_G_H
#define OMPC_LIBGOMP_G_H 1

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

typedef unsigned long long gomp_ull;

/* Barriers (GOMP_1.0; _cancel GOMP_4.0).  */
extern void GOMP_barrier (void);
extern bool GOMP_barrier_cancel (void);

/* critical and atomic (GOMP_1.0).  */
extern void GOMP_critical_start (void);
extern void GOMP_critical_end (void);
extern void GOMP_critical_name_start (void **);
extern void GOMP_critical_name_end (void **);
extern void GOMP_atomic_start (void);
extern void GOMP_atomic_end (void);

/* Loops over long (GOMP_1.0; nonmonotonic GOMP_4.5; the combined start
   functions GOMP_5.0).  *_start (start, end, incr, chunk, &istart, &iend)
   and *_next (&istart, &iend) return whether a chunk was handed out.  */
extern bool GOMP_loop_static_start (long, long, long, long, long *, long *);
extern bool GOMP_loop_dynamic_start (long, long, long, long, long *, long *);
extern bool GOMP_loop_guided_start (long, long, long, long, long *, long *);
extern bool GOMP_loop_runtime_start (long, long, long, long *, long *);
extern bool GOMP_loop_nonmonotonic_dynamic_start (long, long, long, long,
						  long *, long *);
extern bool GOMP_loop_nonmonotonic_guided_start (long, long, long, long,
						 long *, long *);
extern bool GOMP_loop_nonmonotonic_runtime_start (long, long, long,
						  long *, long *);
extern bool GOMP_loop_maybe_nonmonotonic_runtime_start (long, long, long,
							long *, long *);
extern bool GOMP_loop_start (long, long, long, long, long, long *, long *,
			     uintptr_t *, void **);
extern bool GOMP_loop_ordered_static_start (long, long, long, long,
					    long *, long *);
extern bool GOMP_loop_ordered_dynamic_start (long, long, long, long,
					     long *, long *);
extern bool GOMP_loop_ordered_guided_start (long, long, long, long,
					    long *, long *);
extern bool GOMP_loop_ordered_runtime_start (long, long, long,
					     long *, long *);
extern bool GOMP_loop_ordered_start (long, long, long, long, long, long *,
				     long *, uintptr_t *, void **);
extern bool GOMP_loop_static_next (long *, long *);
extern bool GOMP_loop_dynamic_next (long *, long *);
extern bool GOMP_loop_guided_next (long *, long *);
extern bool GOMP_loop_runtime_next (long *, long *);
extern bool GOMP_loop_nonmonotonic_dynamic_next (long *, long *);
extern bool GOMP_loop_nonmonotonic_guided_next (long *, long *);
extern bool GOMP_loop_nonmonotonic_runtime_next (long *, long *);
extern bool GOMP_loop_maybe_nonmonotonic_runtime_next (long *, long *);
extern bool GOMP_loop_ordered_static_next (long *, long *);
extern bool GOMP_loop_ordered_dynamic_next (long *, long *);
extern bool GOMP_loop_ordered_guided_next (long *, long *);
extern bool GOMP_loop_ordered_runtime_next (long *, long *);
extern void GOMP_loop_end (void);
extern void GOMP_loop_end_nowait (void);
extern bool GOMP_loop_end_cancel (void);

/* Doacross loops (GOMP_4.5; _doacross_start GOMP_5.0):
   (ncounts, counts, chunk, &istart, &iend).  */
extern bool GOMP_loop_doacross_static_start (unsigned, long *, long,
					     long *, long *);
extern bool GOMP_loop_doacross_dynamic_start (unsigned, long *, long,
					      long *, long *);
extern bool GOMP_loop_doacross_guided_start (unsigned, long *, long,
					     long *, long *);
extern bool GOMP_loop_doacross_runtime_start (unsigned, long *,
					      long *, long *);
extern bool GOMP_loop_doacross_start (unsigned, long *, long, long, long *,
				      long *, uintptr_t *, void **);

/* Combined parallel loops (GOMP_1.0 *_start, GOMP_4.0 the others).  */
extern void GOMP_parallel_loop_static_start (void (*) (void *), void *,
					     unsigned, long, long, long, long);
extern void GOMP_parallel_loop_dynamic_start (void (*) (void *), void *,
					      unsigned, long, long, long, long);
extern void GOMP_parallel_loop_guided_start (void (*) (void *), void *,
					     unsigned, long, long, long, long);
extern void GOMP_parallel_loop_runtime_start (void (*) (void *), void *,
					      unsigned, long, long, long);
extern void GOMP_parallel_loop_static (void (*) (void *), void *, unsigned,
				       long, long, long, long, unsigned);
extern void GOMP_parallel_loop_dynamic (void (*) (void *), void *, unsigned,
					long, long, long, long, unsigned);
extern void GOMP_parallel_loop_guided (void (*) (void *), void *, unsigned,
				       long, long, long, long, unsigned);
extern void GOMP_parallel_loop_runtime (void (*) (void *), void *, unsigned,
					long, long, long, unsigned);
extern void GOMP_parallel_loop_nonmonotonic_dynamic (void (*) (void *),
						     void *, unsigned, long,
						     long, long, long,
						     unsigned);
extern void GOMP_parallel_loop_nonmonotonic_guided (void (*) (void *),
						    void *, unsigned, long,
						    long, long, long,
						    unsigned);
extern void GOMP_parallel_loop_nonmonotonic_runtime (void (*) (void *),
						     void *, unsigned, long,
						     long, long, unsigned);
extern void GOMP_parallel_loop_maybe_nonmonotonic_runtime (void (*) (void *),
							   void *, unsigned,
							   long, long, long,
							   unsigned);

/* Loops over unsigned long long (GOMP_2.0; nonmonotonic and doacross
   GOMP_4.5; combined starts GOMP_5.0).  The leading bool says whether the
   iteration goes upwards.  */
extern bool GOMP_loop_ull_static_start (bool, gomp_ull, gomp_ull, gomp_ull,
					gomp_ull, gomp_ull *, gomp_ull *);
extern bool GOMP_loop_ull_dynamic_start (bool, gomp_ull, gomp_ull, gomp_ull,
					 gomp_ull, gomp_ull *, gomp_ull *);
extern bool GOMP_loop_ull_guided_start (bool, gomp_ull, gomp_ull, gomp_ull,
					gomp_ull, gomp_ull *, gomp_ull *);
extern bool GOMP_loop_ull_runtime_start (bool, gomp_ull, gomp_ull, gomp_ull,
					 gomp_ull *, gomp_ull *);
extern bool GOMP_loop_ull_nonmonotonic_dynamic_start (bool, gomp_ull,
						      gomp_ull, gomp_ull,
						      gomp_ull, gomp_ull *,
						      gomp_ull *);
extern bool GOMP_loop_ull_nonmonotonic_guided_start (bool, gomp_ull,
						     gomp_ull, gomp_ull,
						     gomp_ull, gomp_ull *,
						     gomp_ull *);
extern bool GOMP_loop_ull_nonmonotonic_runtime_start (bool, gomp_ull,
						      gomp_ull, gomp_ull,
						      gomp_ull *, gomp_ull *);
extern bool GOMP_loop_ull_maybe_nonmonotonic_runtime_start (bool, gomp_ull,
							    gomp_ull,
							    gomp_ull,
							    gomp_ull *,
							    gomp_ull *);
extern bool GOMP_loop_ull_start (bool, gomp_ull, gomp_ull, gomp_ull, long,
				 gomp_ull, gomp_ull *, gomp_ull *,
				 uintptr_t *, void **);
extern bool GOMP_loop_ull_ordered_static_start (bool, gomp_ull, gomp_ull,
						gomp_ull, gomp_ull,
						gomp_ull *, gomp_ull *);
extern bool GOMP_loop_ull_ordered_dynamic_start (bool, gomp_ull, gomp_ull,
						 gomp_ull, gomp_ull,
						 gomp_ull *, gomp_ull *);
extern bool GOMP_loop_ull_ordered_guided_start (bool, gomp_ull, gomp_ull,
						gomp_ull, gomp_ull,
						gomp_ull *, gomp_ull *);
extern bool GOMP_loop_ull_ordered_runtime_start (bool, gomp_ull, gomp_ull,
						 gomp_ull, gomp_ull *,
						 gomp_ull *);
extern bool GOMP_loop_ull_ordered_start (bool, gomp_ull, gomp_ull, gomp_ull,
					 long, gomp_ull, gomp_ull *,
					 gomp_ull *, uintptr_t *, void **);
extern bool GOMP_loop_ull_static_next (gomp_ull *, gomp_ull *);
extern bool GOMP_loop_ull_dynamic_next (gomp_ull *, gomp_ull *);
extern bool GOMP_loop_ull_guided_next (gomp_ull *, gomp_ull *);
extern bool GOMP_loop_ull_runtime_next (gomp_ull *, gomp_ull *);
extern bool GOMP_loop_ull_nonmonotonic_dynamic_next (gomp_ull *, gomp_ull *);
extern bool GOMP_loop_ull_nonmonotonic_guided_next (gomp_ull *, gomp_ull *);
extern bool GOMP_loop_ull_nonmonotonic_runtime_next (gomp_ull *, gomp_ull *);
extern bool GOMP_loop_ull_maybe_nonmonotonic_runtime_next (gomp_ull *,
							   gomp_ull *);
extern bool GOMP_loop_ull_ordered_static_next (gomp_ull *, gomp_ull *);
extern bool GOMP_loop_ull_ordered_dynamic_next (gomp_ull *, gomp_ull *);
extern bool GOMP_loop_ull_ordered_guided_next (gomp_ull *, gomp_ull *);
extern bool GOMP_loop_ull_ordered_runtime_next (gomp_ull *, gomp_ull *);
extern bool GOMP_loop_ull_doacross_static_start (unsigned, gomp_ull *,
						 gomp_ull, gomp_ull *,
						 gomp_ull *);
extern bool GOMP_loop_ull_doacross_dynamic_start (unsigned, gomp_ull *,
						  gomp_ull, gomp_ull *,
						  gomp_ull *);
extern bool GOMP_loop_ull_doacross_guided_start (unsigned, gomp_ull *,
						 gomp_ull, gomp_ull *,
						 gomp_ull *);
extern bool GOMP_loop_ull_doacross_runtime_start (unsigned, gomp_ull *,
						  gomp_ull *, gomp_ull *);
extern bool GOMP_loop_ull_doacross_start (unsigned, gomp_ull *, long,
					  gomp_ull, gomp_ull *, gomp_ull *,
					  uintptr_t *, void **);

/* ordered and doacross dependences (GOMP_1.0; doacross GOMP_4.5).  */
extern void GOMP_ordered_start (void);
extern void GOMP_ordered_end (void);
extern void GOMP_doacross_post (long *);
extern void GOMP_doacross_wait (long, ...);
extern void GOMP_doacross_ull_post (gomp_ull *);
extern void GOMP_doacross_ull_wait (gomp_ull, ...);

/* Parallel regions and cancellation (GOMP_1.0 start/end; GOMP_4.0
   GOMP_parallel, cancel; GOMP_5.0 _reductions).  */
extern void GOMP_parallel_start (void (*) (void *), void *, unsigned);
extern void GOMP_parallel_end (void);
extern void GOMP_parallel (void (*) (void *), void *, unsigned, unsigned);
extern unsigned GOMP_parallel_reductions (void (*) (void *), void *,
					  unsigned, unsigned);
extern bool GOMP_cancel (int, bool);
extern bool GOMP_cancellation_point (int);

/* Tasks (GOMP_2.0 task/taskwait; GOMP_3.0 taskyield; GOMP_4.0 taskgroup;
   GOMP_4.5 taskloop; GOMP_5.0 depend and reductions).  */
extern void GOMP_task (void (*) (void *), void *, void (*) (void *, void *),
		       long, long, bool, unsigned, void **, int, void *);
extern void GOMP_taskloop (void (*) (void *), void *,
			   void (*) (void *, void *), long, long, unsigned,
			   unsigned long, int, long, long, long);
extern void GOMP_taskloop_ull (void (*) (void *), void *,
			       void (*) (void *, void *), long, long,
			       unsigned, unsigned long, int,
			       gomp_ull, gomp_ull, gomp_ull);
extern void GOMP_taskwait (void);
extern void GOMP_taskwait_depend (void **);
extern void GOMP_taskyield (void);
extern void GOMP_taskgroup_start (void);
extern void GOMP_taskgroup_end (void);
extern void GOMP_taskgroup_reduction_register (uintptr_t *);
extern void GOMP_taskgroup_reduction_unregister (uintptr_t *);
extern void GOMP_task_reduction_remap (size_t, size_t, void **);
extern void GOMP_workshare_task_reduction_unregister (bool);

/* sections (GOMP_1.0; combined GOMP_4.0; sections2 GOMP_5.0).  */
extern unsigned GOMP_sections_start (unsigned);
extern unsigned GOMP_sections2_start (unsigned, uintptr_t *, void **);
extern unsigned GOMP_sections_next (void);
extern void GOMP_parallel_sections_start (void (*) (void *), void *,
					  unsigned, unsigned);
extern void GOMP_parallel_sections (void (*) (void *), void *,
				    unsigned, unsigned, unsigned);
extern void GOMP_sections_end (void);
extern void GOMP_sections_end_nowait (void);
extern bool GOMP_sections_end_cancel (void);

/* single (GOMP_1.0) and scope (GOMP_5.1).  */
extern bool GOMP_single_start (void);
extern void *GOMP_single_copy_start (void);
extern void GOMP_single_copy_end (void *);
extern void GOMP_scope_start (uintptr_t *);

/* target and teams (GOMP_4.0; _ext GOMP_4.5; teams_reg GOMP_5.0;
   teams4 GOMP_5.1).  Without a device everything runs on the host.  */
extern void GOMP_target (int, void (*) (void *), const void *,
			 size_t, void **, size_t *, unsigned char *);
extern void GOMP_target_ext (int, void (*) (void *), size_t, void **,
			     size_t *, unsigned short *, unsigned int,
			     void **, void **);
extern void GOMP_target_data (int, const void *,
			      size_t, void **, size_t *, unsigned char *);
extern void GOMP_target_data_ext (int, size_t, void **, size_t *,
				  unsigned short *);
extern void GOMP_target_end_data (void);
extern void GOMP_target_update (int, const void *,
				size_t, void **, size_t *, unsigned char *);
extern void GOMP_target_update_ext (int, size_t, void **, size_t *,
				    unsigned short *, unsigned int, void **);
extern void GOMP_target_enter_exit_data (int, size_t, void **, size_t *,
					 unsigned short *, unsigned int,
					 void **);
extern void GOMP_teams (unsigned int, unsigned int);
extern bool GOMP_teams4 (unsigned int, unsigned int, unsigned int, bool);
extern void GOMP_teams_reg (void (*) (void *), void *, unsigned, unsigned,
			    unsigned);

/* Offload image registration (GOMP_4.0.1; _ver GOMP_4.5): called by the
   constructors of programs built with offloading.  */
extern void GOMP_offload_register (const void *, int, const void *);
extern void GOMP_offload_unregister (const void *, int, const void *);
extern void GOMP_offload_register_ver (unsigned, const void *, int,
				       const void *);
extern void GOMP_offload_unregister_ver (unsigned, const void *, int,
					 const void *);

/* Allocators (GOMP_5.0.1).  */
extern void *GOMP_alloc (size_t, size_t, uintptr_t);
extern void GOMP_free (void *, uintptr_t);

/* The error directive (GOMP_5.1): message and its length, or (size_t) -1
   when the message is NUL-terminated.  */
extern void GOMP_warning (const char *, size_t);
extern void GOMP_error (const char *, size_t);

#endif /* OMPC_LIBGOMP_G_H */
