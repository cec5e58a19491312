/* SPDX-License-Identifier: BSD-3-Clause */
/* ranks: 3 options: --cpu=ignore --set cores_per_node=2 --set memory.bandwidth=10GB/s --set memory.demand=8GB/s
 * A node's memory shared by its ranks, on-line (docs/models.md, "A node's
 * memory"): ranks 0 and 1 share node 0, rank 2 is alone on node 1. Each
 * burst asks 8 GB/s of the node's 10: two at once are granted 5 each and
 * run at 5/8 of their speed. Ranks 0 and 1 charge 4 ms and 10 ms from the
 * same instant: rank 0's ends at 4 / 0.625 = 6.4 ms, rank 1 then has 6 ms
 * left, alone: 12.4 ms. Rank 2's 10 ms stay 10 ms. */
#include <math.h>
#include <mpi.h>
#include <simpi.h>
#include <stdio.h>

int main(int argc, char **argv) {
    MPI_Init(&argc, &argv);
    int rank, errors = 0;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    double t0 = MPI_Wtime();
    simpi_compute_seconds(rank == 0 ? 4e-3 : 10e-3);
    double t = MPI_Wtime() - t0, want = rank == 0 ? 6.4e-3 : rank == 1 ? 12.4e-3 : 10e-3;
    if (fabs(t - want) > 1e-12) {
        printf("rank %d: burst took %.9f s, expected %.9f\n", rank, t, want);
        errors++;
    }
    int all;
    MPI_Allreduce(&errors, &all, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
    if (rank == 0 && all == 0) printf("No Errors\n");
    MPI_Finalize();
    return 0;
}
