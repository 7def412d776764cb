! fortran-api-8.f90 -- the omp_*_8_ entry points: with -fdefault-integer-8
! the omp_lib generic interfaces pass 8-byte integers and logicals.
!
! ompc-compile: plain
! ompc-options: -fdefault-integer-8
! ompc-nodes: 1x2
! ompc-timeout: 60

program fortran_api_8
  use omp_lib
  implicit none
  integer :: failures = 0
  integer (omp_sched_kind) :: skind
  integer :: chunk, n, nthr, i
  integer, allocatable :: ids(:), places(:)

  call check (kind (n) == 8, "default integer is 8 bytes")
  call omp_set_num_threads (2)
  call check (omp_get_max_threads () == 2, "set_num_threads_8")
  call omp_set_dynamic (.false.)
  call check (.not. logical (omp_get_dynamic ()), "set_dynamic_8")
  call omp_set_max_active_levels (3)
  call check (omp_get_max_active_levels () == 3, "max_active_levels_8")
  call omp_set_schedule (omp_sched_static, 11)
  call omp_get_schedule (skind, chunk)
  call check (skind == omp_sched_static .and. chunk == 11, "schedule_8")
  ! Saturated, not truncated to 32 bits: 2**32 + 2 must not become 2.
  call omp_set_num_threads (4294967298_8)
  call check (omp_get_max_threads () /= 2, "clamped num_threads")
  call omp_set_num_threads (2)

  nthr = 0
  !$omp parallel shared (nthr)
    !$omp single
      nthr = omp_get_team_size (1_8)
      if (omp_get_ancestor_thread_num (1_8) /= omp_get_thread_num ()) &
        call check (.false., "ancestor_thread_num_8")
    !$omp end single
  !$omp end parallel
  call check (nthr == 2, "team_size_8")

  n = omp_get_num_places ()
  if (n > 0) then
    allocate (ids(omp_get_place_num_procs (0)))
    ids = -1
    call omp_get_place_proc_ids (0, ids)
    call check (all (ids >= 0), "place_proc_ids_8")
    allocate (places(omp_get_partition_num_places ()))
    places = -1
    call omp_get_partition_place_nums (places)
    call check (all ([(places(i) == i - 1, i = 1, size (places))]), &
                "partition_place_nums_8")
  end if

  if (failures /= 0) stop 1
  print *, "fortran API (integer 8) OK"

contains

  subroutine check (ok, what)
    logical, intent (in) :: ok
    character (len = *), intent (in) :: what
    if (.not. ok) then
      print *, "FAILED: ", what
      failures = failures + 1
    end if
  end subroutine check

end program fortran_api_8
