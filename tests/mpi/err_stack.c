/* SPDX-License-Identifier: BSD-3-Clause */
/* ranks: 2 options: --stack-size 64KiB exit: 139 expect: rank 1 overflowed its 64 KiB stack
 * Unbounded recursion on a rank hits the guard page below its stack. */
#include <mpi.h>

static int deep(volatile char *prev, int n) {
    volatile char frame[1024];
    frame[0] = prev ? prev[0] + 1 : 0;
    return n > 0 ? deep(frame, n - 1) + frame[0] : 0;
}

int main(int argc, char **argv) {
    int rank;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    if (rank == 1) deep(0, 1 << 20);
    MPI_Finalize();
    return 0;
}
