/* SPDX-License-Identifier: BSD-3-Clause */
/* The virtual time of one 1 MiB MPI_Put, MPI_Get and MPI_Get_accumulate
 * (MPI_SUM) from rank 0 to rank 1, each in its own passive-target epoch
 * (lock, operation, unlock), as rank 0 sees it: printed in microseconds
 * with the accumulated data's check (tests/trust/run-trust4). */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>

#define COUNT (1 << 17) /* doubles: 1 MiB */

static double epoch(int kind, double *win_buf, double *origin, double *result, MPI_Win win) {
    double t0 = MPI_Wtime();
    MPI_Win_lock(MPI_LOCK_EXCLUSIVE, 1, 0, win);
    if (kind == 0) MPI_Put(origin, COUNT, MPI_DOUBLE, 1, 0, COUNT, MPI_DOUBLE, win);
    if (kind == 1) MPI_Get(result, COUNT, MPI_DOUBLE, 1, 0, COUNT, MPI_DOUBLE, win);
    if (kind == 2)
        MPI_Get_accumulate(origin, COUNT, MPI_DOUBLE, result, COUNT, MPI_DOUBLE, 1, 0, COUNT,
                           MPI_DOUBLE, MPI_SUM, win);
    MPI_Win_unlock(1, win);
    (void)win_buf;
    return (MPI_Wtime() - t0) * 1e6;
}

int main(int argc, char **argv) {
    MPI_Init(&argc, &argv);
    int rank;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    double *buf, *origin = malloc(COUNT * sizeof *origin), *result = malloc(COUNT * sizeof *result);
    MPI_Win win;
    MPI_Win_allocate(COUNT * sizeof(double), sizeof(double), MPI_INFO_NULL, MPI_COMM_WORLD, &buf,
                     &win);
    for (int i = 0; i < COUNT; i++) {
        buf[i] = 0;
        origin[i] = 1;
    }
    MPI_Barrier(MPI_COMM_WORLD);
    if (rank == 0) {
        double put = epoch(0, buf, origin, result, win);  /* the target holds 1s */
        double get = epoch(1, buf, origin, result, win);  /* reads them */
        double gacc = epoch(2, buf, origin, result, win); /* reads 1s, leaves 2s */
        double check = epoch(1, buf, origin, result, win);
        printf("put %.3f get %.3f get_accumulate %.3f data %s\n", put, get, gacc,
               result[0] == 2 && result[COUNT - 1] == 2 ? "ok" : "wrong");
        (void)check;
    }
    MPI_Barrier(MPI_COMM_WORLD);
    MPI_Win_free(&win);
    free(origin);
    free(result);
    return MPI_Finalize();
}
