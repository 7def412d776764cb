! A COMMON block of 32 MiB compiled with -mcmodel=medium is large data
! (.lbss; the plugin makes the common symbol a weak definition) and shared
! like the other globals: every thread of every node fills its part, and
! the sum over all of it, and elements written on the other nodes, are
! those of a plain build.
! ompc-nodes: 1 1x2 2x1
! ompc-options: -O2 -mcmodel=medium
! ompc-check: test "$(objdump -t %exe | awk '$NF == "blk_" {print $4}')" = .ompc_shared_lbss
! ompc-timeout: 60
program large_common
  implicit none
  integer, parameter :: n = 4 * 1024 * 1024
  double precision :: a(n)
  integer :: tag
  common /blk/ a, tag
  double precision :: s, want
  integer :: i, errors
  tag = 42
!$omp parallel do schedule(static)
  do i = 1, n
     a(i) = mod(i, 1000) + tag
  end do
!$omp end parallel do
  errors = 0
!$omp parallel do reduction(+:errors)
  do i = 1, n, n / 64 + 1
     if (a(n + 1 - i) /= mod(n + 1 - i, 1000) + 42) errors = errors + 1
  end do
!$omp end parallel do
  s = 0
!$omp parallel do reduction(+:s)
  do i = 1, n
     s = s + a(i)
  end do
!$omp end parallel do
  want = 0
  do i = 1, n
     want = want + mod(i, 1000) + 42
  end do
  print '(a, f0.0, a, f0.0, a, i0)', 'sum ', s, ' want ', want, ' errors ', errors
  if (s /= want .or. errors /= 0) stop 1
end program
