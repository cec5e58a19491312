/* SPDX-License-Identifier: BSD-3-Clause */
/* sanitizers: skip ranks: 33000 options: --stack-size 16KiB --cpu=ignore exit: 139 expect: rank 1 overflowed its 16 KiB stack
 * At 33,000 ranks the stacks have no guard regions (two map entries per
 * rank would pass vm.max_map_count): rank 1 recurses about 3 KiB past the
 * bottom of its 16 KiB stack and returns, between two switches. What lies
 * below its stack (64 bytes, then the unused page above rank 0's stack)
 * is no longer zero, and the run says so when rank 1 finishes. */
#include <mpi.h>

static int deep(volatile char *prev, int n) {
    volatile char frame[1000];
    frame[0] = prev ? prev[0] + 1 : 1;
    return n > 0 ? deep(frame, n - 1) + frame[0] : 0;
}

int main(int argc, char **argv) {
    int rank;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    if (rank == 1) deep(0, 18);
    MPI_Finalize();
    return 0;
}
