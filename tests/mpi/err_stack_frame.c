/* SPDX-License-Identifier: BSD-3-Clause */
/* ranks: 2 options: --stack-size 64KiB exit: 139 expect: rank 1 overflowed its 64 KiB stack
 * A single frame larger than the stack (a 200 KiB local array with a 64 KiB
 * stack) is caught as an overflow of the rank that made it, not as damage
 * to the neighbouring rank's stack: simpicc compiles with
 * -fstack-clash-protection and the guard regions are large. */
#include <mpi.h>
#include <stdio.h>
#include <string.h>

static int big_frame(void) {
    volatile char local[200 * 1024];
    local[0] = 1; /* the far end first: the probes must fault before this */
    local[sizeof local - 1] = 2;
    return local[0] + local[sizeof local - 1];
}

int main(int argc, char **argv) {
    int me;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &me);
    MPI_Barrier(MPI_COMM_WORLD);
    if (me == 1) printf("%d\n", big_frame());
    MPI_Barrier(MPI_COMM_WORLD);
    MPI_Finalize();
    return 0;
}
