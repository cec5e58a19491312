/* SPDX-License-Identifier: BSD-3-Clause */
/* ranks: 2 options: --cpu=ignore --set cores_per_node=1
 * Timing worked by hand on the built-in platform with one rank per node:
 * inter-node L = 1.5 us, B = 12.5 GB/s, eager limit 64 KiB, computation
 * not measured (--cpu=ignore).
 *   eager ping-pong of S = 1000 B:      2 (L + S/B)   = 2 (1.5 + 0.08) us = 3.16 us
 *   rendezvous ping-pong of S = 1e6 B:  2 (3L + S/B)  = 2 (4.5 + 80) us   = 169 us
 * MPI_Wtime returns virtual time, so rank 0 measures these exactly. */
#include <math.h>
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>

static double pingpong(int rank, char *buf, int bytes) {
    double t0 = MPI_Wtime();
    if (rank == 0) {
        MPI_Send(buf, bytes, MPI_BYTE, 1, 0, MPI_COMM_WORLD);
        MPI_Recv(buf, bytes, MPI_BYTE, 1, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    } else {
        MPI_Recv(buf, bytes, MPI_BYTE, 0, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
        MPI_Send(buf, bytes, MPI_BYTE, 0, 0, MPI_COMM_WORLD);
    }
    return MPI_Wtime() - t0;
}

int main(int argc, char **argv) {
    int rank, errors = 0;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    char *buf = calloc(1000000, 1);
    double eager = pingpong(rank, buf, 1000);
    double rndv = pingpong(rank, buf, 1000000);
    if (rank == 0) {
        if (fabs(eager - 3.16e-6) > 1e-12) errors++, printf("eager ping-pong took %.9g s\n", eager);
        if (fabs(rndv - 169e-6) > 1e-12)
            errors++, printf("rendezvous ping-pong took %.9g s\n", rndv);
        printf(errors ? "Found %d errors\n" : "No Errors\n", errors);
    }
    free(buf);
    MPI_Finalize();
    return 0;
}
