/* SPDX-License-Identifier: BSD-3-Clause */
/* Split-run test (run-parallel-online): the ranks pass a token around a
 * ring for as many rounds as argv[1] says (default 1,000,000), so that a
 * run over several workers exchanges at every window for a long time; a
 * worker killed meanwhile must end the run. Prints "No Errors" at the end. */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>

int main(int argc, char **argv) {
    int rank, size;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    long rounds = argc > 1 ? atol(argv[1]) : 1000000;
    int token = 0;
    for (long i = 0; i < rounds; i++) {
        if (rank == 0) {
            MPI_Send(&token, 1, MPI_INT, (rank + 1) % size, 0, MPI_COMM_WORLD);
            MPI_Recv(&token, 1, MPI_INT, size - 1, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
        } else {
            MPI_Recv(&token, 1, MPI_INT, rank - 1, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
            token++;
            MPI_Send(&token, 1, MPI_INT, (rank + 1) % size, 0, MPI_COMM_WORLD);
        }
    }
    if (rank == 0) printf(token == (int)(rounds * (size - 1)) ? "No Errors\n" : "wrong token\n");
    MPI_Finalize();
    return 0;
}
