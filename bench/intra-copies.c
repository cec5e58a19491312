/* SPDX-License-Identifier: BSD-3-Clause */
/* Bandwidth of pairs of ranks of one node copying messages, K pairs at
 * once (bench/intra-copies): whether simultaneous copies inside a node
 * share one memory bandwidth, and what a window of messages between two
 * ranks achieves (docs/network.md). Built with mpicc and run under Open
 * MPI (shared memory transport), and with simpicc under simpi.
 * Usage: intra-copies PAIRS [window]: blocking 16 MiB messages, or windows
 * of 64 non-blocking 4 MiB messages (as osu_bw sends them). */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum { WINDOW = 64 };

/* One timed round of the pair's traffic: `iters` messages of S bytes. */
static void pair_round(int rank, char *buf, size_t S, int iters, int window) {
    int peer = rank % 2 == 0 ? rank + 1 : rank - 1;
    if (!window) {
        for (int i = 0; i < iters; i++) {
            if (rank % 2 == 0)
                MPI_Send(buf, (int)S, MPI_BYTE, peer, 0, MPI_COMM_WORLD);
            else
                MPI_Recv(buf, (int)S, MPI_BYTE, peer, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
        }
        return;
    }
    MPI_Request req[WINDOW];
    for (int w = 0; w < iters / WINDOW; w++) {
        for (int i = 0; i < WINDOW; i++) {
            char *b = buf + (size_t)i * S;
            if (rank % 2 == 0)
                MPI_Isend(b, (int)S, MPI_BYTE, peer, 0, MPI_COMM_WORLD, &req[i]);
            else
                MPI_Irecv(b, (int)S, MPI_BYTE, peer, 0, MPI_COMM_WORLD, &req[i]);
        }
        MPI_Waitall(WINDOW, req, MPI_STATUSES_IGNORE);
        char ack = 0; /* the window's end, as osu_bw waits for it */
        if (rank % 2 == 0)
            MPI_Recv(&ack, 1, MPI_CHAR, peer, 1, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
        else
            MPI_Send(&ack, 1, MPI_CHAR, peer, 1, MPI_COMM_WORLD);
    }
}

int main(int argc, char **argv) {
    int rank;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    int active = argc > 1 ? atoi(argv[1]) : 1;
    int window = argc > 2 && !strcmp(argv[2], "window");
    size_t S = window ? (size_t)4 << 20 : (size_t)16 << 20;
    int iters = window ? 2 * WINDOW : 40;
    size_t bytes = window ? S * WINDOW : S;
    char *buf = malloc(bytes);
    memset(buf, 1, bytes);
    int pair = rank / 2;
    for (int rep = 0; rep < 2; rep++) { /* the first warms the buffers up */
        MPI_Barrier(MPI_COMM_WORLD);
        double t0 = MPI_Wtime();
        if (pair < active) pair_round(rank, buf, S, iters, window);
        double t = MPI_Wtime() - t0;
        if (rank % 2 == 1 && pair < active && rep == 1)
            printf("pairs %d: pair %d: %.2f GB/s\n", active, pair, (double)S * iters / t / 1e9);
    }
    free(buf);
    MPI_Finalize();
    return 0;
}
