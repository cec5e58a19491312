/* SPDX-License-Identifier: BSD-3-Clause */
/* Ranks that compute and exchange until stopped (issue 45): each round
 * of work ends with an allreduce; rank 0 creates the file named by its
 * argument once the loop has started, for tests that wait for that state. */
#include <mpi.h>
#include <stdio.h>

int main(int argc, char **argv) {
    int rank;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    volatile double x = 0;
    for (long round = 0;; round++) {
        for (long i = 0; i < 200000; i++)
            x += 1e-9 * (double)i;
        double s = x, sum = 0;
        MPI_Allreduce(&s, &sum, 1, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
        if (round == 10 && rank == 0 && argc > 1) {
            FILE *f = fopen(argv[1], "w");
            if (f) fclose(f);
        }
    }
    MPI_Finalize();
    return 0;
}
