! SPDX-License-Identifier: BSD-3-Clause
! A large Fortran COMMON block (800 KB) built with -mcmodel=medium, where
! it lands in .lbss: each rank writes its rank into it, then checks that it
! reads back its own value, as separate processes would. Prints
! "common ok" on every rank (tests/privatize/run-privatize).
program large_common
  use mpi
  implicit none
  double precision :: field(100000)
  common /big/ field
  integer :: rank, ierr
  call mpi_init(ierr)
  call mpi_comm_rank(mpi_comm_world, rank, ierr)
  field(7) = field(7) + rank + 1
  call mpi_barrier(mpi_comm_world, ierr)
  if (field(7) == rank + 1) then
    print '(a)', 'common ok'
  else
    print '(a,i0,a,f8.1)', 'rank ', rank, ': common block holds ', field(7)
  end if
  call mpi_finalize(ierr)
end program large_common
