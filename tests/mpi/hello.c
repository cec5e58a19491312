/* SPDX-License-Identifier: BSD-3-Clause */
/* ranks: 4
 * Smallest check of the on-line front end: every rank learns its rank and
 * the size, rank 0 sums the ranks with MPI_Reduce and checks the result. */
#include <mpi.h>
#include <stdio.h>

int main(int argc, char **argv) {
    int rank, size, sum = -1, errors = 0;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    MPI_Reduce(&rank, &sum, 1, MPI_INT, MPI_SUM, 0, MPI_COMM_WORLD);
    if (rank == 0 && sum != size * (size - 1) / 2) errors++;
    if (rank == 0) printf(errors ? "Found %d errors\n" : "No Errors\n", errors);
    MPI_Finalize();
    return 0;
}
