/* SPDX-License-Identifier: BSD-3-Clause */
/* 64 (argv[1]) MPI_Puts of 4 MiB of MPI_CHAR from rank 0 into rank 1's window,
 * each closed by a fence: the host time of one-sided transfers (bench/host-copies). */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
int main(int argc, char **argv) {
    MPI_Init(&argc, &argv);
    int rank, n = 4 << 20, reps = argc > 1 ? atoi(argv[1]) : 64;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    char *buf = malloc(n), *win_mem;
    for (int i = 0; i < n; i++)
        buf[i] = (char)i;
    MPI_Win win;
    MPI_Win_allocate(n, 1, MPI_INFO_NULL, MPI_COMM_WORLD, &win_mem, &win);
    MPI_Win_fence(0, win);
    for (int r = 0; r < reps; r++) {
        if (rank == 0) MPI_Put(buf, n, MPI_CHAR, 1, 0, n, MPI_CHAR, win);
        MPI_Win_fence(0, win);
    }
    int bad = rank == 1 && win_mem[12345] != (char)12345;
    if (rank == 1) printf("%s\n", bad ? "wrong data" : "ok");
    MPI_Win_free(&win);
    free(buf);
    MPI_Finalize();
    return 0;
}
