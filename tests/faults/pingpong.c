/* SPDX-License-Identifier: BSD-3-Clause */
/* Rank 0 and rank 1 exchange a message of SIZE bytes (argv[1], default 8)
 * then ROUNDS - 1 messages of 8 bytes back and forth (argv[2], default 10
 * round trips in all); rank 0 prints when the last reply arrived
 * (MPI_Wtime, virtual), to the picosecond. For the fault tests: a link
 * down under the route, a message in flight on a failing link. */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>

int main(int argc, char **argv) {
    MPI_Init(&argc, &argv);
    int rank;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    int size = argc > 1 ? atoi(argv[1]) : 8, rounds = argc > 2 ? atoi(argv[2]) : 10;
    char *buf = calloc((size_t)size, 1);
    for (int r = 0; r < rounds; r++) {
        int n = r == 0 ? size : 8;
        if (rank == 0) {
            MPI_Send(buf, n, MPI_CHAR, 1, r, MPI_COMM_WORLD);
            MPI_Recv(buf, 8, MPI_CHAR, 1, r, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
        } else if (rank == 1) {
            MPI_Recv(buf, n, MPI_CHAR, 0, r, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
            MPI_Send(buf, 8, MPI_CHAR, 0, r, MPI_COMM_WORLD);
        }
    }
    if (rank == 0) printf("last reply at %.12f s\n", MPI_Wtime());
    free(buf);
    MPI_Finalize();
    return 0;
}
