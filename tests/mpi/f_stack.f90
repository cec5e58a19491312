! SPDX-License-Identifier: BSD-3-Clause
! sanitizers: skip ranks: 2 options: --stack-size 256KiB exit: 139 expect: overflowed its 256 KiB stack
! A Fortran rank whose local array does not fit its stack gets simpi's
! message naming the stack and --stack-size (simpif90 compiles with
! -fno-backtrace, so libgfortran's handler does not replace simpi's).
recursive subroutine work(n, s)
  implicit none
  integer, intent(in) :: n
  double precision, intent(out) :: s
  double precision :: a(200000)
  integer :: i
  do i = 1, 200000
     a(i) = i * n
  end do
  s = sum(a)
end subroutine work

program f_stack
  use mpi
  implicit none
  integer :: ierr, rank
  double precision :: s
  call MPI_Init(ierr)
  call MPI_Comm_rank(MPI_COMM_WORLD, rank, ierr)
  call work(rank + 1, s)
  print *, s
  call MPI_Finalize(ierr)
end program f_stack
