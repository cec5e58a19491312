/* SPDX-License-Identifier: BSD-3-Clause */
/* ranks: 3 exit: 134 expect: rank 1 aborted (SIGABRT: abort(), a failed assert() or an uncaught C++ exception) stdout: rank 2 printed this before rank 1 failed json: error
 * A failed assert() on one rank (SIGABRT) ends the run like any error: the
 * exit status is 128 + SIGABRT as under mpirun, every rank's buffered
 * output is flushed, and the summary and the JSON (status "error") are
 * written. */
#include <assert.h>
#include <mpi.h>
#include <stdio.h>

int main(int argc, char **argv) {
    int me;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &me);
    if (me == 2) printf("rank 2 printed this before rank 1 failed\n"); /* buffered: a file */
    MPI_Barrier(MPI_COMM_WORLD);
    assert(me != 1);
    MPI_Barrier(MPI_COMM_WORLD);
    MPI_Finalize();
    return 0;
}
