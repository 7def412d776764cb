! fortran-api.f90 -- the Fortran entry points (omp_*_) with default
! 4-byte integers: by-reference arguments, logical results, the nestable
! lock held through a pointer, schedule kinds without the monotonic flag,
! CHARACTER arguments (hidden lengths, blank padding) and allocators.
!
! ompc-compile: plain
! ompc-nodes: 1x2 1x3
! ompc-timeout: 60

program fortran_api
  use omp_lib
  use iso_c_binding
  implicit none
  integer :: failures = 0
  integer (omp_lock_kind) :: l
  integer (omp_nest_lock_kind) :: nl
  integer (omp_sched_kind) :: kind
  integer :: chunk, n, nthr, count, count2
  character (len = 40) :: buf
  character (len = 3) :: small
  type (omp_alloctrait) :: traits(1)
  integer (omp_allocator_handle_kind) :: al
  type (c_ptr) :: p
  integer (c_intptr_t) :: addr
  double precision :: t0, t1

  call omp_set_num_threads (3)
  call check (omp_get_max_threads () == 3, "set/get num_threads")
  call check (.not. omp_in_parallel (), "not in parallel")
  nthr = 0
  count = 0
  !$omp parallel shared (nthr, count)
    !$omp single
      nthr = omp_get_num_threads ()
    !$omp end single
    !$omp atomic
      count = count + 1
    if (.not. omp_in_parallel ()) call check (.false., "in parallel")
  !$omp end parallel
  call check (nthr == 3 .and. count == 3, "parallel team of 3")

  call omp_set_dynamic (.false.)
  call check (.not. omp_get_dynamic (), "dynamic false")
  call omp_set_max_active_levels (2)
  call check (omp_get_max_active_levels () == 2, "max_active_levels")
  call check (omp_get_level () == 0, "level 0")

  call omp_set_schedule (omp_sched_dynamic, 5)
  call omp_get_schedule (kind, chunk)
  call check (kind == omp_sched_dynamic .and. chunk == 5, "schedule")
  call omp_set_schedule (ior (omp_sched_guided, ibset (0_omp_sched_kind, 31)), 7)
  call omp_get_schedule (kind, chunk)
  call check (kind == omp_sched_guided .and. chunk == 7, &
              "schedule without the monotonic flag")

  ! Simple and nestable locks, from several threads.
  call omp_init_lock (l)
  call omp_init_nest_lock (nl)
  count = 0
  count2 = 0
  !$omp parallel shared (l, nl, count, count2) private (n)
    do n = 1, 1000
      call omp_set_lock (l)
      count = count + 1
      call omp_unset_lock (l)
      call omp_set_nest_lock (nl)
      call omp_set_nest_lock (nl)
      count2 = count2 + 1
      call omp_unset_nest_lock (nl)
      call omp_unset_nest_lock (nl)
    end do
  !$omp end parallel
  call check (count == 3000 .and. count2 == 3000, "locks exclude")
  call check (omp_test_lock (l), "test_lock free")
  call omp_unset_lock (l)
  call check (omp_test_nest_lock (nl) == 1, "test_nest_lock 1")
  call check (omp_test_nest_lock (nl) == 2, "test_nest_lock 2")
  call omp_unset_nest_lock (nl)
  call omp_unset_nest_lock (nl)
  call omp_destroy_lock (l)
  call omp_destroy_nest_lock (nl)

  t0 = omp_get_wtime ()
  t1 = omp_get_wtime ()
  call check (t1 >= t0 .and. omp_get_wtick () > 0, "wtime")

  ! CHARACTER arguments.
  call omp_set_affinity_format ("thread %n of %N")
  n = omp_get_affinity_format (buf)
  call check (n == 15 .and. buf == "thread %n of %N", "affinity format")
  call check (buf(16:) == " ", "blank padding")
  n = omp_get_affinity_format (small)
  call check (n == 15 .and. small == "thr", "truncated affinity format")
  !$omp parallel num_threads (2) private (buf, n)
    n = omp_capture_affinity (buf, "%0.3n/%N")
    if (omp_get_thread_num () == 1) then
      call check (n == 5 .and. buf == "001/2", "capture_affinity")
    end if
  !$omp end parallel
  n = omp_capture_affinity (buf, "")
  call check (buf == "thread 0 of 1", "capture with the default format")

  ! An allocator with 64-byte alignment (omp_alloc is BIND(C)).
  traits(1) = omp_alloctrait (omp_atk_alignment, 64)
  al = omp_init_allocator (omp_default_mem_space, 1, traits)
  call check (al /= omp_null_allocator, "init_allocator")
  p = omp_alloc (100_c_size_t, al)
  addr = transfer (p, addr)
  call check (c_associated (p) .and. mod (addr, 64) == 0, "aligned alloc")
  call omp_free (p, al)
  call omp_destroy_allocator (al)
  call omp_set_default_allocator (omp_low_lat_mem_alloc)
  call check (omp_get_default_allocator () == omp_low_lat_mem_alloc, &
              "default allocator")

  if (failures /= 0) stop 1
  print *, "fortran API OK"

contains

  subroutine check (ok, what)
    logical, intent (in) :: ok
    character (len = *), intent (in) :: what
    if (.not. ok) then
      print *, "FAILED: ", what
      failures = failures + 1
    end if
  end subroutine check

end program fortran_api
