/* SPDX-License-Identifier: BSD-3-Clause */
/* ranks: 4 exit: 3 expect: rank 2 exited with status 3 stdout: rank 0 done
 * `return N` from main after MPI_Finalize is the rank's exit status, as
 * exit(N) is: simpi run exits with the first non-zero status of a rank
 * (a test harness must not report a failing test as passed). */
#include <mpi.h>
#include <stdio.h>

int main(int argc, char **argv) {
    int me;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &me);
    MPI_Barrier(MPI_COMM_WORLD);
    MPI_Finalize();
    if (me == 0) printf("rank 0 done\n");
    return me == 2 ? 3 : 0;
}
