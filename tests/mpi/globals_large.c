/* SPDX-License-Identifier: BSD-3-Clause */
/* ranks: 4
 * Large static arrays (8 MiB here) are private to each rank, without a copy
 * of them at every switch: each rank fills its own array, receives a
 * neighbour's block into it while not running, and finds its own values. */
#include <mpi.h>
#include <stdio.h>

#define N (1 << 20)
static double big[N];
int me_global = -1;

int main(int argc, char **argv) {
    int me, size, errors = 0;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &me);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    me_global = me;
    for (int i = 0; i < N; i++)
        big[i] = me + i * 1e-7;
    MPI_Request req;
    MPI_Irecv(big + N - 1024, 1024, MPI_DOUBLE, (me + size - 1) % size, 0, MPI_COMM_WORLD, &req);
    MPI_Barrier(MPI_COMM_WORLD);
    MPI_Send(big, 1024, MPI_DOUBLE, (me + 1) % size, 0, MPI_COMM_WORLD);
    MPI_Wait(&req, MPI_STATUS_IGNORE);
    MPI_Barrier(MPI_COMM_WORLD);
    int left = (me + size - 1) % size;
    for (int i = 0; i < N - 1024; i += 4096)
        if (big[i] != me + i * 1e-7) errors++;
    for (int i = 0; i < 1024; i++)
        if (big[N - 1024 + i] != left + i * 1e-7) errors++;
    if (me_global != me) errors++;
    if (errors) printf("rank %d: %d wrong values\n", me, errors);
    int all;
    MPI_Allreduce(&errors, &all, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
    if (me == 0) printf(all ? "Found %d errors\n" : "No Errors\n", all);
    MPI_Finalize();
    return 0;
}
