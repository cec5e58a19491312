/* SPDX-License-Identifier: BSD-3-Clause */
/* A non-periodic 2-D Cartesian halo (the SimGrid trace beside it was
 * written by SMPI 3.32: smpirun -np 6 -trace-ti ./halo 2): each rank exchanges a row with its
 * neighbours above and below by MPI_Sendrecv (MPI_PROC_NULL at the edges)
 * and a column left and right by MPI_Isend / MPI_Irecv / MPI_Waitall. */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
int main(int argc, char **argv) {
    MPI_Init(&argc, &argv);
    int size, rank, dims[2] = {0, 0}, periods[2] = {0, 0};
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    MPI_Dims_create(size, 2, dims);
    MPI_Comm cart;
    MPI_Cart_create(MPI_COMM_WORLD, 2, dims, periods, 0, &cart);
    MPI_Comm_rank(cart, &rank);
    int up, down, left, right, n = 1024;
    MPI_Cart_shift(cart, 0, 1, &up, &down);
    MPI_Cart_shift(cart, 1, 1, &left, &right);
    double *a = calloc(4 * n, sizeof *a);
    int iters = argc > 1 ? atoi(argv[1]) : 5;
    for (int it = 0; it < iters; it++) {
        MPI_Sendrecv(a, n, MPI_DOUBLE, down, 1, a + n, n, MPI_DOUBLE, up, 1, cart,
                     MPI_STATUS_IGNORE);
        MPI_Sendrecv(a, n, MPI_DOUBLE, up, 2, a + n, n, MPI_DOUBLE, down, 2, cart,
                     MPI_STATUS_IGNORE);
        MPI_Request rq[4];
        MPI_Irecv(a + 2 * n, n / 2, MPI_DOUBLE, left, 3, cart, &rq[0]);
        MPI_Irecv(a + 3 * n, n / 2, MPI_DOUBLE, right, 4, cart, &rq[1]);
        MPI_Isend(a, n / 2, MPI_DOUBLE, right, 3, cart, &rq[2]);
        MPI_Isend(a, n / 2, MPI_DOUBLE, left, 4, cart, &rq[3]);
        MPI_Waitall(4, rq, MPI_STATUSES_IGNORE);
        MPI_Allreduce(MPI_IN_PLACE, a, 1, MPI_DOUBLE, MPI_SUM, cart);
    }
    if (rank == 0) printf("halo done on %d x %d\n", dims[0], dims[1]);
    free(a);
    MPI_Comm_free(&cart);
    MPI_Finalize();
    return 0;
}
