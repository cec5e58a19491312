/* SPDX-License-Identifier: BSD-3-Clause */
/* One-sided operations from every rank to the same places, whose result
 * depends on the order they take effect in: sums of doubles of very
 * different sizes (floating-point addition is not associative), MPI_REPLACE
 * accumulates, fetch-and-op counters and compare-and-swap, under shared
 * locks, a fence epoch and lock_all. Rank 0 prints the results in
 * hexadecimal, so a split run (tests/parallel/run-parallel-online) must
 * apply them in the order one process does, to the last bit. */
#include <mpi.h>
#include <stdio.h>

int main(int argc, char **argv) {
    int rank, n;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &n);
    double cell[4] = {0, 0, 0, 0};
    long counter[2] = {0, 0};
    MPI_Win dw, lw;
    MPI_Win_create(cell, sizeof cell, sizeof(double), MPI_INFO_NULL, MPI_COMM_WORLD, &dw);
    MPI_Win_create(counter, sizeof counter, sizeof(long), MPI_INFO_NULL, MPI_COMM_WORLD, &lw);
    double big = rank % 2 ? 1e16 : -1e16, small = 1.0 + rank / 8.0, mine = rank;
    for (int round = 0; round < 3; round++) { /* passive target, each rank at its own pace */
        MPI_Win_lock(MPI_LOCK_SHARED, 0, 0, dw);
        MPI_Accumulate(&big, 1, MPI_DOUBLE, 0, 0, 1, MPI_DOUBLE, MPI_SUM, dw);
        MPI_Accumulate(&small, 1, MPI_DOUBLE, 0, 0, 1, MPI_DOUBLE, MPI_SUM, dw);
        MPI_Accumulate(&mine, 1, MPI_DOUBLE, 0, 1, 1, MPI_DOUBLE, MPI_REPLACE, dw);
        MPI_Win_unlock(0, dw);
        long one = 1, got, expect = 0, swapped;
        MPI_Win_lock(MPI_LOCK_SHARED, n - 1, 0, lw);
        MPI_Fetch_and_op(&one, &got, MPI_LONG, n - 1, 0, MPI_SUM, lw);
        MPI_Win_flush(n - 1, lw);
        long me = rank + 1;
        MPI_Compare_and_swap(&me, &expect, &swapped, MPI_LONG, n - 1, 1, lw);
        MPI_Win_unlock(n - 1, lw);
        printf("rank %d round %d: ticket %ld, swap saw %ld\n", rank, round, got, swapped);
        for (volatile int spin = 0; spin < 1000 * (rank % 3); spin++)
            ;
    }
    MPI_Win_fence(0, dw); /* an active-target epoch: everyone adds to cell 2 */
    MPI_Accumulate(&big, 1, MPI_DOUBLE, n / 2, 2, 1, MPI_DOUBLE, MPI_SUM, dw);
    MPI_Accumulate(&small, 1, MPI_DOUBLE, n / 2, 2, 1, MPI_DOUBLE, MPI_SUM, dw);
    MPI_Win_fence(0, dw);
    MPI_Win_lock_all(0, dw);
    double got[4];
    MPI_Get(got, 4, MPI_DOUBLE, n / 2, 0, 4, MPI_DOUBLE, dw);
    MPI_Win_unlock_all(dw);
    if (rank == 0) printf("cells at 0: %a %a\n", cell[0], cell[1]);
    if (rank == 1) printf("cell 2 at %d: %a\n", n / 2, got[2]);
    MPI_Barrier(MPI_COMM_WORLD);
    if (rank == n - 1) printf("counter %ld, swapped in %ld\n", counter[0], counter[1]);
    MPI_Win_free(&lw);
    MPI_Win_free(&dw);
    if (rank == 0) printf("No Errors\n");
    MPI_Finalize();
    return 0;
}
