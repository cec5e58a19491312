/* SPDX-License-Identifier: BSD-3-Clause */
/* The C half of tests/mpi/f_mixed.f90: functions a Fortran program calls,
 * receiving Fortran handles and converting them (MPI_Comm_f2c,
 * MPI_Request_f2c, MPI_Type_f2c). */
#include <mpi.h>

/* The sum of the ranks of a Fortran communicator, by a C allreduce. */
int c_sum_ranks(const MPI_Fint *fcomm) {
    MPI_Comm comm = MPI_Comm_f2c(*fcomm);
    int rank, sum = -1;
    MPI_Comm_rank(comm, &rank);
    MPI_Allreduce(&rank, &sum, 1, MPI_INT, MPI_SUM, comm);
    return sum;
}

/* Waits in C for a request the Fortran program started; returns the
 * message's count in elements of the Fortran datatype. */
int c_wait_count(MPI_Fint *freq, const MPI_Fint *ftype) {
    MPI_Request req = MPI_Request_f2c(*freq);
    MPI_Status st;
    int count = -1;
    MPI_Wait(&req, &st);
    MPI_Get_count(&st, MPI_Type_f2c(*ftype), &count);
    *freq = MPI_Request_c2f(req); /* MPI_REQUEST_NULL now */
    return count;
}
