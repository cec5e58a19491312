/* SPDX-License-Identifier: BSD-3-Clause */
/* ranks: 3 args: -n 5 -v extra
 * The C library state a process owns is per rank: every rank parses its
 * options with getopt (a mini-app that does so aborted when ranks shared
 * optind); rand() and drand48() sequences and strtok() positions are not
 * disturbed by other ranks' calls in between. The expected values come from
 * the same calls made with no other rank in between (after reseeding). */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

int main(int argc, char **argv) {
    int me, errors = 0, n = 0, verbose = 0, c;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &me);
    MPI_Barrier(MPI_COMM_WORLD);
    while ((c = getopt(argc, argv, "n:v")) != -1) {
        if (c == 'n') n = atoi(optarg);
        if (c == 'v') verbose = 1;
        if (c == '?') errors++;
        MPI_Barrier(MPI_COMM_WORLD); /* other ranks parse in between */
    }
    if (n != 5 || !verbose || optind != 4 || strcmp(argv[optind], "extra"))
        errors++, printf("rank %d: getopt gave n=%d v=%d optind=%d\n", me, n, verbose, optind);

    srand(42 + me);
    int r1 = rand();
    MPI_Barrier(MPI_COMM_WORLD); /* other ranks draw in between */
    int r2 = rand();
    srand48(7 + me);
    double d1 = drand48();
    MPI_Barrier(MPI_COMM_WORLD);
    double d2 = drand48();
    srand(42 + me);
    int e1 = rand(), e2 = rand();
    srand48(7 + me);
    double f1 = drand48(), f2 = drand48();
    if (r1 != e1 || r2 != e2 || d1 != f1 || d2 != f2)
        errors++, printf("rank %d: random sequences disturbed by other ranks\n", me);

    char text[32];
    snprintf(text, sizeof text, "r%d,a,b%d", me, me);
    char want[3][8];
    snprintf(want[0], 8, "r%d", me);
    snprintf(want[1], 8, "a");
    snprintf(want[2], 8, "b%d", me);
    int k = 0;
    for (char *t = strtok(text, ","); t; t = strtok(NULL, ",")) {
        if (k > 2 || strcmp(t, want[k])) errors++, printf("rank %d: token %d '%s'\n", me, k, t);
        k++;
        MPI_Barrier(MPI_COMM_WORLD); /* other ranks tokenize in between */
    }
    if (k != 3) errors++;
    int all;
    MPI_Allreduce(&errors, &all, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
    if (me == 0) printf(all ? "Found %d errors\n" : "No Errors\n", all);
    MPI_Finalize();
    return 0;
}
