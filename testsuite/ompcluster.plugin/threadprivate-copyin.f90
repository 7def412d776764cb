! Threadprivate data across nodes: copyin of a COMMON block, an array, an
! allocatable array and a derived type, and copyprivate of a threadprivate
! array.  GCC hands the team the address of the master's thread-local copy
! for these; the plugin replaces it with a shared copy's address (without
! it, threads on other nodes read their own node's stale copy or crash).
! ompc-nodes: 1 1x2 2x1 2x2 3x1
! ompc-timeout: 60
module tp
  implicit none
  type pair
    integer :: k
    double precision :: v(3)
  end type pair
  integer, save :: arr(100)
  integer, allocatable, save :: heap(:)
  type (pair), save :: pr
!$omp threadprivate (arr, heap, pr)
end module tp

program threadprivate_copyin
  use omp_lib
  use tp
  implicit none
  integer :: a, b(8)
  character(len=12) :: label
  common /blk/ a, b, label
!$omp threadprivate (/blk/)
  integer :: i, errors, round

  errors = 0
  do round = 1, 3
    a = 10 * round
    b = [(i + round, i = 1, 8)]
    label = 'round'
    write (label(7:), '(i0)') round
    arr = [(i * round, i = 1, 100)]
    if (allocated (heap)) deallocate (heap)
    allocate (heap(-2:1000 * round))
    heap = [(i - round, i = -2, 1000 * round)]
    pr%k = round
    pr%v = [1d0, 2d0, 3d0] * round

!$omp parallel copyin (/blk/, arr, heap, pr) private (i) reduction (+:errors)
    if (a /= 10 * round) errors = errors + 1
    if (any (b /= [(i + round, i = 1, 8)])) errors = errors + 1
    if (label(1:5) /= 'round') errors = errors + 1
    if (any (arr /= [(i * round, i = 1, 100)])) errors = errors + 1
    if (.not. allocated (heap)) then
      errors = errors + 1
    else if (lbound (heap, 1) /= -2 .or. ubound (heap, 1) /= 1000 * round) then
      errors = errors + 1
    else if (any (heap /= [(i - round, i = -2, 1000 * round)])) then
      errors = errors + 1
    end if
    if (pr%k /= round .or. any (pr%v /= [1d0, 2d0, 3d0] * round)) &
      errors = errors + 1
    ! Every thread changes its own copy: the next round's copyin must
    ! bring the master's values again.
    a = -1
    arr = -1
    heap = -1
    pr%k = -1
!$omp end parallel
  end do

  ! copyprivate: the thread that runs the single gives its array to all.
!$omp parallel private (i) reduction (+:errors)
!$omp single
  arr = [(1000 + i, i = 1, 100)]
  a = omp_get_thread_num ()
!$omp end single copyprivate (arr, /blk/)
  if (any (arr /= [(1000 + i, i = 1, 100)])) errors = errors + 1
!$omp end parallel

  if (errors /= 0) then
    print *, 'errors ', errors
    stop 1
  end if
  print '(a)', 'OK'
end program threadprivate_copyin
