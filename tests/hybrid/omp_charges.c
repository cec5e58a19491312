/* SPDX-License-Identifier: BSD-3-Clause */
/* Fixed work in threads, charged with simpi_compute_seconds (run with
 * --cpu=ignore, so that nothing measured is added): rank 0 prints how long
 * the work took in virtual time, the team size and omp_get_num_procs, and
 * run-hybrid compares with the makespans worked by hand. Modes:
 *   loop     a parallel loop of 8 iterations of 1 ms (static schedule)
 *   uneven   3 threads doing 3, 1 and 1 ms
 *   pthreads 4 pthreads of 2 ms each, joined
 *   funneled the master exchanges with the next rank inside a region
 *            (omp master), then every thread does 1 ms; the data are checked */
#include <mpi.h>
#include <omp.h>
#include <pthread.h>
#include <stdio.h>
#include <string.h>

#include "simpi.h"

static void *two_ms(void *arg) {
    (void)arg;
    simpi_compute_seconds(2e-3);
    return NULL;
}

static int run_mode(const char *mode, int me, int n, int *team) {
    if (!strcmp(mode, "loop")) {
#pragma omp parallel for schedule(static)
        for (int i = 0; i < 8; i++) {
            if (i == 0) *team = omp_get_num_threads();
            simpi_compute_seconds(1e-3);
        }
    } else if (!strcmp(mode, "uneven")) {
        const double work[3] = {3e-3, 1e-3, 1e-3};
#pragma omp parallel num_threads(3)
        {
            *team = omp_get_num_threads();
            simpi_compute_seconds(work[omp_get_thread_num()]);
        }
    } else if (!strcmp(mode, "pthreads")) {
        pthread_t t[4];
        for (int i = 0; i < 4; i++)
            pthread_create(&t[i], NULL, two_ms, NULL);
        for (int i = 0; i < 4; i++)
            pthread_join(t[i], NULL);
        *team = 4;
    } else if (!strcmp(mode, "funneled")) {
        int got = -1, bad = 0;
#pragma omp parallel
        {
#pragma omp master
            {
                *team = omp_get_num_threads();
                MPI_Sendrecv(&me, 1, MPI_INT, (me + 1) % n, 0, &got, 1, MPI_INT, (me + n - 1) % n,
                             0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
            }
#pragma omp barrier
            if (got != (me + n - 1) % n) bad = 1;
            simpi_compute_seconds(1e-3);
        }
        return bad;
    }
    return 0;
}

int main(int argc, char **argv) {
    int provided, me, n, team = 0;
    MPI_Init_thread(&argc, &argv, MPI_THREAD_FUNNELED, &provided);
    MPI_Comm_rank(MPI_COMM_WORLD, &me);
    MPI_Comm_size(MPI_COMM_WORLD, &n);
    const char *mode = argc > 1 ? argv[1] : "loop";
    double t0 = MPI_Wtime();
    int bad = run_mode(mode, me, n, &team);
    double t1 = MPI_Wtime();
    int bad_any = 0;
    MPI_Allreduce(&bad, &bad_any, 1, MPI_INT, MPI_MAX, MPI_COMM_WORLD);
    if (me == 0)
        printf("%s: %.6f ms, team %d, procs %d, max threads %d%s\n", mode, (t1 - t0) * 1e3, team,
               omp_get_num_procs(), omp_get_max_threads(), bad_any ? ", WRONG DATA" : "");
    MPI_Finalize();
    return 0;
}
