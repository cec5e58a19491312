/* SPDX-License-Identifier: BSD-3-Clause */
/* MPI_THREAD_SERIALIZED: threads of a rank other than its main thread call
 * MPI, one at a time, in the usual patterns of hybrid programs; every
 * exchange's data are checked, and rank 0 prints "No Errors" when all are
 * right. Run with 2 to 4 ranks and OMP_NUM_THREADS threads.
 *   1. omp single (executed by whichever thread comes first) with an
 *      allreduce, followed by the single's barrier, 20 times;
 *   2. thread 1 (never the main thread) posts receives and sends with
 *      tag = thread number inside a critical section, and a single waits
 *      for them all: tags and contents checked;
 *   3. a receive from MPI_ANY_SOURCE by the last thread, with a barrier;
 *   4. a pthread sends to the next rank while the main thread joins it;
 *      the next rank's pthread receives it while its main thread joins;
 *   5. MPI_Comm_rank and MPI_Wtime from a thread, and MPI_Query_thread and
 *      MPI_Is_thread_main. */
#include <mpi.h>
#include <omp.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>

#include "expect.h"

static int me, n, errors;

static void single_allreduce(void) {
    int total = -1;
#pragma omp parallel shared(total)
    {
        for (int it = 0; it < 20; it++) {
#pragma omp single
            {
                int mine = me + it;
                MPI_Allreduce(&mine, &total, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
            }
            EXPECT(total == n * (n - 1) / 2 + n * it);
#pragma omp barrier
        }
    }
}

static void critical_tags(void) {
    int nt = omp_get_max_threads();
    int *got = calloc((size_t)nt, sizeof *got), *sent = calloc((size_t)nt, sizeof *sent);
    MPI_Request *reqs = calloc(2 * (size_t)nt, sizeof *reqs);
#pragma omp parallel num_threads(nt)
    {
        int t = omp_get_thread_num();
        sent[t] = 1000 * me + t;
#pragma omp critical
        {
            MPI_Irecv(&got[t], 1, MPI_INT, (me + n - 1) % n, t, MPI_COMM_WORLD, &reqs[2 * t]);
            MPI_Isend(&sent[t], 1, MPI_INT, (me + 1) % n, t, MPI_COMM_WORLD, &reqs[2 * t + 1]);
        }
#pragma omp barrier
#pragma omp single
        MPI_Waitall(2 * nt, reqs, MPI_STATUSES_IGNORE);
        EXPECT(got[t] == 1000 * ((me + n - 1) % n) + t);
    }
    free(got);
    free(sent);
    free(reqs);
}

static void any_source(void) {
    int last = -1, from = -1, sum = 0;
#pragma omp parallel
    {
        int t = omp_get_thread_num();
        if (t == omp_get_num_threads() - 1) {
            last = t;
            if (me == 0) {
                for (int i = 1; i < n; i++) {
                    MPI_Status st;
                    int v;
                    MPI_Recv(&v, 1, MPI_INT, MPI_ANY_SOURCE, 7, MPI_COMM_WORLD, &st);
                    EXPECT(v == 10 * st.MPI_SOURCE);
                    sum += v;
                }
            } else {
                int v = 10 * me;
                MPI_Send(&v, 1, MPI_INT, 0, 7, MPI_COMM_WORLD);
            }
            MPI_Comm_rank(MPI_COMM_WORLD, &from);
            int flag = -1;
            MPI_Is_thread_main(&flag);
            EXPECT(t == 0 || !flag);
            EXPECT(MPI_Wtime() >= 0);
        }
#pragma omp barrier
    }
    EXPECT(last >= 0 && from == me);
    if (me == 0) EXPECT(sum == 10 * n * (n - 1) / 2);
}

static void *pthread_exchange(void *arg) {
    int *value = arg;
    if (me % 2 == 0 && me + 1 < n) {
        MPI_Send(value, 1, MPI_INT, me + 1, 9, MPI_COMM_WORLD);
    } else if (me % 2 == 1) {
        MPI_Recv(value, 1, MPI_INT, me - 1, 9, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    }
    return NULL;
}

static void pthreads(void) {
    int value = 100 + me;
    pthread_t t;
    pthread_create(&t, NULL, pthread_exchange, &value);
    pthread_join(t, NULL);
    if (me % 2 == 1) EXPECT(value == 100 + me - 1);
}

int main(int argc, char **argv) {
    int provided, level = -1;
    MPI_Init_thread(&argc, &argv, MPI_THREAD_SERIALIZED, &provided);
    MPI_Comm_rank(MPI_COMM_WORLD, &me);
    MPI_Comm_size(MPI_COMM_WORLD, &n);
    MPI_Query_thread(&level);
    EXPECT(provided == MPI_THREAD_SERIALIZED && level == MPI_THREAD_SERIALIZED);
    single_allreduce();
    critical_tags();
    any_source();
    pthreads();
    int all = 0;
    MPI_Reduce(&errors, &all, 1, MPI_INT, MPI_SUM, 0, MPI_COMM_WORLD);
    if (me == 0 && all == 0) printf("No Errors\n");
    MPI_Finalize();
    return 0;
}
