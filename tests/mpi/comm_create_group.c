/* SPDX-License-Identifier: BSD-3-Clause */
/* ranks: 5
 * MPI_Comm_create_group is collective over the group only: the even ranks
 * build a communicator twice in a row (same group and tag) while the odd
 * ones do something else, and use it for a reduction. */
#include <mpi.h>
#include <stdio.h>

int main(int argc, char **argv) {
    int me, n, errors = 0;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &me);
    MPI_Comm_size(MPI_COMM_WORLD, &n);
    MPI_Group world, evens;
    MPI_Comm_group(MPI_COMM_WORLD, &world);
    int ranges[1][3] = {{0, n - 1, 2}};
    MPI_Group_range_incl(world, 1, ranges, &evens);
    if (me % 2 == 0) {
        for (int round = 0; round < 2; round++) {
            MPI_Comm c;
            MPI_Comm_create_group(MPI_COMM_WORLD, evens, 7, &c);
            int size, r, sum = 0, one = 1;
            MPI_Comm_size(c, &size);
            MPI_Comm_rank(c, &r);
            errors += size != (n + 1) / 2 || r != me / 2;
            MPI_Allreduce(&one, &sum, 1, MPI_INT, MPI_SUM, c);
            errors += sum != size;
            MPI_Comm_free(&c);
        }
    }
    MPI_Group_free(&evens);
    MPI_Group_free(&world);
    int total;
    MPI_Allreduce(&errors, &total, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
    if (me == 0 && total == 0) printf("No Errors\n");
    MPI_Finalize();
    return 0;
}
