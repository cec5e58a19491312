/* SPDX-License-Identifier: BSD-3-Clause */
/* ranks: 4 options: --cpu=ignore --set nodes=4 --set cores_per_node=1 --set network.topology=star --set network.contention=flow --set network.link_latency=0us --set network.link_bandwidth=1GB/s
 * Flow contention on-line (docs/network.md), as tests/unit/test_replay.c
 * does in replay: on a star of 1 GB/s links without latency, rank 0 sends
 * 1e6 B to rank 1 at time 0 and, after 500 us of (simulated) computation,
 * 1e6 B to rank 2; both cross 0's link to the switch.
 *   to 1: alone until 0.5 ms (0.5e6 B sent), then 0.5 GB/s: ends at 1.5 ms
 *   to 2: 0.5 GB/s from 0.5 to 1.5 ms (0.5e6 B), alone after: ends at 2 ms
 * The data must arrive intact. */
#include <math.h>
#include <mpi.h>
#include <simpi.h>
#include <stdio.h>
#include <string.h>

static char buf[1000000];

int main(int argc, char **argv) {
    int rank, errors = 0, total;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    if (rank == 0) {
        MPI_Request r[2];
        memset(buf, 7, sizeof buf);
        MPI_Isend(buf, sizeof buf, MPI_CHAR, 1, 0, MPI_COMM_WORLD, &r[0]);
        simpi_compute_seconds(500e-6);
        MPI_Isend(buf, sizeof buf, MPI_CHAR, 2, 0, MPI_COMM_WORLD, &r[1]);
        MPI_Waitall(2, r, MPI_STATUSES_IGNORE);
    } else if (rank == 1 || rank == 2) {
        MPI_Recv(buf, sizeof buf, MPI_CHAR, 0, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
        double want = rank == 1 ? 1.5e-3 : 2e-3, now = MPI_Wtime();
        if (fabs(now - want) > 1e-12 || buf[999999] != 7) {
            printf("rank %d received at %.9f s, expected %.9f s\n", rank, now, want);
            errors++;
        }
    }
    MPI_Reduce(&errors, &total, 1, MPI_INT, MPI_SUM, 0, MPI_COMM_WORLD);
    if (rank == 0 && total == 0) printf("No Errors\n");
    MPI_Finalize();
    return 0;
}
