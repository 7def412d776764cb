! Unformatted I/O of shared data that other nodes wrote: libgfortran hands
! large arrays and strings straight to write(2) and read(2), which fail
! with EFAULT ("Bad address") on a shared page this node holds invalid or
! read-only; the plugin has the runtime touch the pages first.  Covers a
! whole array, a strided section, a string, READ into a fresh ALLOCATE and
! into data other nodes hold, and sequential and stream access.
! ompc-nodes: 1 1x2 2x1 2x2 3x1
! ompc-timeout: 60
! ompc-check: nm %exe | grep -Eq ' U ompc_gfortran_io_array(@.*)?$'
module io_data
  implicit none
  integer, parameter :: n = 200000
  real(8) :: fixed(n)
  character(len=30000) :: text
end module io_data

program fortran_io
  use io_data
  implicit none
  real(8), allocatable :: a(:), b(:), c(:,:)
  character(len=64) :: path
  integer :: i, u, errors

  write (path, '(a,i0,a)') 'fortran-io-', getpid (), '.dat'
  allocate (a(n), c(4, n / 4))
!$omp parallel do
  do i = 1, n
    a(i) = i * 0.5d0
    fixed(i) = -i
  end do
!$omp parallel do
  do i = 1, len (text)
    text(i:i) = achar (65 + mod (i, 26))
  end do
!$omp parallel do
  do i = 1, n / 4
    c(:, i) = [1d0, 2d0, 3d0, 4d0] * i
  end do

  open (newunit = u, file = path, form = 'unformatted', access = 'stream', &
        status = 'replace')
  write (u) a
  write (u) fixed(1:n:2)
  write (u) text
  write (u) c(2, :)
  close (u)

  ! Other nodes write over the arrays before they are read back.
!$omp parallel do
  do i = 1, n
    fixed(i) = 0
  end do
  text = ' '
  allocate (b(n))
  open (newunit = u, file = path, form = 'unformatted', access = 'stream', &
        status = 'old')
  read (u) b
  read (u) fixed(2:n:2)
  read (u) text
  read (u) a(1:n / 4)
  close (u, status = 'delete')

  errors = 0
!$omp parallel do reduction (+:errors)
  do i = 1, n
    if (b(i) /= i * 0.5d0) errors = errors + 1
    if (mod (i, 2) == 0 .and. fixed(i) /= -(i - 1)) errors = errors + 1
    if (mod (i, 2) == 1 .and. fixed(i) /= 0) errors = errors + 1
    if (i <= len (text)) then
      if (text(i:i) /= achar (65 + mod (i, 26))) errors = errors + 1
    end if
    if (i <= n / 4) then
      if (a(i) /= 2d0 * i) errors = errors + 1
    end if
  end do

  ! Sequential access, records written and read on the master.
  open (newunit = u, file = path, form = 'unformatted', status = 'replace')
  write (u) c
!$omp parallel do
  do i = 1, n / 4
    c(:, i) = -1
  end do
  rewind (u)
  read (u) c
  close (u, status = 'delete')
!$omp parallel do reduction (+:errors)
  do i = 1, n / 4
    if (any (c(:, i) /= [1d0, 2d0, 3d0, 4d0] * i)) errors = errors + 1
  end do

  if (errors /= 0) then
    print *, 'errors ', errors
    stop 1
  end if
  print '(a)', 'OK'
end program fortran_io
