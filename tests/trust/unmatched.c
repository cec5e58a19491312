/* SPDX-License-Identifier: BSD-3-Clause */
/* An eager send that nobody receives (issue 45): it was sent, and counts
 * so in the summary and the JSON (msgs_sent 1, bytes_sent 4). */
#include <mpi.h>
int main(int argc, char **argv) {
    int rank, v = 7;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    if (rank == 0) MPI_Send(&v, 1, MPI_INT, 1, 0, MPI_COMM_WORLD);
    MPI_Finalize();
    return 0;
}
