! fill.f90 -- the Fortran part of the mixed program (see main.c): fills
! x(i) = sqrt(i)**2.5 in a parallel loop (a real power: libm's pow;
! ERROR STOP: libgfortran).
subroutine fill(x, n) bind(c, name="fill")
  use iso_c_binding, only: c_double, c_int
  implicit none
  integer(c_int), value :: n
  real(c_double), intent(out) :: x(n)
  real(c_double) :: e
  integer :: i
  if (n < 1) error stop 'fill: no elements'
  e = 2.5_c_double
  !$omp parallel do
  do i = 1, n
    x(i) = sqrt(real(i, c_double)) ** e
  end do
  !$omp end parallel do
end subroutine fill
