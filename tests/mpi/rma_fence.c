/* SPDX-License-Identifier: BSD-3-Clause */
/* ranks: 4 options: --cpu=ignore
 * One-sided communication in fence epochs only (the form a trace records:
 * tests/interop/run-trace-out replays it to its on-line time): each rank
 * puts its rank into its right neighbour's window, gets its left
 * neighbour's, accumulates into rank 0's, then a get_accumulate and a
 * fetch_and_op on rank 0, with data checks after each fence. */
#include <mpi.h>
#include <stdio.h>

#include "check.h"

int main(int argc, char **argv) {
    int rank, n, err_count = 0, total, *errs = &err_count;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &n);
    int check_rank = rank;
    int buf[4] = {-1, -1, 0, 0}, got = -1, old = -1, fetched = -1;
    MPI_Win win;
    MPI_Win_create(buf, sizeof buf, sizeof(int), MPI_INFO_NULL, MPI_COMM_WORLD, &win);
    MPI_Win_fence(0, win);
    int right = (rank + 1) % n, left = (rank + n - 1) % n, one = 1;
    MPI_Put(&rank, 1, MPI_INT, right, 0, 1, MPI_INT, win);
    MPI_Win_fence(0, win);
    EXPECT(buf[0] == left);
    buf[1] = 100 + rank;
    MPI_Win_fence(0, win);
    MPI_Get(&got, 1, MPI_INT, left, 1, 1, MPI_INT, win);
    MPI_Accumulate(&one, 1, MPI_INT, 0, 2, 1, MPI_INT, MPI_SUM, win);
    MPI_Win_fence(0, win);
    EXPECT(got == 100 + left);
    if (rank == 0) EXPECT(buf[2] == n);
    MPI_Get_accumulate(&one, 1, MPI_INT, &old, 1, MPI_INT, 0, 3, 1, MPI_INT, MPI_SUM, win);
    MPI_Win_fence(0, win);
    if (rank == 0) EXPECT(buf[3] == n);
    EXPECT(old >= 0 && old < n);
    MPI_Fetch_and_op(&one, &fetched, MPI_INT, 0, 3, MPI_SUM, win);
    MPI_Win_fence(0, win);
    if (rank == 0) EXPECT(buf[3] == 2 * n);
    EXPECT(fetched >= n && fetched < 2 * n);
    MPI_Win_free(&win);
    MPI_Reduce(&err_count, &total, 1, MPI_INT, MPI_SUM, 0, MPI_COMM_WORLD);
    if (rank == 0 && total == 0) printf("No Errors\n");
    MPI_Finalize();
    return 0;
}
