/* SPDX-License-Identifier: BSD-3-Clause */
/* The host cost of one-sided copies against plain copies (issue 45): rank 0
 * puts 4 MiB of MPI_CHAR into rank 1's window 16 times, each closed by a
 * fence, and the process's CPU time for that is compared with 16 memcpys of
 * the same bytes in the same process. One copy per put (packed into the
 * operation, unpacked into the window) costs about two memcpys; a copy per
 * element costs a hundred. Prints "put/memcpy RATIO". */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

static double process_cpu(void) { /* not virtualised by simpi: the host's */
    struct timespec t;
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &t);
    return (double)t.tv_sec + 1e-9 * (double)t.tv_nsec;
}

int main(int argc, char **argv) {
    const int n = 4 << 20, reps = 16;
    int rank;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    char *buf = malloc(n), *copy = malloc(n), *win_mem;
    for (int i = 0; i < n; i++)
        buf[i] = (char)i;
    memcpy(copy, buf, n); /* its pages touched, as the window's will be */
    MPI_Win win;
    MPI_Win_allocate(n, 1, MPI_INFO_NULL, MPI_COMM_WORLD, &win_mem, &win);
    memset(win_mem, 0, n);
    MPI_Win_fence(0, win);
    if (rank == 0) MPI_Put(buf, n, MPI_CHAR, 1, 0, n, MPI_CHAR, win); /* warm-up */
    MPI_Win_fence(0, win);
    double t0 = process_cpu();
    for (int r = 0; r < reps; r++) {
        if (rank == 0) MPI_Put(buf, n, MPI_CHAR, 1, 0, n, MPI_CHAR, win);
        MPI_Win_fence(0, win);
    }
    double puts = process_cpu() - t0;
    t0 = process_cpu();
    for (int r = 0; r < reps; r++) {
        buf[r] = (char)r; /* (each copy different: none elided) */
        memcpy(copy, buf, n);
    }
    double copies = process_cpu() - t0;
    if (rank == 1 && (win_mem[12345] != (char)12345 || win_mem[n - 1] != (char)(n - 1)))
        printf("wrong data\n");
    if (rank == 0) printf("put/memcpy %.2f\n", puts / (copies > 1e-6 ? copies : 1e-6));
    MPI_Win_free(&win);
    free(buf);
    free(copy);
    MPI_Finalize();
    return 0;
}
