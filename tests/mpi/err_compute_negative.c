/* SPDX-License-Identifier: BSD-3-Clause */
/* ranks: 2 exit: 4 expect: simpi_compute_seconds(-1): expected a finite amount, zero or more
 * A negative explicit computation (a computed duration gone wrong) is the
 * program's error, named, never silently ignored (issue 45). */
#include <mpi.h>
#include <simpi.h>

int main(int argc, char **argv) {
    int rank;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    simpi_compute_seconds(rank == 1 ? -1.0 : 1e-3);
    MPI_Barrier(MPI_COMM_WORLD);
    MPI_Finalize();
    return 0;
}
