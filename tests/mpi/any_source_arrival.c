/* SPDX-License-Identifier: BSD-3-Clause */
/* ranks: 3 options: --cpu=ignore --set cores_per_node=1 --set inter.bandwidth=100MB/s --set inter.latency=1us --set network.interfaces=unlimited
 * A receive or a probe from MPI_ANY_SOURCE takes the message that reached
 * the rank first, as MPI libraries match envelopes in their order of
 * arrival, not the one sent first. Each rank on its own node, T(S) = 1 us +
 * S / 100 MB/s, the nodes' interfaces unlimited (serial ones would make
 * the small message queue behind the large one at rank 0's node): rank 1
 * sends 60000 B at 0 (arriving at 1 + 600 = 601 us); rank 2 computes
 * 100 us and sends 8 B (arriving at 101.08 us); rank 0 computes 1 ms and
 * receives twice from any source: rank 2's message first, then rank 1's,
 * both at once (1 ms). After a barrier, the same with a probe posted
 * before either message arrives: it sees rank 2's, 100 us + T(8) after
 * the barrier (within the barrier's end skew of a latency or two), long
 * before rank 1's (600 us). */
#include <mpi.h>
#include <simpi.h>
#include <stdio.h>

static char big[60000];

int main(int argc, char **argv) {
    int me, errors = 0;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &me);
    MPI_Status st;
    for (int round = 0; round < 2; round++) {
        MPI_Barrier(MPI_COMM_WORLD);
        double t0 = MPI_Wtime();
        if (me == 1) {
            MPI_Send(big, sizeof big, MPI_CHAR, 0, round, MPI_COMM_WORLD);
        } else if (me == 2) {
            simpi_compute_seconds(100e-6);
            MPI_Send(big, 8, MPI_CHAR, 0, round, MPI_COMM_WORLD);
        } else if (round == 0) {
            simpi_compute_seconds(1e-3);
            MPI_Recv(big, sizeof big, MPI_CHAR, MPI_ANY_SOURCE, 0, MPI_COMM_WORLD, &st);
            errors += st.MPI_SOURCE != 2;
            MPI_Recv(big, sizeof big, MPI_CHAR, MPI_ANY_SOURCE, 0, MPI_COMM_WORLD, &st);
            errors += st.MPI_SOURCE != 1;
            double t = MPI_Wtime() - t0;
            errors += t < 0.9999e-3 || t > 1.0001e-3;
        } else {
            MPI_Probe(MPI_ANY_SOURCE, 1, MPI_COMM_WORLD, &st);
            double t = MPI_Wtime() - t0;
            errors += st.MPI_SOURCE != 2 || t < 99e-6 || t > 103e-6; /* the barrier's skew */
            MPI_Recv(big, sizeof big, MPI_CHAR, 2, 1, MPI_COMM_WORLD, &st);
            MPI_Recv(big, sizeof big, MPI_CHAR, 1, 1, MPI_COMM_WORLD, &st);
        }
    }
    int total;
    MPI_Allreduce(&errors, &total, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
    if (me == 0 && total == 0) printf("No Errors\n");
    if (total) printf("rank %d: %d errors\n", me, errors);
    MPI_Finalize();
    return 0;
}
