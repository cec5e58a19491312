! SPDX-License-Identifier: BSD-3-Clause
! ranks: 2 options: --cpu=ignore cflags: -fopenmp
! Fortran's omp_lib clock (omp_get_wtime_) reads the rank's virtual time as
! MPI_Wtime does, and MPI_Init_thread gives MPI_THREAD_FUNNELED to a program
! asking for it. Prints "No Errors" when all checks pass.
program f_omp_wtime
  use mpi
  use omp_lib
  implicit none
  integer :: ierr, provided, rank, errs, total
  double precision :: t0
  errs = 0
  call MPI_Init_thread(MPI_THREAD_FUNNELED, provided, ierr)
  call MPI_Comm_rank(MPI_COMM_WORLD, rank, ierr)
  if (provided /= MPI_THREAD_FUNNELED) errs = errs + 1
  t0 = omp_get_wtime()
  if (t0 /= MPI_Wtime()) errs = errs + 1
  call MPI_Barrier(MPI_COMM_WORLD, ierr)
  if (omp_get_wtime() /= MPI_Wtime()) errs = errs + 1
  if (omp_get_wtick() /= 1d-12) errs = errs + 1
  call MPI_Allreduce(errs, total, 1, MPI_INTEGER, MPI_SUM, MPI_COMM_WORLD, ierr)
  if (rank == 0 .and. total == 0) print '(a)', 'No Errors'
  call MPI_Finalize(ierr)
end program f_omp_wtime
