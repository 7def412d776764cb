! kernel_data.f90 -- the data module of the NPB-style program (Makefile):
! the array the kernel works on and its size.
module kernel_data
  implicit none
  integer, parameter :: n = 200000
  double precision, allocatable :: a(:)
  double precision :: e = 1.5d0
end module kernel_data
