/* SPDX-License-Identifier: BSD-3-Clause */
/* ranks: 2 options: --cpu=ignore
 * MPI_Request_free on active sends returns at once and the sends go on:
 * both ranks free their 1 MiB (rendezvous) sends and then receive each
 * other's, which deadlocked while freeing waited for the send to complete.
 * One send uses a strided datatype, whose packed copy the freed request
 * keeps until it is delivered. Eager sends are freed too, and the data
 * arrive; and a receive freed while active still delivers. */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>

#define N (1 << 17) /* doubles: 1 MiB */

int main(int argc, char **argv) {
    int me, errors = 0;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &me);
    int peer = 1 - me;
    double *out = malloc(sizeof *out * 2 * N), *in = malloc(sizeof *in * N);
    for (int i = 0; i < 2 * N; i++)
        out[i] = me * 1e7 + i;
    MPI_Request q;
    MPI_Isend(out, N, MPI_DOUBLE, peer, 1, MPI_COMM_WORLD, &q);
    MPI_Request_free(&q);
    errors += q != MPI_REQUEST_NULL;
    MPI_Recv(in, N, MPI_DOUBLE, peer, 1, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    for (int i = 0; i < N; i++)
        errors += in[i] != peer * 1e7 + i;
    /* every other double: a packed copy */
    MPI_Datatype every_other;
    MPI_Type_vector(N, 1, 2, MPI_DOUBLE, &every_other);
    MPI_Type_commit(&every_other);
    MPI_Isend(out, 1, every_other, peer, 2, MPI_COMM_WORLD, &q);
    MPI_Request_free(&q);
    MPI_Type_free(&every_other);
    MPI_Recv(in, N, MPI_DOUBLE, peer, 2, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    for (int i = 0; i < N; i++)
        errors += in[i] != peer * 1e7 + 2 * i;
    /* a receive freed while active still delivers into its buffer: rank 0
     * frees its receive of tag 4, then sends tag 5 to rank 1, which only
     * then sends tag 4 and tag 6; once rank 0 has tag 6, tag 4 (sent before
     * it) is in its buffer (freeing used to wait for it: deadlock) */
    int four = -1, five = 5, six = 0;
    if (me == 0) {
        MPI_Irecv(&four, 1, MPI_INT, 1, 4, MPI_COMM_WORLD, &q);
        MPI_Request_free(&q);
        MPI_Send(&five, 1, MPI_INT, 1, 5, MPI_COMM_WORLD);
        MPI_Recv(&six, 1, MPI_INT, 1, 6, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
        errors += four != 44 || six != 66;
    } else {
        MPI_Recv(&five, 1, MPI_INT, 0, 5, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
        four = 44;
        six = 66;
        MPI_Send(&four, 1, MPI_INT, 0, 4, MPI_COMM_WORLD);
        MPI_Send(&six, 1, MPI_INT, 0, 6, MPI_COMM_WORLD);
    }
    /* eager */
    int small = 42 + me, got = 0;
    MPI_Isend(&small, 1, MPI_INT, peer, 3, MPI_COMM_WORLD, &q);
    MPI_Request_free(&q);
    MPI_Recv(&got, 1, MPI_INT, peer, 3, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    errors += got != 42 + peer;
    int total;
    MPI_Allreduce(&errors, &total, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
    if (me == 0 && total == 0) printf("No Errors\n");
    if (total) printf("rank %d: %d errors\n", me, errors);
    free(out);
    free(in);
    MPI_Finalize();
    return 0;
}
