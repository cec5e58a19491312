/* SPDX-License-Identifier: BSD-3-Clause */
/* ranks: 6
 * Cartesian topologies, the way stencil codes use them: Dims_create, a 2-D
 * grid periodic in its first dimension, coordinates, shifts (MPI_PROC_NULL
 * at the open edges), a halo exchange along them, and Cart_sub rows. */
#include <mpi.h>
#include <stdio.h>

#include "check.h"
#define check_rank me

int main(int argc, char **argv) {
    int me, n, errors = 0, *errs = &errors;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &me);
    MPI_Comm_size(MPI_COMM_WORLD, &n);
    int d12[2] = {0, 0}, d3[3] = {0, 2, 0};
    MPI_Dims_create(12, 2, d12);
    EXPECT(d12[0] == 4 && d12[1] == 3);
    MPI_Dims_create(24, 3, d3);
    EXPECT(d3[1] == 2 && d3[0] * d3[2] == 12 && d3[0] >= d3[2]);
    int dims[2] = {0, 0}, periods[2] = {1, 0};
    MPI_Dims_create(n, 2, dims); /* 6 ranks: 3 x 2 */
    EXPECT(dims[0] == 3 && dims[1] == 2);
    MPI_Comm grid;
    MPI_Cart_create(MPI_COMM_WORLD, 2, dims, periods, 0, &grid);
    int r, coords[2], status, nd;
    MPI_Comm_rank(grid, &r);
    MPI_Cart_coords(grid, r, 2, coords);
    EXPECT(coords[0] == r / 2 && coords[1] == r % 2);
    MPI_Topo_test(grid, &status);
    MPI_Cartdim_get(grid, &nd);
    EXPECT(status == MPI_CART && nd == 2);
    int up, down, left, right;
    MPI_Cart_shift(grid, 0, 1, &up, &down);    /* periodic */
    MPI_Cart_shift(grid, 1, 1, &left, &right); /* open */
    EXPECT(down == ((coords[0] + 1) % 3) * 2 + coords[1]);
    EXPECT(up == ((coords[0] + 2) % 3) * 2 + coords[1]);
    EXPECT(coords[1] == 0 ? left == MPI_PROC_NULL && right == r + 1
                          : right == MPI_PROC_NULL && left == r - 1);
    /* halo exchange: everyone sends its rank down and receives from up */
    int from_up = -1;
    MPI_Sendrecv(&r, 1, MPI_INT, down, 0, &from_up, 1, MPI_INT, up, 0, grid, MPI_STATUS_IGNORE);
    EXPECT(from_up == up);
    int from_left = -5;
    MPI_Sendrecv(&r, 1, MPI_INT, right, 1, &from_left, 1, MPI_INT, left, 1, grid,
                 MPI_STATUS_IGNORE);
    EXPECT(left == MPI_PROC_NULL ? from_left == -5 : from_left == left);
    int c2[2] = {4, 1}, wrapped; /* row 4 wraps to row 1 */
    MPI_Cart_rank(grid, c2, &wrapped);
    EXPECT(wrapped == 3);
    /* rows: keep dimension 1 */
    int keep[2] = {0, 1};
    MPI_Comm row;
    MPI_Cart_sub(grid, keep, &row);
    int rs, rr, sum = 0;
    MPI_Comm_size(row, &rs);
    MPI_Comm_rank(row, &rr);
    EXPECT(rs == 2 && rr == coords[1]);
    MPI_Allreduce(&r, &sum, 1, MPI_INT, MPI_SUM, row);
    EXPECT(sum == 4 * coords[0] + 1);
    int all;
    MPI_Allreduce(&errors, &all, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
    if (me == 0) printf(all ? "Found %d errors\n" : "No Errors\n", all);
    MPI_Finalize();
    return 0;
}
