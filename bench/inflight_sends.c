/* SPDX-License-Identifier: BSD-3-Clause */
/* Rank 0 starts 64 (argv[1]) non-blocking sends of one 4 MiB buffer before
 * rank 1 posts any receive: rendezvous sends in flight, whose memory is
 * what the simulator keeps for them (bench/host-copies). */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int main(int argc, char **argv) {
    MPI_Init(&argc, &argv);
    int rank, n = 4 << 20, k = argc > 1 ? atoi(argv[1]) : 64;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    char *buf = malloc((size_t)n);
    memset(buf, rank + 1, (size_t)n); /* resident, as real data */
    MPI_Request *r = malloc(sizeof *r * (size_t)k);
    if (rank == 0) {
        for (int i = 0; i < k; i++)
            MPI_Isend(buf, n, MPI_CHAR, 1, i, MPI_COMM_WORLD, &r[i]);
        MPI_Barrier(MPI_COMM_WORLD);
        MPI_Waitall(k, r, MPI_STATUSES_IGNORE);
    } else {
        MPI_Barrier(MPI_COMM_WORLD);
        for (int i = 0; i < k; i++)
            MPI_Recv(buf, n, MPI_CHAR, 0, i, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    }
    if (rank == 1) printf("received %d x %d bytes\n", k, n);
    free(r);
    free(buf);
    MPI_Finalize();
    return 0;
}
