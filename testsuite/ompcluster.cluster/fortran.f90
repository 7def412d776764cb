! A Fortran program across nodes: a team spanning them, an allocatable
! array written by every node, a reduction, a critical section, and a
! module variable; the Fortran runtime must leave the DSM's fault handler
! in place (ompcc compiles Fortran with -fno-backtrace).
! ompc-nodes: 1 1x2 2x1 2x2 3x1
! ompc-timeout: 60
module counters
  implicit none
  integer :: hits = 0
end module counters

program cluster_fortran
  use omp_lib
  use counters
  implicit none
  integer :: n, i
  real(8) :: s
  real(8), allocatable :: a(:)
  allocate (a(20000))
  n = 0
  s = 0
!$omp parallel reduction(+:n)
  n = n + 1
!$omp critical
  hits = hits + 1
!$omp end critical
!$omp end parallel
!$omp parallel do reduction(+:s)
  do i = 1, 20000
    a(i) = i
    s = s + a(i)
  end do
!$omp end parallel do
  if (n /= omp_get_max_threads () .or. hits /= n) then
    print *, 'threads ', n, ' critical ', hits
    stop 1
  end if
  if (s /= 200010000d0 .or. sum (a) /= 200010000d0) then
    print *, 'sum ', s, sum (a)
    stop 1
  end if
  print '(a,i0,a)', 'OK ', n, ' threads'
end program cluster_fortran
