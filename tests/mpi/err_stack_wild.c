/* SPDX-License-Identifier: BSD-3-Clause */
/* sanitizers: skip ranks: 2 options: --stack-size 64KiB exit: 139 expect: rank 0 crashed (Segmentation fault at address
 * Rank 0 reads past the top of its own stack into the guard region of the
 * next rank's stack: the report blames rank 0 (the reader), not rank 1. */
#include <mpi.h>
#include <stdio.h>

static long read_up(volatile char *p) {
    long sum = 0;
    for (;;)
        sum += *p++;
    return sum;
}

int main(int argc, char **argv) {
    int me;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &me);
    MPI_Barrier(MPI_COMM_WORLD);
    volatile char here = 0;
    if (me == 0) printf("%ld\n", read_up(&here));
    MPI_Barrier(MPI_COMM_WORLD);
    MPI_Finalize();
    return 0;
}
