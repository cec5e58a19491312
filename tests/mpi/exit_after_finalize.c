/* SPDX-License-Identifier: BSD-3-Clause */
/* ranks: 4
 * The common ending "MPI_Finalize(); exit(0);": each rank's exit ends only
 * that rank, so every rank still finishes and rank 3, the last to run,
 * prints the result. */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>

int main(int argc, char **argv) {
    int rank, size, sum = 0;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    MPI_Allreduce(&rank, &sum, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
    MPI_Finalize();
    if (rank == size - 1) printf(sum == size * (size - 1) / 2 ? "No Errors\n" : "Found 1 errors\n");
    exit(0);
}
