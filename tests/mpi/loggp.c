/* SPDX-License-Identifier: BSD-3-Clause */
/* ranks: 4 options: --cpu=ignore --set nodes=4 --set cores_per_node=1 --set inter.model=loggp --set inter.latency=3us --set inter.gap_per_byte=1ns --set mpi.send_overhead=1us --set mpi.recv_overhead=1us --set mpi.gap=2us --set mpi.gap_per_byte=1ns
 * LogGOPSim's timing on-line (docs/network.md; the same case as
 * tests/unit/test_replay.c): rank 0 sends 1001 B to ranks 1, 2, 3 with
 * MPI_Isend. Sends start when the CPU (o = 1us) and the NIC (g + (S-1)G =
 * 2 + 1 = 3us) are free: at 0, 3, 6us; each Isend returns o later (1, 4,
 * 7us); the receivers finish at start + o + L + o + (S-1)G = start + 6us:
 * 6, 9, 12us. */
#include <math.h>
#include <mpi.h>
#include <stdio.h>

int main(int argc, char **argv) {
    static char buf[1001];
    int rank, errors = 0, total;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    if (rank == 0) {
        MPI_Request r[3];
        double returned[3];
        for (int i = 0; i < 3; i++) {
            MPI_Isend(buf, sizeof buf, MPI_CHAR, i + 1, 0, MPI_COMM_WORLD, &r[i]);
            returned[i] = MPI_Wtime();
        }
        MPI_Waitall(3, r, MPI_STATUSES_IGNORE);
        for (int i = 0; i < 3; i++)
            if (fabs(returned[i] - (1 + 3 * i) * 1e-6) > 1e-12) {
                printf("Isend %d returned at %.9f s\n", i, returned[i]);
                errors++;
            }
    } else {
        MPI_Recv(buf, sizeof buf, MPI_CHAR, 0, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
        double want = (3 * rank + 3) * 1e-6, now = MPI_Wtime();
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
