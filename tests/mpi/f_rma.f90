! SPDX-License-Identifier: BSD-3-Clause
! ranks: 4
! One-sided communication from Fortran: each rank puts its row into its
! right neighbour's window (a COMMON block, every rank's own) under
! fences, accumulates its rank into rank 0's counter, and reads its left
! neighbour's row back with MPI_Get under a shared lock.
program f_rma
  use mpi
  implicit none
  double precision :: row(8), halo(8)
  double precision :: counter(1)
  common /shared/ row, halo, counter
  double precision :: got(8)
  double precision :: one(1)
  integer :: ierr, rank, nranks, left, right, win, cwin, errs, total, i
  integer(kind=MPI_ADDRESS_KIND) :: size, disp
  errs = 0
  call MPI_Init(ierr)
  call MPI_Comm_rank(MPI_COMM_WORLD, rank, ierr)
  call MPI_Comm_size(MPI_COMM_WORLD, nranks, ierr)
  left = mod(rank + nranks - 1, nranks)
  right = mod(rank + 1, nranks)
  do i = 1, 8
    row(i) = rank * 100 + i
    halo(i) = -1
  end do
  counter(1) = 0
  size = 16 * 8
  call MPI_Win_create(row, size, 8, MPI_INFO_NULL, MPI_COMM_WORLD, win, ierr)
  size = 8
  call MPI_Win_create(counter, size, 8, MPI_INFO_NULL, MPI_COMM_WORLD, cwin, ierr)
  call MPI_Win_fence(0, win, ierr)
  disp = 8 ! halo follows row in the COMMON block
  call MPI_Put(row, 8, MPI_DOUBLE_PRECISION, right, disp, 8, MPI_DOUBLE_PRECISION, win, ierr)
  call MPI_Win_fence(0, win, ierr)
  do i = 1, 8
    if (halo(i) /= left * 100 + i) errs = errs + 1
  end do
  one(1) = rank + 1
  disp = 0
  call MPI_Win_lock(MPI_LOCK_SHARED, 0, 0, cwin, ierr)
  call MPI_Accumulate(one, 1, MPI_DOUBLE_PRECISION, 0, disp, 1, MPI_DOUBLE_PRECISION, &
                      MPI_SUM, cwin, ierr)
  call MPI_Win_unlock(0, cwin, ierr)
  call MPI_Win_lock(MPI_LOCK_SHARED, left, 0, win, ierr)
  call MPI_Get(got, 8, MPI_DOUBLE_PRECISION, left, disp, 8, MPI_DOUBLE_PRECISION, win, ierr)
  call MPI_Win_unlock(left, win, ierr)
  do i = 1, 8
    if (got(i) /= left * 100 + i) errs = errs + 1
  end do
  call MPI_Barrier(MPI_COMM_WORLD, ierr)
  if (rank == 0 .and. counter(1) /= nranks * (nranks + 1) / 2) errs = errs + 1
  call MPI_Win_free(cwin, ierr)
  call MPI_Win_free(win, ierr)
  call MPI_Reduce(errs, total, 1, MPI_INTEGER, MPI_SUM, 0, MPI_COMM_WORLD, ierr)
  if (rank == 0 .and. total == 0) print '(A)', 'No Errors'
  if (rank == 0 .and. total /= 0) print '(A,I0)', 'errors: ', total
  call MPI_Finalize(ierr)
end program f_rma
