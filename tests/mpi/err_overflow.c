/* SPDX-License-Identifier: BSD-3-Clause */
/* ranks: 2 options: --cpu=ignore exit: 1 expect: virtual time overflow on rank 1 json: error
 * Simulated time that cannot be represented stops the run (exit 1): rank 1
 * charges 5,000,000 s three times; the third would end at 15,000,000 s,
 * past the largest simulated time (2^63 - 1 ps = 9,223,372 s). */
#include <mpi.h>
#include <simpi.h>

int main(int argc, char **argv) {
    int me;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &me);
    if (me == 1)
        for (int i = 0; i < 3; i++)
            simpi_compute_seconds(5e6);
    MPI_Barrier(MPI_COMM_WORLD);
    MPI_Finalize();
    return 0;
}
