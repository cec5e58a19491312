/* SPDX-License-Identifier: BSD-3-Clause */
/* A real MPI program for the tracer test (tests/interop/run-tracer), built
 * with the system's mpicc: non-blocking exchanges on a ring, a receive from
 * any source, sendrecv, collectives (also with variable counts), a split
 * communicator, a duplicate and an MPI_Pcontrol interval. It checks its own
 * results and prints "mpi_app ok". Every rank sends 2 ring messages, one
 * message to rank 0 (the any-source receives) and one sendrecv message per
 * iteration: with 4 ranks and 3 iterations, 3 x (4 x 2 + 3 + 4) = 45
 * point-to-point messages. */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>

int main(int argc, char **argv) {
    int rank, size, bad = 0;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    int right = (rank + 1) % size, left = (rank + size - 1) % size;
    MPI_Comm half, dup;
    MPI_Comm_split(MPI_COMM_WORLD, rank % 2, rank, &half);
    MPI_Comm_dup(MPI_COMM_WORLD, &dup);
    double buf[1024] = {0}, got[1024], sum;
    MPI_Pcontrol(1);
    for (int it = 0; it < 3; it++) {
        MPI_Request r[4];
        MPI_Irecv(got, 512, MPI_DOUBLE, left, 1, MPI_COMM_WORLD, &r[0]);
        MPI_Irecv(got + 512, 512, MPI_DOUBLE, right, 2, MPI_COMM_WORLD, &r[1]);
        MPI_Isend(buf, 512, MPI_DOUBLE, right, 1, MPI_COMM_WORLD, &r[2]);
        MPI_Isend(buf + 512, 512, MPI_DOUBLE, left, 2, MPI_COMM_WORLD, &r[3]);
        MPI_Waitall(4, r, MPI_STATUSES_IGNORE);
        if (rank == 0) {
            for (int k = 1; k < size; k++) {
                int v;
                MPI_Status st;
                MPI_Recv(&v, 1, MPI_INT, MPI_ANY_SOURCE, 3, MPI_COMM_WORLD, &st);
                bad |= v != st.MPI_SOURCE * 10;
            }
        } else {
            int v = rank * 10;
            MPI_Send(&v, 1, MPI_INT, 0, 3, MPI_COMM_WORLD);
        }
        MPI_Sendrecv(buf, 16, MPI_DOUBLE, right, 4, got, 16, MPI_DOUBLE, left, 4, dup,
                     MPI_STATUS_IGNORE);
        double x = rank;
        MPI_Allreduce(&x, &sum, 1, MPI_DOUBLE, MPI_SUM, half);
        MPI_Bcast(buf, 8, MPI_DOUBLE, 0, MPI_COMM_WORLD);
        MPI_Barrier(dup);
    }
    MPI_Pcontrol(0);
    int *counts = malloc(sizeof *counts * (size_t)size),
        *displs = malloc(sizeof *displs * (size_t)size);
    for (int k = 0; k < size; k++)
        counts[k] = k + 1, displs[k] = k * size;
    int mine[64], all[4096];
    for (int k = 0; k <= rank; k++)
        mine[k] = rank;
    MPI_Gatherv(mine, rank + 1, MPI_INT, all, counts, displs, MPI_INT, 0, MPI_COMM_WORLD);
    if (rank == 0)
        for (int k = 0; k < size; k++)
            bad |= all[displs[k]] != k;
    /* a reduce_scatter with counts 1 .. size: rank r gets the sum of its
     * block, size x r at every place */
    int vec[64 * 65 / 2], part[64];
    for (int k = 0, at = 0; k < size; k++)
        for (int j = 0; j <= k; j++)
            vec[at++] = k;
    MPI_Reduce_scatter(vec, part, counts, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
    for (int j = 0; j <= rank; j++)
        bad |= part[j] != size * rank;
    MPI_Comm_free(&half);
    MPI_Comm_free(&dup);
    free(counts);
    free(displs);
    if (rank == 0) printf(bad ? "mpi_app WRONG\n" : "mpi_app ok\n");
    MPI_Finalize();
    return bad;
}
