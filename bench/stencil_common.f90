! SPDX-License-Identifier: BSD-3-Clause
! The Fortran half of bench/fortran-stencil: a 5-point Jacobi sweep on a
! 64 MiB grid per rank (and its 64 MiB successor) kept in a COMMON block (as
! NAS kernels keep theirs),
! rows exchanged with the two neighbours each iteration. Prints a checksum
! so the C version (bench/stencil_globals.c) can be compared.
program stencil_common
  use mpi
  implicit none
  integer, parameter :: nx = 4096, ny = 2048, iters = 3
  double precision :: u(nx, 0:ny + 1), v(nx, 0:ny + 1)
  common /grid/ u, v
  integer :: ierr, rank, nranks, up, down, it, i, j
  integer :: status(MPI_STATUS_SIZE)
  double precision :: local, total
  call MPI_Init(ierr)
  call MPI_Comm_rank(MPI_COMM_WORLD, rank, ierr)
  call MPI_Comm_size(MPI_COMM_WORLD, nranks, ierr)
  up = mod(rank + 1, nranks)
  down = mod(rank + nranks - 1, nranks)
  do j = 0, ny + 1
     do i = 1, nx
        u(i, j) = rank + i * 1d-3 + j * 1d-6
     end do
  end do
  do it = 1, iters
     call MPI_Sendrecv(u(1, ny), nx, MPI_DOUBLE_PRECISION, up, 0, u(1, 0), nx, &
                       MPI_DOUBLE_PRECISION, down, 0, MPI_COMM_WORLD, status, ierr)
     call MPI_Sendrecv(u(1, 1), nx, MPI_DOUBLE_PRECISION, down, 1, u(1, ny + 1), nx, &
                       MPI_DOUBLE_PRECISION, up, 1, MPI_COMM_WORLD, status, ierr)
     do j = 1, ny
        v(1, j) = u(1, j)
        v(nx, j) = u(nx, j)
        do i = 2, nx - 1
           v(i, j) = 0.25d0 * (u(i - 1, j) + u(i + 1, j) + u(i, j - 1) + u(i, j + 1))
        end do
     end do
     u(:, 1:ny) = v(:, 1:ny)
  end do
  local = sum(u(:, 1:ny))
  call MPI_Reduce(local, total, 1, MPI_DOUBLE_PRECISION, MPI_SUM, 0, MPI_COMM_WORLD, ierr)
  if (rank == 0) print '(a, es22.15)', 'checksum ', total
  call MPI_Finalize(ierr)
end program stencil_common
