! Tasks from Fortran: task/taskwait, depend, taskloop with reduction,
! taskgroup, detach with omp_fulfill_event.
! ompc-compile: plain
! ompc-nodes: 1 1x2 1x4
! ompc-timeout: 60
program tasks_fortran
  use omp_lib
  implicit none
  integer :: x, y, i, s, n
  integer (kind=omp_event_handle_kind) :: ev
  integer :: errors

  errors = 0
  x = 0
  y = 0
  !$omp parallel
  !$omp single
  !$omp task depend(out: x) shared(x)
  x = 41
  !$omp end task
  !$omp task depend(in: x) shared(x, y)
  y = x + 1
  !$omp end task
  !$omp taskwait
  !$omp end single
  !$omp end parallel
  if (y /= 42) errors = errors + 1

  s = 0
  !$omp parallel
  !$omp single
  !$omp taskloop reduction(+: s) grainsize(10)
  do i = 1, 100
    s = s + i
  end do
  !$omp end taskloop
  !$omp end single
  !$omp end parallel
  if (s /= 5050) errors = errors + 1

  n = 0
  !$omp parallel
  !$omp single
  !$omp taskgroup
  do i = 1, 20
    !$omp task shared(n)
    !$omp atomic
    n = n + 1
    !$omp end task
  end do
  !$omp end taskgroup
  if (n /= 20) errors = errors + 1
  !$omp task detach(ev)
  n = n + 1
  !$omp end task
  call omp_fulfill_event (ev)
  !$omp taskwait
  !$omp end single
  !$omp end parallel
  if (n /= 21) errors = errors + 1

  if (errors /= 0) then
    print *, 'errors: ', errors
    stop 1
  end if
end program tasks_fortran
