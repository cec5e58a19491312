! SPDX-License-Identifier: BSD-3-Clause
! A Fortran hybrid program (simpif90 -fopenmp): a parallel do whose time
! run-hybrid compares at 1 and 4 threads, and an allreduce inside an
! omp single (any thread: MPI_THREAD_SERIALIZED, which it is given).
program fomp
  use mpi
  use omp_lib
  implicit none
  integer :: ierr, me, provided, i
  double precision :: s, t0, t1
  call MPI_Init_thread(MPI_THREAD_SERIALIZED, provided, ierr)
  call MPI_Comm_rank(MPI_COMM_WORLD, me, ierr)
  s = 0
  t0 = MPI_Wtime()
  !$omp parallel do reduction(+:s)
  do i = 1, 40000000
     s = s + 1.0d0 / i
  end do
  !$omp end parallel do
  t1 = MPI_Wtime()
  !$omp parallel
  !$omp single
  call MPI_Allreduce(MPI_IN_PLACE, s, 1, MPI_DOUBLE_PRECISION, MPI_SUM, MPI_COMM_WORLD, ierr)
  !$omp end single
  !$omp end parallel
  if (me == 0) print '(a,f10.3,a,i2,a,f12.6,a,i2)', 'region ', (t1 - t0) * 1d3, ' ms, threads ', &
       omp_get_max_threads(), ' sum ', s, ' provided ', provided
  call MPI_Finalize(ierr)
end program
