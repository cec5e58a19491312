/* SPDX-License-Identifier: BSD-3-Clause */
/* sanitizers: skip ranks: 2 exit: 139 expect: a buffer given to MPI is shorter than its count and datatype say
 * A sender whose count reaches 4 MiB past a 64-byte array of its stack
 * (issue 45): the copy faults in the guard region beyond that stack, while
 * the message is delivered to rank 1. That is no stack overflow of rank
 * 1's (the message once said so, and to rerun with a larger stack): the
 * stack pointer is nowhere near its stack's bottom. */
#include <mpi.h>
#include <stdlib.h>

int main(int argc, char **argv) {
    int rank, n = 4 << 20;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    char small[64] = {0};
    if (rank == 0) MPI_Send(small, n, MPI_CHAR, 1, 0, MPI_COMM_WORLD);
    if (rank == 1) {
        char *big = malloc((size_t)n);
        MPI_Recv(big, n, MPI_CHAR, 0, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
        free(big);
    }
    MPI_Finalize();
    return 0;
}
