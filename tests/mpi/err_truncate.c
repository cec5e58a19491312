/* SPDX-License-Identifier: BSD-3-Clause */
/* ranks: 2 exit: 4 expect: MPI_Recv: a message of 8 bytes from rank 0 (tag 3) arrived in a receive
 * of 4 bytes A truncated message under the default MPI_ERRORS_ARE_FATAL. */
#include <mpi.h>

int main(int argc, char **argv) {
    int rank, v[2] = {1, 2};
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    if (rank == 0)
        MPI_Send(v, 2, MPI_INT, 1, 3, MPI_COMM_WORLD);
    else
        MPI_Recv(v, 1, MPI_INT, 0, 3, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    MPI_Finalize();
    return 0;
}
