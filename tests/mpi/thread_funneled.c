/* SPDX-License-Identifier: BSD-3-Clause */
/* ranks: 2 options: --cpu=ignore
 * A hybrid program's start: it asks for MPI_THREAD_MULTIPLE and is given
 * it (docs/hybrid.md), which MPI_Query_thread repeats. A thread of each rank
 * computes without MPI (MPI_Is_thread_main says it is not the main
 * thread), then the main thread sends its result around. Prints
 * "No Errors" when all checks pass. */
#include <mpi.h>
#include <pthread.h>
#include <stdio.h>

#include "check.h"
#define check_rank me

struct work {
    int rank;
    long sum;
    int is_main;
};

static void *worker(void *arg) {
    struct work *w = arg;
    for (int i = 1; i <= 1000; i++)
        w->sum += i * (w->rank + 1);
    MPI_Is_thread_main(&w->is_main);
    return NULL;
}

int main(int argc, char **argv) {
    int provided = -1, queried = -1, is_main = 0, me, size, errors = 0, *errs = &errors;
    MPI_Init_thread(&argc, &argv, MPI_THREAD_MULTIPLE, &provided);
    MPI_Comm_rank(MPI_COMM_WORLD, &me);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    EXPECT(provided == MPI_THREAD_MULTIPLE);
    MPI_Query_thread(&queried);
    EXPECT(queried == MPI_THREAD_MULTIPLE);
    MPI_Is_thread_main(&is_main);
    EXPECT(is_main == 1);
    struct work w = {me, 0, -1};
    pthread_t t;
    EXPECT(pthread_create(&t, NULL, worker, &w) == 0);
    pthread_join(t, NULL);
    EXPECT(w.is_main == 0);
    EXPECT(w.sum == 500500L * (me + 1)); /* 1 + ... + 1000, times rank + 1 */
    long total = 0;
    MPI_Allreduce(&w.sum, &total, 1, MPI_LONG, MPI_SUM, MPI_COMM_WORLD);
    EXPECT(total == 500500L * size * (size + 1) / 2);
    int all = 0;
    MPI_Allreduce(&errors, &all, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
    if (me == 0 && all == 0) printf("No Errors\n");
    MPI_Finalize();
    return 0;
}
