! Fortran: module variables, COMMON blocks, SAVEd locals and ALLOCATE go to
! the shared segment; atomics, reductions and critical sections are
! rewritten; results equal a plain gfortran -fopenmp build.
! ompc-nodes: 1 1x2 1x3 2x1 2x2
! ompc-check: sh "$(dirname %src)/aux/atomics-check.sh" guarded %exe 'MAIN__|MAIN___omp_fn\.[0-9]+|__ompc_user_main|__shared_mod_MOD_[a-z_]*'
! ompc-check: nm %exe | grep -Eq ' U ompc_malloc(@.*)?$'
! ompc-check: nm %exe | grep -Eq ' U ompc_realloc(@.*)?$'
! ompc-check: ! nm %exe | grep -Eq ' U (malloc|realloc|free)(@|$)'
! ompc-timeout: 60
module shared_mod
  implicit none
  integer :: counter = 0
  double precision :: total
  integer, allocatable :: arr(:)
contains
  subroutine bump(n)
    integer, intent(in) :: n
    integer, save :: calls = 0
!$omp atomic
    calls = calls + 1
!$omp atomic
    counter = counter + n
  end subroutine bump
end module shared_mod

program main
  use shared_mod
  use omp_lib
  implicit none
  integer :: a, b, i, n, errors
  real :: r
  common /blk/ a, b, r
  double precision :: s
  integer :: mx
  integer, allocatable :: grown(:)

  errors = 0
  a = 0; b = 0; r = 0.0; total = 0.0d0
  allocate(arr(1000))
  arr = 0
  n = 0
!$omp parallel reduction(+:n)
  n = n + 1
!$omp end parallel

!$omp parallel private(i)
  call bump(1)
!$omp do
  do i = 1, 1000
    arr(i) = i
  end do
!$omp end do
!$omp atomic
  a = a + 2
!$omp atomic
  r = r + 0.5
!$omp critical (upd)
  b = b + 1
  total = total + 1.0d0
!$omp end critical (upd)
!$omp end parallel

  s = 0.0d0
  mx = 0
!$omp parallel do reduction(+:s) reduction(max:mx)
  do i = 1, 1000
    s = s + arr(i)
    mx = max(mx, arr(i))
  end do
!$omp end parallel do

  if (counter /= n) errors = errors + 1
  if (a /= 2 * n .or. b /= n) errors = errors + 1
  if (r /= 0.5 * n) errors = errors + 1
  if (total /= dble(n)) errors = errors + 1
  if (s /= 500500.0d0 .or. mx /= 1000) errors = errors + 1
  ! Reallocation on assignment: gfortran calls realloc in the generated code.
  grown = [integer ::]
  do i = 1, 100
    grown = [grown, i]
  end do
  if (size(grown) /= 100 .or. sum(grown) /= 5050) errors = errors + 1
  deallocate(arr)
  if (errors /= 0) then
    print *, 'errors', errors, counter, a, b, r, total, s, mx
    stop 1
  end if
end program main
