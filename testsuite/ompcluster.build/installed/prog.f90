! prog.f90 -- an ordinary OpenMP Fortran program that install.sh compiles
! with plain gfortran: an allocatable array filled with a real power (libm's
! pow) in a parallel loop and summed in a reduction, checked against SUM.
! Prints "fortran: threads N ok", or "WRONG" and stops with status 1.
program prog
  use omp_lib
  implicit none
  integer, parameter :: n = 100000
  double precision, allocatable :: a(:)
  double precision :: s, e
  integer :: i, threads

  allocate (a(n))
  e = 1.5d0
  threads = 0
  !$omp parallel
  !$omp single
  threads = omp_get_num_threads()
  !$omp end single
  !$omp do
  do i = 1, n
    a(i) = dble(i) ** e
  end do
  !$omp end do
  !$omp end parallel
  s = 0
  !$omp parallel do reduction(+:s)
  do i = 1, n
    s = s + a(i)
  end do
  !$omp end parallel do
  if (abs(s - sum(a)) <= 1d-12 * s) then
    print '(a, i0, a)', 'fortran: threads ', threads, ' ok'
  else
    print '(a, i0, a)', 'fortran: threads ', threads, ' WRONG'
    error stop 1
  end if
end program prog
