! SPDX-License-Identifier: BSD-3-Clause
! ranks: 4 with: extra/f_mixed_c.c
! A program of Fortran and C files: Fortran passes its handles to C, which
! converts them with MPI_Comm_f2c, MPI_Request_f2c and MPI_Type_f2c; a
! request started in Fortran completes in C.
program f_mixed
  use mpi
  use iso_c_binding, only: c_int
  implicit none
  interface
     integer(c_int) function c_sum_ranks(comm) bind(C, name='c_sum_ranks')
       import :: c_int
       integer(c_int), intent(in) :: comm
     end function c_sum_ranks
     integer(c_int) function c_wait_count(req, type) bind(C, name='c_wait_count')
       import :: c_int
       integer(c_int), intent(inout) :: req
       integer(c_int), intent(in) :: type
     end function c_wait_count
  end interface
  integer :: ierr, rank, nranks, errs, total, req, got(3), mine(3)
  errs = 0
  call MPI_Init(ierr)
  call MPI_Comm_rank(MPI_COMM_WORLD, rank, ierr)
  call MPI_Comm_size(MPI_COMM_WORLD, nranks, ierr)
  if (c_sum_ranks(MPI_COMM_WORLD) /= nranks * (nranks - 1) / 2) errs = errs + 1
  mine = rank
  call MPI_Irecv(got, 3, MPI_INTEGER, mod(rank + nranks - 1, nranks), 5, MPI_COMM_WORLD, &
                 req, ierr)
  call MPI_Send(mine, 3, MPI_INTEGER, mod(rank + 1, nranks), 5, MPI_COMM_WORLD, ierr)
  if (c_wait_count(req, MPI_INTEGER) /= 3) errs = errs + 1
  if (req /= MPI_REQUEST_NULL) errs = errs + 1
  if (any(got /= mod(rank + nranks - 1, nranks))) errs = errs + 1
  call MPI_Reduce(errs, total, 1, MPI_INTEGER, MPI_SUM, 0, MPI_COMM_WORLD, ierr)
  if (rank == 0 .and. total == 0) print '(a)', 'No Errors'
  call MPI_Finalize(ierr)
end program f_mixed
