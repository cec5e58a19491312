/* SPDX-License-Identifier: BSD-3-Clause */
/* ranks: 16 options: --cpu=ignore --set nodes=16 --set cores_per_node=1 --set network.topology=ring --set network.link_latency=1us --set network.link_bandwidth=1GB/s --set network.overhead=2us --set network.nic.bandwidth=500MB/s
 * A topology on-line (docs/network.md): a bidirectional ring of 16 nodes,
 * one rank each. Rank 0 sends 64000 B (eager) to rank 15, then to rank 8,
 * both at virtual time 0.
 *   0 -> 15: one hop backwards: 2us overhead + 1us + 64000 B / 500 MB/s
 *            (the nic links are the slowest) = 3us + 128us = 131us
 *   0 -> 8:  8 hops either way, forward on a tie: 2us + 8us + 128us = 138us
 *            after node 0's interface has sent the first message (64000 B
 *            at 500 MB/s: 128us): 266us */
#include <math.h>
#include <mpi.h>
#include <stdio.h>

int main(int argc, char **argv) {
    static char buf[64000];
    int rank, errors = 0, total;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    if (rank == 0) {
        MPI_Send(buf, sizeof buf, MPI_CHAR, 15, 0, MPI_COMM_WORLD);
        MPI_Send(buf, sizeof buf, MPI_CHAR, 8, 0, MPI_COMM_WORLD);
    } else if (rank == 15 || rank == 8) {
        MPI_Recv(buf, sizeof buf, MPI_CHAR, 0, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
        double want = rank == 15 ? 131e-6 : 266e-6, now = MPI_Wtime();
        if (fabs(now - want) > 1e-12) {
            printf("rank %d received at %.9f s, expected %.9f s\n", rank, now, want);
            errors++;
        }
    }
    MPI_Reduce(&errors, &total, 1, MPI_INT, MPI_SUM, 0, MPI_COMM_WORLD);
    if (rank == 0 && total == 0) printf("No Errors\n");
    MPI_Finalize();
    return 0;
}
