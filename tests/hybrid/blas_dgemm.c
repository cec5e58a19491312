/* SPDX-License-Identifier: BSD-3-Clause */
/* A threaded dgemm (OpenBLAS) per rank: rank 0 prints the call's virtual
 * time, the BLAS thread count and a checksum of the product. */
#include <cblas.h>
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>

int main(int argc, char **argv) {
    MPI_Init(&argc, &argv);
    int me;
    MPI_Comm_rank(MPI_COMM_WORLD, &me);
    int n = argc > 1 ? atoi(argv[1]) : 800;
    double *a = malloc(sizeof *a * (size_t)n * (size_t)n),
           *b = malloc(sizeof *b * (size_t)n * (size_t)n),
           *c = malloc(sizeof *c * (size_t)n * (size_t)n);
    for (long i = 0; i < (long)n * n; i++) {
        a[i] = 1.0 / (double)(i % 7 + 1);
        b[i] = (double)(i % 5) * 0.5;
    }
    double t0 = MPI_Wtime();
    cblas_dgemm(CblasRowMajor, CblasNoTrans, CblasNoTrans, n, n, n, 1.0, a, n, b, n, 0.0, c, n);
    double t1 = MPI_Wtime(), check = 0;
    for (long i = 0; i < (long)n * n; i += 97)
        check += c[i];
    MPI_Barrier(MPI_COMM_WORLD);
    if (me == 0)
        printf("dgemm %.6f ms, blas threads %d, checksum %.6f\n", (t1 - t0) * 1e3,
               openblas_get_num_threads(), check);
    free(a);
    free(b);
    free(c);
    MPI_Finalize();
    return 0;
}
