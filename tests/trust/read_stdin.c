/* SPDX-License-Identifier: BSD-3-Clause */
/* Rank 0 prints the first line of its standard input ("EOF" at its end):
 * what each of simpi run --repeat's runs reads (tests/trust/run-trust3). */
#include <mpi.h>
#include <stdio.h>

int main(int argc, char **argv) {
    MPI_Init(&argc, &argv);
    int rank;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    if (rank == 0) {
        char line[128];
        if (!fgets(line, sizeof line, stdin)) snprintf(line, sizeof line, "EOF\n");
        printf("read: %s", line);
    }
    return MPI_Finalize();
}
