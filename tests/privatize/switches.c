/* SPDX-License-Identifier: BSD-3-Clause */
/* Many switches between ranks' images: ITERS allreduces (argv[1]) by every
 * rank, each a switch to every other, with 128 KiB of globals (images are
 * chosen) and each rank writing through its own stdout (a copy-relocated
 * variable, which the C library reaches through the program). */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>

static char globals[128 * 1024];

int main(int argc, char **argv) {
    MPI_Init(&argc, &argv);
    int me, n, iters = argc > 1 ? atoi(argv[1]) : 100;
    MPI_Comm_rank(MPI_COMM_WORLD, &me);
    MPI_Comm_size(MPI_COMM_WORLD, &n);
    globals[me] = (char)(me + 1);
    char name[64];
    snprintf(name, sizeof name, "%s.%d", argc > 2 ? argv[2] : "switches", me);
    FILE *mine = fopen(name, "w"), *shared = stdout;
    if (!mine) return 1;
    stdout = mine; /* this rank's; the others keep theirs */
    long x = me, sum = 0;
    for (int i = 0; i < iters; i++) {
        MPI_Allreduce(&x, &sum, 1, MPI_LONG, MPI_SUM, MPI_COMM_WORLD);
        if (i == iters / 2) printf("rank %d\n", me); /* the C library's stdout: this rank's */
    }
    stdout = shared;
    fclose(mine);
    int ok = sum == (long)n * (n - 1) / 2 && globals[me] == me + 1;
    for (int r = 0; r < n; r++)
        ok = ok && (r == me || globals[r] == 0);
    printf("%s\n", ok ? "switches ok" : "switches wrong");
    MPI_Finalize();
    return 0;
}
