! Arrays that libgfortran allocates (the results of MATMUL, RESHAPE, PACK,
! SPREAD, SUM and MAXLOC with DIM, CSHIFT ... assigned to allocatable
! arrays) come from libc's malloc; the plugin has them moved into the
! shared heap, so that threads on other nodes read the same array (without
! it they read unrelated memory of their own node at the same address).
! Made on the master before a region, and by the thread that runs a
! single construct inside one.
! ompc-nodes: 1 1x2 2x1 2x2 3x1
! ompc-options: -O2
! ompc-timeout: 60
! ompc-check: nm %exe | grep -Eq ' U ompc_gfortran_result(@.*)?$'
program fortran_intrinsics
  implicit none
  integer, parameter :: n = 60
  real(8), allocatable :: a(:,:), m(:,:), r(:,:), s(:), sp(:,:), c(:,:), w(:,:)
  real(8), allocatable :: p(:)
  integer, allocatable :: loc(:)
  integer :: i, j, errors

  allocate (a(n,n))
  do j = 1, n
    do i = 1, n
      a(i,j) = modulo (i * 7 + j * 13, 29) + 0.25d0 * i
    end do
  end do
  m = matmul (a, transpose (a))
  p = pack (a, a > 14d0)
  r = reshape (p, [10, size (p) / 10])
  s = sum (a, dim = 2)
  loc = maxloc (a, dim = 1)
  sp = spread (s, 1, 3)
  c = cshift (a, 5, dim = 2)

  errors = 0
!$omp parallel do private (j) reduction (+:errors)
  do i = 1, n
    if (abs (m(i,i) - sum (a(i,:) ** 2)) > 1d-6 * m(i,i)) errors = errors + 1
    if (abs (s(i) - sum (a(i,:))) > 1d-9 * abs (s(i))) errors = errors + 1
    if (a(loc(i), i) /= maxval (a(:,i))) errors = errors + 1
    do j = 1, 3
      if (sp(j,i) /= s(i)) errors = errors + 1
    end do
    if (c(i,1) /= a(i,6)) errors = errors + 1
    if (size (p) /= count (a > 14d0) .or. r(1,1) /= p(1)) errors = errors + 1
  end do
!$omp end parallel do

  ! One thread makes the array; every thread of every node reads it.
!$omp parallel private (i) reduction (+:errors)
!$omp single
  w = matmul (transpose (a), a)
!$omp end single
  do i = 1, n
    if (abs (w(i,i) - sum (a(:,i) ** 2)) > 1d-6 * w(i,i)) errors = errors + 1
  end do
!$omp end parallel

  if (errors /= 0) then
    print *, 'errors ', errors
    stop 1
  end if
  print '(a)', 'OK'
end program fortran_intrinsics
