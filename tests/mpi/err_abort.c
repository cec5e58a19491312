/* SPDX-License-Identifier: BSD-3-Clause */
/* ranks: 3 exit: 7 expect: MPI_Abort(comm 0, error code 7)
 * A rank that calls MPI_Abort stops the simulation with its error code. */
#include <mpi.h>

int main(int argc, char **argv) {
    int rank;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    if (rank == 1) MPI_Abort(MPI_COMM_WORLD, 7);
    MPI_Barrier(MPI_COMM_WORLD);
    MPI_Finalize();
    return 0;
}
