/* SPDX-License-Identifier: BSD-3-Clause */
/* Runs until stopped: every rank computes and meets the others in a
 * barrier, forever (for the tests of signals and of --trace-out's partial
 * traces). */
#include <mpi.h>
#include <stdio.h>

int main(int argc, char **argv) {
    MPI_Init(&argc, &argv);
    volatile double x = 0;
    for (long i = 0;; i++) {
        for (int k = 0; k < 20000; k++)
            x += k * 1e-9;
        MPI_Barrier(MPI_COMM_WORLD);
        if (i == 0) {
            printf("spinning\n");
            fflush(stdout);
        }
    }
    MPI_Finalize();
    return 0;
}
