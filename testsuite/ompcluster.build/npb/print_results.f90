! print_results.f90 -- prints the NPB-style summary of the kernel (a
! separate unit, as NPB's common/print_results.f).
subroutine print_results(name, threads, verified)
  implicit none
  character(len=*), intent(in) :: name
  integer, intent(in) :: threads
  logical, intent(in) :: verified
  write (*, '(1x, a, a)') trim(name), ' Benchmark Completed.'
  write (*, '(1x, a, i4)') 'Threads        = ', threads
  if (verified) then
    write (*, '(1x, a)') 'Verification    =               SUCCESSFUL'
  else
    write (*, '(1x, a)') 'Verification    =             UNSUCCESSFUL'
  end if
end subroutine print_results
