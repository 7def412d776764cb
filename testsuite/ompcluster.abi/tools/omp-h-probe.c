/* omp-h-probe.c -- prints the size and alignment of every type of omp.h
   and the value of every enumerator.  abi.exp compiles it once against our
   omp.h and once against GCC 12's and compares the outputs.  */

#include <omp.h>
#include <stdio.h>

#define T(t) printf ("%s %zu %zu\n", #t, sizeof (t), _Alignof (t));
#define V(v) printf ("%s %lld\n", #v, (long long) (v));

int
main (void)
{
  T (omp_lock_t) T (omp_nest_lock_t) T (omp_sched_t) T (omp_proc_bind_t)
  T (omp_sync_hint_t) T (omp_lock_hint_t) T (omp_depend_t)
  T (omp_pause_resource_t) T (omp_uintptr_t) T (omp_memspace_handle_t)
  T (omp_allocator_handle_t) T (omp_alloctrait_key_t)
  T (omp_alloctrait_value_t) T (omp_alloctrait_t) T (omp_event_handle_t)
  V (omp_sched_static) V (omp_sched_dynamic) V (omp_sched_guided)
  V (omp_sched_auto) V (omp_sched_monotonic)
  V (omp_proc_bind_false) V (omp_proc_bind_true) V (omp_proc_bind_primary)
  V (omp_proc_bind_master) V (omp_proc_bind_close) V (omp_proc_bind_spread)
  V (omp_sync_hint_none) V (omp_sync_hint_uncontended)
  V (omp_sync_hint_contended) V (omp_sync_hint_nonspeculative)
  V (omp_sync_hint_speculative) V (omp_lock_hint_none)
  V (omp_lock_hint_uncontended) V (omp_lock_hint_contended)
  V (omp_lock_hint_nonspeculative) V (omp_lock_hint_speculative)
  V (omp_pause_soft) V (omp_pause_hard)
  V (omp_default_mem_space) V (omp_large_cap_mem_space)
  V (omp_const_mem_space) V (omp_high_bw_mem_space)
  V (omp_low_lat_mem_space)
  V (omp_null_allocator) V (omp_default_mem_alloc)
  V (omp_large_cap_mem_alloc) V (omp_const_mem_alloc)
  V (omp_high_bw_mem_alloc) V (omp_low_lat_mem_alloc)
  V (omp_cgroup_mem_alloc) V (omp_pteam_mem_alloc) V (omp_thread_mem_alloc)
  V (omp_atk_sync_hint) V (omp_atk_alignment) V (omp_atk_access)
  V (omp_atk_pool_size) V (omp_atk_fallback) V (omp_atk_fb_data)
  V (omp_atk_pinned) V (omp_atk_partition)
  V (omp_atv_default) V (omp_atv_false) V (omp_atv_true)
  V (omp_atv_contended) V (omp_atv_uncontended) V (omp_atv_serialized)
  V (omp_atv_sequential) V (omp_atv_private) V (omp_atv_all)
  V (omp_atv_thread) V (omp_atv_pteam) V (omp_atv_cgroup)
  V (omp_atv_default_mem_fb) V (omp_atv_null_fb) V (omp_atv_abort_fb)
  V (omp_atv_allocator_fb) V (omp_atv_environment) V (omp_atv_nearest)
  V (omp_atv_blocked) V (omp_atv_interleaved)
  return 0;
}
