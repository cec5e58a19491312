/* SPDX-License-Identifier: BSD-3-Clause */
/* A helper thread that waits on a condition variable the whole run (as
 * OpenBLAS's do between calls) while the ranks make many MPI calls
 * (argv[1] allreduces, each ending a span of the rank's computation).
 * run-hybrid counts the readings of other threads' CPU clocks: one a span
 * when the helper's clock is read though it cannot have moved. The
 * helper's lock and condition are the rank's own, on the heap: globals
 * are swapped between ranks at switches (docs/hybrid.md). */
#include <mpi.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>

struct idle {
    pthread_mutex_t lock;
    pthread_cond_t wake;
    int done;
};

static void *helper(void *arg) {
    struct idle *h = arg;
    pthread_mutex_lock(&h->lock);
    while (!h->done)
        pthread_cond_wait(&h->wake, &h->lock);
    pthread_mutex_unlock(&h->lock);
    return NULL;
}

int main(int argc, char **argv) {
    int me, provided, iters = argc > 1 ? atoi(argv[1]) : 100;
    MPI_Init_thread(&argc, &argv, MPI_THREAD_FUNNELED, &provided);
    MPI_Comm_rank(MPI_COMM_WORLD, &me);
    struct idle *h = malloc(sizeof *h);
    if (!h) return 1;
    pthread_mutex_init(&h->lock, NULL);
    pthread_cond_init(&h->wake, NULL);
    h->done = 0;
    pthread_t t;
    if (pthread_create(&t, NULL, helper, h) != 0) return 1;
    long x = me, sum = 0;
    for (int i = 0; i < iters; i++)
        MPI_Allreduce(&x, &sum, 1, MPI_LONG, MPI_SUM, MPI_COMM_WORLD);
    pthread_mutex_lock(&h->lock);
    h->done = 1;
    pthread_cond_signal(&h->wake);
    pthread_mutex_unlock(&h->lock);
    pthread_join(t, NULL);
    free(h);
    printf("%s\n", sum == 1 ? "helper ok" : "helper wrong");
    MPI_Finalize();
    return 0;
}
