! The command line in Fortran on every node: ranks other than 0 never run
! the main program, which hands libgfortran argc and argv; the runtime does
! it for them (fortran.c), so COMMAND_ARGUMENT_COUNT, GET_COMMAND_ARGUMENT
! and GET_COMMAND give every thread the same answer.
! ompc-nodes: 1 1x2 2x1 2x2 3x1
! ompc-args: first 'second arg' 3
! ompc-timeout: 60
program fortran_args
  implicit none
  integer :: bad, n
  character(len=32) :: a1, a2, a3
  bad = 0
!$omp parallel private (a1, a2, a3, n) reduction (+:bad)
  n = command_argument_count ()
  call get_command_argument (1, a1)
  call get_command_argument (2, a2)
  call get_command_argument (3, a3)
  if (n /= 3 .or. a1 /= 'first' .or. a2 /= 'second arg' .or. a3 /= '3') then
    print '(a,i0,6a)', 'count ', n, ' args ', trim (a1), ' | ', trim (a2), &
      ' | ', trim (a3)
    bad = bad + 1
  end if
!$omp end parallel
  if (bad /= 0) stop 1
  print '(a)', 'OK'
end program fortran_args
