/* SPDX-License-Identifier: BSD-3-Clause */
/* ranks: 2 exit: 3 expect: cycle: 0 -> 1 -> 0
 * Both ranks receive first: a deadlock, reported with its wait-for cycle. */
#include <mpi.h>

int main(int argc, char **argv) {
    int rank, v = 0;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Recv(&v, 1, MPI_INT, 1 - rank, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    MPI_Send(&v, 1, MPI_INT, 1 - rank, 0, MPI_COMM_WORLD);
    MPI_Finalize();
    return 0;
}
