! A WRITE on another node to a unit only the main program (rank 0) opened:
! libgfortran there would silently connect a new file fort.10; the runtime
! ends the job with a message naming the unit, the source line and what to
! do (plugin rewrite 8).  fortran-units.f90 has the I/O that works.
! ompc-nodes: 2x1 2x2
! ompc-timeout: 60
! ompc-exit: 1
! ompc-output: rank 1 thread [0-9]+: fatal error: Fortran unit 10 \(.*fortran-unit-missing.f90:20\) is not open on this node
! ompc-no-output: OK
program fortran_unit_missing
  use omp_lib
  implicit none
  integer :: n
  n = 0
  open (10, status = 'scratch')
!$omp parallel reduction (+:n)
  n = n + 1
  if (omp_get_thread_num () == omp_get_num_threads () - 1) then
    ! The last thread runs on the last node.
    write (10, *) 'thread ', omp_get_thread_num ()
  end if
!$omp end parallel
  close (10)
  print '(a)', 'OK'
end program fortran_unit_missing
