! SPDX-License-Identifier: BSD-3-Clause
! ranks: 64
! Fortran's per-rank state: a COMMON block, a SAVEd variable and a module
! variable are each rank's own (privatized like C globals), so that a ring
! exchange of 4096-element COMMON arrays at 64 ranks leaves every rank its
! own data and its neighbour's in the right places.
module f_common_state
  implicit none
  integer :: calls = 0
end module f_common_state

subroutine bump(count)
  use f_common_state
  implicit none
  integer, intent(out) :: count
  integer, save :: saved = 0
  saved = saved + 1
  calls = calls + 1
  count = saved + calls
end subroutine bump

program f_common
  use mpi
  use f_common_state
  implicit none
  integer :: grid(4096), halo(4096)
  common /field/ grid, halo
  integer :: ierr, rank, nranks, left, right, errs, total, count, i
  integer :: status(MPI_STATUS_SIZE)
  errs = 0
  call MPI_Init(ierr)
  call MPI_Comm_rank(MPI_COMM_WORLD, rank, ierr)
  call MPI_Comm_size(MPI_COMM_WORLD, nranks, ierr)
  left = mod(rank + nranks - 1, nranks)
  right = mod(rank + 1, nranks)
  do i = 1, 4096
     grid(i) = rank * 10000 + i
  end do
  call MPI_Barrier(MPI_COMM_WORLD, ierr) ! every rank has written its grid
  call MPI_Sendrecv(grid, 4096, MPI_INTEGER, right, 0, halo, 4096, MPI_INTEGER, left, 0, &
                    MPI_COMM_WORLD, status, ierr)
  do i = 1, 4096
     if (grid(i) /= rank * 10000 + i) errs = errs + 1
     if (halo(i) /= left * 10000 + i) errs = errs + 1
  end do
  do i = 1, rank + 1 ! rank r bumps r + 1 times: saved = calls = r + 1
     call bump(count)
  end do
  if (count /= 2 * (rank + 1)) errs = errs + 1
  call MPI_Reduce(errs, total, 1, MPI_INTEGER, MPI_SUM, 0, MPI_COMM_WORLD, ierr)
  if (rank == 0 .and. total == 0) print '(a)', 'No Errors'
  if (rank == 0 .and. total /= 0) print *, total, 'errors'
  call MPI_Finalize(ierr)
end program f_common
