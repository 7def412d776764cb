! A 20 MB threadprivate COMMON block: glibc carves each thread's
! thread-local storage out of its stack, so the module's own threads
! (service, heartbeat, watchdog) and the workers, whose stacks it sizes
! itself with several nodes, must leave room for it (the service thread
! could not start: "cannot start the service thread").
! ompc-nodes: 1 1x2 2x1 2x2 3x1
! ompc-output: threads ok
! ompc-timeout: 60
program threadprivate_large
  use omp_lib
  implicit none
  double precision :: big(2500000)
  common /blk/ big
!$omp threadprivate (/blk/)
  integer :: bad, n
  bad = 0
  n = 0
!$omp parallel reduction(+:bad,n)
  big(1) = omp_get_thread_num ()
  big(2500000) = omp_get_thread_num () + 1
  if (big(1) /= omp_get_thread_num ()) bad = bad + 1
  if (big(2500000) /= omp_get_thread_num () + 1) bad = bad + 1
  n = n + 1
!$omp end parallel
  if (bad /= 0 .or. n /= omp_get_max_threads ()) then
    print *, 'wrong:', bad, n
    stop 1
  end if
  print *, 'threads ok'
end program
