/* SPDX-License-Identifier: BSD-3-Clause */
/* ranks: 2 exit: 3 expect: called _Exit(3) before MPI_Finalize json: error
 * _Exit before MPI_Finalize is an error like exit(): the run stops with the
 * rank's status, and the summary and the JSON are still written. */
#include <mpi.h>
#include <stdlib.h>

int main(int argc, char **argv) {
    int me;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &me);
    if (me == 1) _Exit(3);
    MPI_Barrier(MPI_COMM_WORLD);
    MPI_Finalize();
    return 0;
}
