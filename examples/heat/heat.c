/* SPDX-License-Identifier: BSD-3-Clause */
/* 2-D heat equation (Laplace) solved with Jacobi iterations on an N x N grid,
 * rows distributed over the ranks, halo rows exchanged with MPI_Sendrecv and
 * the global residual computed with MPI_Allreduce. The top edge is held at
 * 100 degrees, the other edges at 0. The program stops when the largest
 * change in an iteration falls below the tolerance, and prints the number of
 * iterations and a checksum of the field, which do not depend on the number
 * of ranks.
 *
 *   usage: heat [N (default 128)] [max iterations (default 5000)] [tolerance (default 1e-2)]
 *
 * Built by `simpicc -O2 -o heat heat.c` and run by `simpi run -n 16 ./heat`;
 * the same source builds with mpicc for a real MPI. */
#include <math.h>
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Rows [first, first + count) of the global grid belong to this rank. */
static void my_rows(int n, int rank, int size, int *first, int *count) {
    int base = n / size, extra = n % size;
    *count = base + (rank < extra);
    *first = rank * base + (rank < extra ? rank : extra);
}

/* Exchanges the first and last owned rows with the neighbours' halos. */
static void exchange(double *u, int rows, int n, int up, int down) {
    MPI_Sendrecv(&u[1 * n], n, MPI_DOUBLE, up, 0, &u[(rows + 1) * n], n, MPI_DOUBLE, down, 0,
                 MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    MPI_Sendrecv(&u[rows * n], n, MPI_DOUBLE, down, 1, &u[0], n, MPI_DOUBLE, up, 1, MPI_COMM_WORLD,
                 MPI_STATUS_IGNORE);
}

/* One Jacobi sweep over the owned rows; returns the largest change. */
static double sweep(const double *u, double *next, int rows, int n, int first) {
    double change = 0;
    for (int i = 1; i <= rows; i++) {
        int global = first + i - 1;
        for (int j = 0; j < n; j++) {
            double v;
            if (global == 0)
                v = 100.0; /* top edge */
            else if (global == n - 1 || j == 0 || j == n - 1)
                v = 0.0; /* other edges */
            else
                v = 0.25 *
                    (u[(i - 1) * n + j] + u[(i + 1) * n + j] + u[i * n + j - 1] + u[i * n + j + 1]);
            next[i * n + j] = v;
            double d = fabs(v - u[i * n + j]);
            if (d > change) change = d;
        }
    }
    return change;
}

int main(int argc, char **argv) {
    int rank, size;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    int n = argc > 1 ? atoi(argv[1]) : 128, max_iters = argc > 2 ? atoi(argv[2]) : 5000;
    double tol = argc > 3 ? atof(argv[3]) : 1e-2;
    if (n < 3 || n < size) {
        if (rank == 0) fprintf(stderr, "heat: N must be at least 3 and at least the rank count\n");
        MPI_Abort(MPI_COMM_WORLD, 1);
    }
    int first, rows;
    my_rows(n, rank, size, &first, &rows);
    int up = rank > 0 ? rank - 1 : MPI_PROC_NULL, down = rank < size - 1 ? rank + 1 : MPI_PROC_NULL;
    double *u = calloc((size_t)(rows + 2) * n, sizeof *u);
    double *next = calloc((size_t)(rows + 2) * n, sizeof *next);
    double start = MPI_Wtime(), change = 0;
    int iter;
    for (iter = 1; iter <= max_iters; iter++) {
        exchange(u, rows, n, up, down);
        double local = sweep(u, next, rows, n, first);
        double *t = u;
        u = next;
        next = t;
        MPI_Allreduce(&local, &change, 1, MPI_DOUBLE, MPI_MAX, MPI_COMM_WORLD);
        if (change < tol) break;
    }
    double local_sum = 0, sum = 0;
    for (int i = 1; i <= rows; i++)
        for (int j = 0; j < n; j++)
            local_sum += u[i * n + j] * (first + i + 0.5 * j);
    MPI_Reduce(&local_sum, &sum, 1, MPI_DOUBLE, MPI_SUM, 0, MPI_COMM_WORLD);
    double elapsed = MPI_Wtime() - start;
    if (rank == 0) {
        printf("heat: %dx%d grid on %d ranks: %s after %d iterations (last change %.3e)\n", n, n,
               size, change < tol ? "converged" : "stopped", iter > max_iters ? max_iters : iter,
               change);
        printf("heat: checksum %.6e\n", sum);
        printf("heat: %.6f s of (simulated) time\n", elapsed);
    }
    free(u);
    free(next);
    MPI_Finalize();
    return change < tol ? 0 : 2;
}
