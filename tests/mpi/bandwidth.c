/* SPDX-License-Identifier: BSD-3-Clause */
/* ranks: 2 options: --cpu=ignore --set cores_per_node=1
 * A bandwidth benchmark as OSU's osu_bw and osu_bibw measure: 64 messages
 * in flight per window, a 4-byte acknowledgement after each window, on the
 * built-in platform with one rank per node (L = 1.5 us, B = 12.5 GB/s,
 * eager limit 64 KiB). Each node's interface carries one message after
 * another (docs/network.md), so the measured bandwidth is the link's:
 *   1 MiB messages (rendezvous): a window takes the handshake (2 L), the
 *   64 messages one after another (64 x 83.886 us), their latency (L) and
 *   the acknowledgement (L + 4 B / B): 64 S / (64 S / B + 4 L) = 99.89%
 *   of 12.5 GB/s;
 *   64 KiB (eager): 64 S / (64 S / B + 2 L) = 99.1%;
 *   both ways at once (bibw): each direction has its own interface side,
 *   twice the link's bandwidth.
 * Each figure must be within 1% of the link's bandwidth, and not above. */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>

#define WINDOW 64
#define LINK_BW 12.5e9

/* Bytes per second from `from` to the other rank (both ways when bidi). */
static double window_bandwidth(int rank, char *buf, int bytes, int iters, int bidi) {
    MPI_Request req[2 * WINDOW];
    char ack[4] = {0};
    MPI_Barrier(MPI_COMM_WORLD);
    double t0 = MPI_Wtime();
    for (int it = 0; it < iters; it++) {
        int n = 0;
        if (rank == 1 || bidi)
            for (int i = 0; i < WINDOW; i++)
                MPI_Irecv(buf + (size_t)i * bytes, bytes, MPI_BYTE, 1 - rank, 1, MPI_COMM_WORLD,
                          &req[n++]);
        if (rank == 0 || bidi)
            for (int i = 0; i < WINDOW; i++)
                MPI_Isend(buf + (size_t)(WINDOW + i) * bytes, bytes, MPI_BYTE, 1 - rank, 1,
                          MPI_COMM_WORLD, &req[n++]);
        MPI_Waitall(n, req, MPI_STATUSES_IGNORE);
        if (rank == 1)
            MPI_Send(ack, 4, MPI_BYTE, 0, 2, MPI_COMM_WORLD);
        else
            MPI_Recv(ack, 4, MPI_BYTE, 1, 2, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    }
    double elapsed = MPI_Wtime() - t0;
    return (bidi ? 2.0 : 1.0) * WINDOW * (double)bytes * iters / elapsed;
}

static int check(int rank, const char *what, double got, double want) {
    if (rank != 0) return 0;
    printf("%s: %.4g GB/s (%.2f%% of %.4g GB/s)\n", what, got / 1e9, 100 * got / want, want / 1e9);
    if (got > want * 1.000001 || got < want * 0.99) {
        printf("%s: not within 1%% of the link's bandwidth\n", what);
        return 1;
    }
    return 0;
}

int main(int argc, char **argv) {
    int rank, errors = 0, total;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    char *buf = malloc((size_t)2 * WINDOW * (1 << 20));
    errors += check(rank, "bw 1 MiB", window_bandwidth(rank, buf, 1 << 20, 4, 0), LINK_BW);
    errors += check(rank, "bw 64 KiB", window_bandwidth(rank, buf, 1 << 16, 20, 0), LINK_BW);
    errors += check(rank, "bibw 1 MiB", window_bandwidth(rank, buf, 1 << 20, 4, 1), 2 * LINK_BW);
    MPI_Reduce(&errors, &total, 1, MPI_INT, MPI_SUM, 0, MPI_COMM_WORLD);
    if (rank == 0 && total == 0) printf("No Errors\n");
    free(buf);
    MPI_Finalize();
    return 0;
}
