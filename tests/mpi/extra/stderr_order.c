/* SPDX-License-Identifier: BSD-3-Clause */
/* Lines on standard error and standard output from every rank at its own
 * virtual times (fprintf, and write() on the descriptors), which a split
 * run (tests/parallel/run-parallel-online) must write in the order one
 * process writes them: by virtual time, then rank. */
#include <mpi.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

int main(int argc, char **argv) {
    int rank, n;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &n);
    for (int step = 0; step < 3; step++) {
        usleep((unsigned)(5 * ((rank * 3 + step) % 4)));
        fprintf(stderr, "rank %d step %d on stderr\n", rank, step);
        char line[64];
        snprintf(line, sizeof line, "rank %d step %d by write(2)\n", rank, step);
        if (write(2, line, strlen(line)) < 0) return 1;
        printf("rank %d step %d on stdout\n", rank, step);
        MPI_Barrier(MPI_COMM_WORLD);
    }
    if (rank == 0) printf("No Errors\n");
    MPI_Finalize();
    return 0;
}
