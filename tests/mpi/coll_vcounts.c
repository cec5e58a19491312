/* SPDX-License-Identifier: BSD-3-Clause */
/* ranks: 3 options: --cpu=ignore --set nodes=3 --set cores_per_node=1 --set inter.model=affine --set inter.latency=10us --set inter.bandwidth=100MB/s --set mpi.coll.alltoall=pairwise
 * Variable-count collectives are timed with each peer's own count.
 * T(S) = 10 us + S / 100 MB/s (1000 B: 20 us), all messages eager; each
 * node's interface sends (and takes in) one message after another, for
 * W(S) = S / 100 MB/s each (1000 B: 10 us).
 * MPI_Alltoallv, pairwise exchange (forced), bytes
 * i -> j: 0->1 1000, 0->2 3000, 1->0 0, 1->2 2000, 2->0 4000, 2->1 1000.
 *   round 1 (to i+1): 0->1 arrives 20, 1->2 at 30, 2->0 at 50
 *   round 2 (to i+2), posted when round 1 ends: rank 0 at 50 sends 3000 B
 *   to 2 (arrives 90); rank 1 at 20 sends 0 B to 0 (30); rank 2 at 30
 *   sends 1000 B to 1, which leaves when node 2's interface has sent the
 *   4000 B (0 to 40 us): at 40, arriving at 60.
 *   rank 0 ends at 50, rank 1 at 60, rank 2 at 90.
 * MPI_Gatherv to rank 0 (linear): 2000 B from rank 1 and 5000 B from rank
 * 2 leave at once; their first bytes reach node 0 at 10 us, and its
 * interface takes in one (W = 20 us) and then the other (W = 50 us): the
 * root ends at 10 + 20 + 50 = 80 us, the others at once. */
#include <mpi.h>
#include <simpi.h>
#include <stdio.h>

static int me, errors;

/* Every rank computes until virtual time `at`: they all start together. */
static double align(double at) {
    simpi_compute_seconds(at - MPI_Wtime());
    return MPI_Wtime();
}

static void expect_us(const char *what, double t, double want) {
    double got = (MPI_Wtime() - t) * 1e6;
    if (got < want - 1e-6 || got > want + 1e-6) {
        errors++;
        printf("rank %d: %s took %.6f us, expected %.6f us\n", me, what, got, want);
    }
}

int main(int argc, char **argv) {
    static char sbuf[8000], rbuf[8000];
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &me);
    const int bytes[3][3] = {{0, 1000, 3000}, {0, 0, 2000}, {4000, 1000, 0}};
    int sc[3], sd[3], rc[3], rd[3], at = 0, rat = 0;
    for (int j = 0; j < 3; j++) {
        sc[j] = bytes[me][j];
        sd[j] = at;
        at += sc[j];
        rc[j] = bytes[j][me];
        rd[j] = rat;
        rat += rc[j];
    }
    double t = align(1e-3);
    MPI_Alltoallv(sbuf, sc, sd, MPI_CHAR, rbuf, rc, rd, MPI_CHAR, MPI_COMM_WORLD);
    const double alltoallv_us[3] = {50, 60, 90};
    expect_us("alltoallv", t, alltoallv_us[me]);

    t = align(2e-3);
    int gc[3] = {0, 2000, 5000}, gd[3] = {0, 0, 2000};
    MPI_Gatherv(sbuf, gc[me], MPI_CHAR, rbuf, gc, gd, MPI_CHAR, 0, MPI_COMM_WORLD);
    expect_us("gatherv", t, me == 0 ? 80 : 0);
    int total;
    MPI_Allreduce(&errors, &total, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
    if (me == 0 && total == 0) printf("No Errors\n");
    MPI_Finalize();
    return 0;
}
