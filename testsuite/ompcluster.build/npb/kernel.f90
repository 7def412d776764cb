! kernel.f90 -- the main program of the NPB-style build (Makefile): fills
! a module array with a real power of i (libm's pow) in a parallel loop,
! sums it in a reduction and checks the result against Fortran's
! intrinsics (SUM, MAXVAL, MINLOC, SQRT, MOD).  Stops with status 1 when
! anything is wrong.
program kernel
  use omp_lib
  use kernel_data
  implicit none
  integer :: i, threads, odd
  double precision :: s, m
  logical :: ok

  allocate (a(n))
  threads = 0
  !$omp parallel
  !$omp single
  threads = omp_get_num_threads()
  !$omp end single
  !$omp end parallel
  !$omp parallel do
  do i = 1, n
    a(i) = dble(i) ** e
  end do
  !$omp end parallel do
  s = 0
  odd = 0
  !$omp parallel do reduction(+:s, odd)
  do i = 1, n
    s = s + a(i)
    if (mod(i, 2) == 1) odd = odd + 1
  end do
  !$omp end parallel do
  m = maxval(a)
  ok = abs(s - sum(a)) <= 1d-12 * s .and. m == dble(n) ** e .and. &
       minloc(a, 1) == 1 .and. odd == (n + 1) / 2 .and. &
       abs(sqrt(a(4)) - sqrt(8d0)) < 1d-12
  call print_results('KERNEL', threads, ok)
  deallocate (a)
  if (.not. ok) error stop 1
end program kernel
