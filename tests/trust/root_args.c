/* SPDX-License-Identifier: BSD-3-Clause */
/* Arguments that MPI says are significant only at the root are NULL (or
 * MPI_DATATYPE_NULL) everywhere else, as many programs pass them: gatherv's
 * recvbuf, recvcounts, displs and recvtype, scatterv's sendbuf, sendcounts,
 * displs and sendtype, gather's and scatter's, reduce's recvbuf, in the
 * blocking and non-blocking forms. The data must arrive as at the root. */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>

int main(int argc, char **argv) {
    MPI_Init(&argc, &argv);
    int rank, n, bad = 0;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &n);
    const int root = n - 1;
    int *counts = NULL, *displs = NULL, *all = NULL;
    if (rank == root) {
        counts = malloc(n * sizeof *counts);
        displs = malloc(n * sizeof *displs);
        all = malloc(n * (n + 1) / 2 * sizeof *all);
        for (int j = 0, off = 0; j < n; off += j + 1, j++)
            counts[j] = j + 1, displs[j] = off;
    }
    int mine[64];
    for (int k = 0; k <= rank; k++)
        mine[k] = 100 * rank + k;
    for (int nb = 0; nb < 2; nb++) { /* blocking, then non-blocking */
        MPI_Request req;
        if (nb) {
            MPI_Igatherv(mine, rank + 1, MPI_INT, all, counts, displs,
                         rank == root ? MPI_INT : MPI_DATATYPE_NULL, root, MPI_COMM_WORLD, &req);
            MPI_Wait(&req, MPI_STATUS_IGNORE);
        } else {
            MPI_Gatherv(mine, rank + 1, MPI_INT, all, counts, displs,
                        rank == root ? MPI_INT : MPI_DATATYPE_NULL, root, MPI_COMM_WORLD);
        }
        for (int j = 0; rank == root && j < n; j++)
            for (int k = 0; k <= j; k++)
                if (all[displs[j] + k] != 100 * j + k) bad |= 1;
        int got[64] = {0};
        if (nb) {
            MPI_Iscatterv(all, counts, displs, rank == root ? MPI_INT : MPI_DATATYPE_NULL, got,
                          rank + 1, MPI_INT, root, MPI_COMM_WORLD, &req);
            MPI_Wait(&req, MPI_STATUS_IGNORE);
        } else {
            MPI_Scatterv(all, counts, displs, rank == root ? MPI_INT : MPI_DATATYPE_NULL, got,
                         rank + 1, MPI_INT, root, MPI_COMM_WORLD);
        }
        for (int k = 0; k <= rank; k++)
            if (got[k] != 100 * rank + k) bad |= 2;
    }
    int one = rank, gathered[64];
    MPI_Gather(&one, 1, MPI_INT, rank == root ? gathered : NULL, 1,
               rank == root ? MPI_INT : MPI_DATATYPE_NULL, root, MPI_COMM_WORLD);
    for (int j = 0; rank == root && j < n; j++)
        if (gathered[j] != j) bad |= 4;
    int back = -1;
    MPI_Scatter(rank == root ? gathered : NULL, 1, rank == root ? MPI_INT : MPI_DATATYPE_NULL,
                &back, 1, MPI_INT, root, MPI_COMM_WORLD);
    if (back != rank) bad |= 8;
    int sum = -1;
    MPI_Reduce(&one, rank == root ? &sum : NULL, 1, MPI_INT, MPI_SUM, root, MPI_COMM_WORLD);
    if (rank == root && sum != n * (n - 1) / 2) bad |= 16;
    int any;
    MPI_Allreduce(&bad, &any, 1, MPI_INT, MPI_BOR, MPI_COMM_WORLD);
    if (rank == 0)
        printf(any ? "root-only arguments: wrong (%d)\n" : "root-only arguments: ok\n", any);
    free(counts);
    free(displs);
    free(all);
    MPI_Finalize();
    return any != 0;
}
