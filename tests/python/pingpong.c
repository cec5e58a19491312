/* SPDX-License-Identifier: BSD-3-Clause */
/* One 1000-byte message from rank 0 to rank 1, which prints "pong" (the
 * Python package's test of simpi.run). */
#include <mpi.h>
#include <stdio.h>

int main(int argc, char **argv) {
    char buf[1000] = {0};
    int rank;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    if (rank == 0) MPI_Send(buf, 1000, MPI_CHAR, 1, 0, MPI_COMM_WORLD);
    if (rank == 1) {
        MPI_Recv(buf, 1000, MPI_CHAR, 0, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
        printf("pong\n");
    }
    MPI_Finalize();
    return 0;
}
