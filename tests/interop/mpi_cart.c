/* SPDX-License-Identifier: BSD-3-Clause */
/* A 2-D halo on a Cartesian communicator (tests/interop/run-tracer): 4
 * ranks on a periodic 2 x 2 grid made by MPI_Cart_create (reorder on),
 * 10 iterations of two MPI_Sendrecv of 8000 bytes and an MPI_Allreduce
 * on it, then an MPI_Allreduce on each row (MPI_Cart_sub): 4 x 10 x 2 = 80
 * point-to-point messages in all. With the argument "group", rank 0 and 1
 * also make a communicator by MPI_Comm_create_group (only they call it)
 * and reduce on it: calls the tracer cannot follow. */
#include <mpi.h>
#include <stdio.h>
#include <string.h>

int main(int argc, char **argv) {
    MPI_Init(&argc, &argv);
    int size, rank, dims[2] = {0, 0}, periods[2] = {1, 1}, left, right, up, down;
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    MPI_Dims_create(size, 2, dims);
    MPI_Comm cart, row;
    MPI_Cart_create(MPI_COMM_WORLD, 2, dims, periods, 1, &cart);
    MPI_Comm_rank(cart, &rank);
    MPI_Cart_shift(cart, 0, 1, &left, &right);
    MPI_Cart_shift(cart, 1, 1, &up, &down);
    static double a[1000], b[1000];
    double sum = 0;
    for (int it = 0; it < 10; it++) {
        MPI_Sendrecv(a, 1000, MPI_DOUBLE, right, 0, b, 1000, MPI_DOUBLE, left, 0, cart,
                     MPI_STATUS_IGNORE);
        MPI_Sendrecv(a, 1000, MPI_DOUBLE, down, 1, b, 1000, MPI_DOUBLE, up, 1, cart,
                     MPI_STATUS_IGNORE);
        double one = 1, got;
        MPI_Allreduce(&one, &got, 1, MPI_DOUBLE, MPI_SUM, cart);
        sum += got;
    }
    int remain[2] = {1, 0};
    MPI_Cart_sub(cart, remain, &row);
    double one = 1, in_row;
    MPI_Allreduce(&one, &in_row, 1, MPI_DOUBLE, MPI_SUM, row);
    if (argc > 1 && !strcmp(argv[1], "group")) {
        int world;
        MPI_Comm_rank(MPI_COMM_WORLD, &world);
        if (world < 2) {
            MPI_Group all, pair;
            MPI_Comm two;
            int members[2] = {0, 1};
            MPI_Comm_group(MPI_COMM_WORLD, &all);
            MPI_Group_incl(all, 2, members, &pair);
            MPI_Comm_create_group(MPI_COMM_WORLD, pair, 7, &two);
            double x = 1, y;
            MPI_Allreduce(&x, &y, 1, MPI_DOUBLE, MPI_SUM, two);
            MPI_Comm_free(&two);
            MPI_Group_free(&pair);
            MPI_Group_free(&all);
        }
    }
    if (sum == 10.0 * size && in_row == dims[0]) printf("mpi_cart ok\n");
    MPI_Comm_free(&row);
    MPI_Comm_free(&cart);
    return MPI_Finalize();
}
