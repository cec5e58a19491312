/* SPDX-License-Identifier: BSD-3-Clause */
/* Rendezvous sends read their data from the sender's buffer when the
 * receive comes (no copy while in flight): from a global array, which is
 * each rank's own (privatized), and from a non-contiguous datatype (packed
 * once, kept until delivered). Each rank's buffer holds its own values: a
 * receive must get the sender's. */
#include <mpi.h>
#include <stdio.h>

#define N (1 << 20) /* ints: 4 MiB, far above the eager limit */
static int big[N];  /* a global: one copy per rank */

int main(int argc, char **argv) {
    MPI_Init(&argc, &argv);
    int rank, bad = 0;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    for (int i = 0; i < N; i++)
        big[i] = rank * 1000 + i % 997;
    MPI_Datatype every_other;
    MPI_Type_vector(N / 2, 1, 2, MPI_INT, &every_other);
    MPI_Type_commit(&every_other);
    static int got[N];
    if (rank == 0) {
        MPI_Request r[2];
        MPI_Isend(big, N, MPI_INT, 1, 0, MPI_COMM_WORLD, &r[0]);
        MPI_Isend(big, 1, every_other, 1, 1, MPI_COMM_WORLD, &r[1]);
        MPI_Barrier(MPI_COMM_WORLD); /* rank 1 receives after: both in flight */
        MPI_Waitall(2, r, MPI_STATUSES_IGNORE);
    } else if (rank == 1) {
        MPI_Barrier(MPI_COMM_WORLD);
        MPI_Recv(got, N, MPI_INT, 0, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
        for (int i = 0; i < N; i++)
            if (got[i] != i % 997) bad |= 1;
        MPI_Recv(got, N / 2, MPI_INT, 0, 1, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
        for (int i = 0; i < N / 2; i++)
            if (got[i] != (2 * i) % 997) bad |= 2;
    } else {
        MPI_Barrier(MPI_COMM_WORLD);
    }
    MPI_Type_free(&every_other);
    if (rank == 1) printf(bad ? "rendezvous data wrong (%d)\n" : "rendezvous data ok\n", bad);
    MPI_Finalize();
    return bad;
}
