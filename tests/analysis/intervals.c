/* SPDX-License-Identifier: BSD-3-Clause */
/* Intervals marked in a program: each rank enters "iter" three times
 * (computing 10 us x (rank + 1) and a barrier each time), then an interval
 * by MPI_Pcontrol(1) ... MPI_Pcontrol(0); rank 1 ends one interval too many.
 * run-analysis checks the report: "iter" has 3 entries per rank and
 * 30 / 60 us of computation; "MPI_Pcontrol(1)" 5 us per rank; one
 * unbalanced mark is reported. */
#include <mpi.h>
#include <simpi.h>

int main(int argc, char **argv) {
    int rank;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    for (int i = 0; i < 3; i++) {
        SIMPI_INTERVAL_BEGIN("iter");
        simpi_compute_seconds(10e-6 * (rank + 1));
        MPI_Barrier(MPI_COMM_WORLD);
        SIMPI_INTERVAL_END();
    }
    MPI_Pcontrol(1);
    simpi_compute_seconds(5e-6);
    MPI_Pcontrol(0);
    if (rank == 1) SIMPI_INTERVAL_END();
    MPI_Finalize();
    return 0;
}
