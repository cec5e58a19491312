! SPDX-License-Identifier: BSD-3-Clause
! ranks: 2 options: --cpu=ignore --set nodes=2 --set cores_per_node=1 --set inter.model=affine --set inter.latency=10us --set inter.bandwidth=100MB/s
! A Fortran ping-pong through mpif.h's bindings, timed by the model:
! T(S) = 10 us + S x 10 ns between the two nodes. 10 round trips of
! 250 INTEGERs (1000 bytes, eager) cost 10 x 2 x T(1000) = 10 x 2 x 20 us
! = 400 us; the status carries the source, the tag and the count.
program f_pingpong
  implicit none
  include 'mpif.h'
  integer :: ierr, rank, i, count, errs, total
  integer :: buf(250), status(MPI_STATUS_SIZE)
  double precision :: t0, elapsed
  errs = 0
  call MPI_Init(ierr)
  call MPI_Comm_rank(MPI_COMM_WORLD, rank, ierr)
  buf = rank
  t0 = MPI_Wtime()
  do i = 1, 10
     if (rank == 0) then
        call MPI_Send(buf, 250, MPI_INTEGER, 1, i, MPI_COMM_WORLD, ierr)
        call MPI_Recv(buf, 250, MPI_INTEGER, 1, i, MPI_COMM_WORLD, status, ierr)
     else
        call MPI_Recv(buf, 250, MPI_INTEGER, 0, i, MPI_COMM_WORLD, status, ierr)
        call MPI_Send(buf, 250, MPI_INTEGER, 0, i, MPI_COMM_WORLD, ierr)
     end if
     call MPI_Get_count(status, MPI_INTEGER, count, ierr)
     if (status(MPI_SOURCE) /= 1 - rank .or. status(MPI_TAG) /= i .or. count /= 250) then
        errs = errs + 1
     end if
  end do
  elapsed = MPI_Wtime() - t0
  if (rank == 0 .and. abs(elapsed - 400d-6) > 1d-12) then
     print *, 'rank 0: 10 round trips took', elapsed, 's, expected 400 us'
     errs = errs + 1
  end if
  call MPI_Reduce(errs, total, 1, MPI_INTEGER, MPI_SUM, 0, MPI_COMM_WORLD, ierr)
  if (rank == 0 .and. total == 0) print '(a)', 'No Errors'
  call MPI_Finalize(ierr)
end program f_pingpong
