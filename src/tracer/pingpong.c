/* SPDX-License-Identifier: BSD-3-Clause */
/* simpi-pingpong: the ping-pong `simpi calibrate pingpong` runs on a real
 * MPI (2 ranks): for sizes from 1 B to 16 MiB (powers of 2 and 1.5 times
 * them), rank 0 sends to rank 1, which sends back; the one-way time is half
 * the round trip, the median over the repetitions after a warm-up. Rank 0
 * prints "SIZE SECONDS" lines after a "# simpi-pingpong 1" header. */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>

#define MAX_SIZE (16 << 20)

static int cmp(const void *a, const void *b) {
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

static double one_way(int rank, char *buf, int size, int reps) {
    double t[1000];
    for (int r = -3; r < reps; r++) {
        MPI_Barrier(MPI_COMM_WORLD);
        double t0 = MPI_Wtime();
        if (rank == 0) {
            MPI_Send(buf, size, MPI_BYTE, 1, 0, MPI_COMM_WORLD);
            MPI_Recv(buf, size, MPI_BYTE, 1, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
        } else if (rank == 1) {
            MPI_Recv(buf, size, MPI_BYTE, 0, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
            MPI_Send(buf, size, MPI_BYTE, 0, 0, MPI_COMM_WORLD);
        }
        if (r >= 0) t[r] = (MPI_Wtime() - t0) / 2;
    }
    qsort(t, (size_t)reps, sizeof *t, cmp);
    return t[reps / 2];
}

int main(int argc, char **argv) {
    int rank, size;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    if (size < 2) {
        fprintf(stderr, "simpi-pingpong: needs 2 ranks (mpirun -np 2)\n");
        MPI_Abort(MPI_COMM_WORLD, 1);
    }
    char *buf = calloc(MAX_SIZE, 1);
    if (rank == 0) printf("# simpi-pingpong 1\n");
    for (long s = 1; s <= MAX_SIZE; s *= 2) {
        for (int k = 0; k < 2; k++) {
            long n = k ? s + s / 2 : s;
            if (n > MAX_SIZE || (k && s < 2)) continue;
            int reps = n < 65536 ? 200 : n < (1 << 20) ? 40 : 10;
            double t = one_way(rank, buf, (int)n, reps);
            if (rank == 0) printf("%ld %.9e\n", n, t);
        }
    }
    free(buf);
    MPI_Finalize();
    return 0;
}
