! Fortran I/O from every node: internal WRITE into shared and private
! strings, PRINT, units each thread opens itself (NEWUNIT, and a number),
! and a unit the main program opened, used in a master construct (rank 0).
! The runtime's per-node unit check (plugin rewrite 8) lets all of these
! through; fortran-unit-missing.f90 checks the refusal.
! ompc-nodes: 1 1x2 2x1 2x2 3x1
! ompc-timeout: 60
! ompc-output: thread 0 of
program fortran_units
  use omp_lib
  implicit none
  character(len=16) :: shared_text(64)
  character(len=64) :: path, line
  integer :: t, u, u2, errors, main_unit, n

  errors = 0
  write (path, '(a,i0,a)') 'fortran-units-', getpid (), '.main'
  open (newunit = main_unit, file = path, status = 'replace')
!$omp parallel private (t, u, u2, path, line, n) reduction (+:errors)
  t = omp_get_thread_num ()
  n = omp_get_num_threads ()
  write (shared_text(t + 1), '(a,i0)') 'thread ', t
  if (t == 0) print '(a,i0,a,i0)', 'thread ', t, ' of ', n
  ! A unit of this thread's own, by NEWUNIT and by number.
  write (path, '(a,i0,a,i0)') 'fortran-units-', getpid (), '.', t
  open (newunit = u, file = path, status = 'replace')
  write (u, '(a,i0)') 'line of ', t
  rewind (u)
  read (u, '(a)') line
  close (u, status = 'delete')
  if (line /= 'line of ' // trim (adjustl (shared_text(t + 1)(8:)))) &
    errors = errors + 1
!$omp critical
  u2 = 40
  open (u2, file = trim (path) // 'b', status = 'replace')
  write (u2, *) t
  close (u2, status = 'delete')
!$omp end critical
!$omp master
  write (main_unit, '(a,i0)') 'threads ', n
!$omp end master
!$omp end parallel
  close (main_unit, status = 'delete')
  do t = 0, omp_get_max_threads () - 1
    write (line, '(a,i0)') 'thread ', t
    if (shared_text(t + 1) /= line) errors = errors + 1
  end do
  if (errors /= 0) then
    print *, 'errors ', errors
    stop 1
  end if
  print '(a)', 'OK'
end program fortran_units
