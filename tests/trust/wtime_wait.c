/* SPDX-License-Identifier: BSD-3-Clause */
/* Waits for MPI_Wtime to advance by 1 ms while doing nothing else: under
 * --cpu=ignore virtual time never moves there, so simpi must stop the run
 * with a message saying why instead of spinning forever. */
#include <mpi.h>
#include <stdio.h>

int main(int argc, char **argv) {
    MPI_Init(&argc, &argv);
    double start = MPI_Wtime();
    while (MPI_Wtime() < start + 1e-3)
        ;
    printf("waited\n");
    MPI_Finalize();
    return 0;
}
