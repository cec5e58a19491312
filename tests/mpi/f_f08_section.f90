! SPDX-License-Identifier: BSD-3-Clause
! ranks: 2 exit: 4 expect: mpi_f08: a non-contiguous array section as a buffer
! mpi_f08 with MPI_SUBARRAYS_SUPPORTED = .false.: a strided section given
! as a buffer is refused with a message, not sent from its first element on.
program f08_section
    use mpi_f08
    implicit none
    integer :: rank, a(10)
    call MPI_Init()
    call MPI_Comm_rank(MPI_COMM_WORLD, rank)
    a = rank
    if (.not. MPI_SUBARRAYS_SUPPORTED) call MPI_Bcast(a(1:10:2), 5, MPI_INTEGER, 0, MPI_COMM_WORLD)
    call MPI_Finalize()
end program f08_section
