/* SPDX-License-Identifier: BSD-3-Clause */
/* ranks: 2 exit: 4 expect: returned from main without calling MPI_Finalize
 * Rank 1 leaves main without MPI_Finalize. */
#include <mpi.h>

int main(int argc, char **argv) {
    int rank;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    if (rank == 1) return 0;
    MPI_Finalize();
    return 0;
}
