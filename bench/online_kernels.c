/* SPDX-License-Identifier: BSD-3-Clause */
/* NPB-like kernels for bench/parallel-online (split on-line runs): each is
 * an ordinary MPI program whose ranks really compute between their
 * messages, so that a run's wall time is mostly the ranks' computation.
 *   jacobi ITERS N   a 2-D Jacobi sweep on an N x N block per rank, halos
 *                    with the 4 neighbours of a periodic grid of ranks, a
 *                    residual allreduce every 10 sweeps (MG/LU-like);
 *   ft ITERS N       N x N complex-like doubles per rank: a transform of
 *                    every row (O(N^2 log N) work), then an all-to-all
 *                    transpose (FT-like);
 *   cg ITERS N       a sparse product over N rows with 27 entries each,
 *                    exchanges with 4 partners, two dot-product allreduces
 *                    (CG-like).
 * Prints a checksum (the same for every split) and "No Errors". */
#include <math.h>
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int rank, size;

/* The grid of ranks: px x py, as square as the count allows. */
static void grid(int *px, int *py) {
    int x = (int)sqrt((double)size);
    while (size % x)
        x--;
    *px = x;
    *py = size / x;
}

static double jacobi(int iters, int n) {
    int px, py;
    grid(&px, &py);
    int x = rank % px, y = rank / px;
    int up = ((y + py - 1) % py) * px + x, down = ((y + 1) % py) * px + x;
    int left = y * px + (x + px - 1) % px, right = y * px + (x + 1) % px;
    int w = n + 2;
    double *a = calloc((size_t)w * w, sizeof *a), *b = calloc((size_t)w * w, sizeof *b);
    double *sl = malloc(sizeof *sl * n), *sr = malloc(sizeof *sr * n);
    double *rl = malloc(sizeof *rl * n), *rr = malloc(sizeof *rr * n);
    for (int i = 1; i <= n; i++)
        for (int j = 1; j <= n; j++)
            a[i * w + j] = (double)((rank * 7 + i * 3 + j) % 17);
    double res = 0;
    for (int it = 0; it < iters; it++) {
        MPI_Request rq[8];
        for (int i = 0; i < n; i++)
            sl[i] = a[(i + 1) * w + 1], sr[i] = a[(i + 1) * w + n];
        MPI_Irecv(a + 1, n, MPI_DOUBLE, up, 0, MPI_COMM_WORLD, &rq[0]);
        MPI_Irecv(a + (n + 1) * w + 1, n, MPI_DOUBLE, down, 1, MPI_COMM_WORLD, &rq[1]);
        MPI_Irecv(rl, n, MPI_DOUBLE, left, 2, MPI_COMM_WORLD, &rq[2]);
        MPI_Irecv(rr, n, MPI_DOUBLE, right, 3, MPI_COMM_WORLD, &rq[3]);
        MPI_Isend(a + n * w + 1, n, MPI_DOUBLE, down, 0, MPI_COMM_WORLD, &rq[4]);
        MPI_Isend(a + w + 1, n, MPI_DOUBLE, up, 1, MPI_COMM_WORLD, &rq[5]);
        MPI_Isend(sr, n, MPI_DOUBLE, right, 2, MPI_COMM_WORLD, &rq[6]);
        MPI_Isend(sl, n, MPI_DOUBLE, left, 3, MPI_COMM_WORLD, &rq[7]);
        MPI_Waitall(8, rq, MPI_STATUSES_IGNORE);
        for (int i = 0; i < n; i++)
            a[(i + 1) * w] = rl[i], a[(i + 1) * w + n + 1] = rr[i];
        double local = 0;
        for (int i = 1; i <= n; i++)
            for (int j = 1; j <= n; j++) {
                double v = 0.25 * (a[(i - 1) * w + j] + a[(i + 1) * w + j] + a[i * w + j - 1] +
                                   a[i * w + j + 1]);
                local += fabs(v - a[i * w + j]);
                b[i * w + j] = v;
            }
        double *t = a;
        a = b;
        b = t;
        if (it % 10 == 9) MPI_Allreduce(&local, &res, 1, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
    }
    double sum = 0, all = 0;
    for (int i = 1; i <= n; i++)
        for (int j = 1; j <= n; j++)
            sum += a[i * w + j];
    MPI_Allreduce(&sum, &all, 1, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
    free(a), free(b), free(sl), free(sr), free(rl), free(rr);
    return all + res;
}

/* One row's transform: log2(n) butterfly passes (the arithmetic of an FFT,
 * not its exact values). */
static void transform(double *row, int n) {
    for (int len = 2; len <= n; len *= 2)
        for (int i = 0; i < n; i += len)
            for (int j = 0; j < len / 2; j++) {
                double u = row[i + j], v = row[i + j + len / 2] * cos(6.283185307 * j / len);
                row[i + j] = 0.5 * (u + v);
                row[i + j + len / 2] = 0.5 * (u - v);
            }
}

static double ft(int iters, int n) {
    int block = n / size > 0 ? n / size : 1; /* rows per rank to each rank */
    size_t count = (size_t)block * size * n;
    double *a = malloc(sizeof *a * count), *b = malloc(sizeof *b * count);
    for (size_t i = 0; i < count; i++)
        a[i] = (double)((rank * 13 + i * 5) % 23);
    for (int it = 0; it < iters; it++) {
        for (size_t r = 0; r < count / n; r++)
            transform(a + r * n, n);
        MPI_Alltoall(a, (int)(count / size), MPI_DOUBLE, b, (int)(count / size), MPI_DOUBLE,
                     MPI_COMM_WORLD);
        double *t = a;
        a = b;
        b = t;
    }
    double sum = 0, all = 0;
    for (size_t i = 0; i < count; i++)
        sum += a[i];
    MPI_Allreduce(&sum, &all, 1, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
    free(a), free(b);
    return all;
}

static double cg(int iters, int n) {
    int px, py;
    grid(&px, &py);
    int x = rank % px, y = rank / px;
    int peers[4] = {((y + py - 1) % py) * px + x, ((y + 1) % py) * px + x,
                    y * px + (x + px - 1) % px, y * px + (x + 1) % px};
    double *v = malloc(sizeof *v * (n + 4)), *q = malloc(sizeof *q * n);
    for (int i = 0; i < n; i++)
        v[i] = 1.0 / (1 + (i + rank) % 7);
    double rho = 0;
    for (int it = 0; it < iters; it++) {
        MPI_Request rq[8];
        for (int p = 0; p < 4; p++) {
            MPI_Irecv(v + n + p, 1, MPI_DOUBLE, peers[p], p, MPI_COMM_WORLD, &rq[p]);
            MPI_Isend(v + p, 1, MPI_DOUBLE, peers[p ^ 1], p, MPI_COMM_WORLD, &rq[4 + p]);
        }
        MPI_Waitall(8, rq, MPI_STATUSES_IGNORE);
        double dot = 0;
        for (int i = 0; i < n; i++) {
            double s = 0;
            for (int k = 0; k < 27; k++)
                s += v[(i * 31 + k * 97) % (n + 4)] * (1.0 / (k + 2));
            q[i] = s;
            dot += s * v[i];
        }
        double all;
        MPI_Allreduce(&dot, &all, 1, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
        double norm = 0;
        for (int i = 0; i < n; i++) {
            v[i] = q[i] / (fabs(all) + 1);
            norm += v[i] * v[i];
        }
        MPI_Allreduce(&norm, &rho, 1, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
    }
    free(v), free(q);
    return rho;
}

int main(int argc, char **argv) {
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    const char *kernel = argc > 1 ? argv[1] : "jacobi";
    int iters = argc > 2 ? atoi(argv[2]) : 100, n = argc > 3 ? atoi(argv[3]) : 256;
    double sum = !strcmp(kernel, "ft")   ? ft(iters, n)
                 : !strcmp(kernel, "cg") ? cg(iters, n)
                                         : jacobi(iters, n);
    if (rank == 0) printf("%s: checksum %.12e\nNo Errors\n", kernel, sum);
    MPI_Finalize();
    return 0;
}
