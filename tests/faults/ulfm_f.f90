! SPDX-License-Identifier: BSD-3-Clause
! ULFM from Fortran (use mpi): MPI_ERRORS_RETURN, an allreduce that fails
! once a node crashed (MPIX_ERR_PROC_FAILED), then MPIX_Comm_failure_ack,
! MPIX_Comm_shrink and MPIX_Comm_agree; rank 0 of the survivors prints
! their count and the agreed flags.
program ulfm_f
    use mpi
    implicit none
    integer :: ierr, rank, nsurv, shrunk, cls, flags
    double precision :: one, total
    call MPI_Init(ierr)
    call MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN, ierr)
    call MPI_Comm_rank(MPI_COMM_WORLD, rank, ierr)
    one = 1
    call MPI_Allreduce(one, total, 1, MPI_DOUBLE_PRECISION, MPI_SUM, MPI_COMM_WORLD, ierr)
    call MPI_Error_class(ierr, cls, ierr)
    if (cls /= MPIX_ERR_PROC_FAILED) then
        print *, 'expected MPIX_ERR_PROC_FAILED, got', cls
        call MPI_Abort(MPI_COMM_WORLD, 2, ierr)
    end if
    call MPIX_Comm_failure_ack(MPI_COMM_WORLD, ierr)
    call MPIX_Comm_shrink(MPI_COMM_WORLD, shrunk, ierr)
    flags = 6
    call MPIX_Comm_agree(shrunk, flags, ierr)
    call MPI_Comm_size(shrunk, nsurv, ierr)
    call MPI_Comm_rank(shrunk, rank, ierr)
    if (rank == 0) print '(a,i0,a,i0)', 'survivors ', nsurv, ' agreed ', flags
    call MPI_Finalize(ierr)
end program ulfm_f
