/* SPDX-License-Identifier: BSD-3-Clause */
/* A thread that rank 1 starts and never joins (issue 45): it sleeps in a
 * loop ("sleep") or computes forever ("spin"), while the ranks compute
 * and meet at barriers. Under mpirun the process's end ends the thread;
 * under simpi the run must end as well, with no crash and no stall. */
#include <mpi.h>
#include <pthread.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

static volatile long ticks;
static int sleeps;

static void *helper(void *arg) {
    (void)arg;
    for (;;) {
        if (sleeps) usleep(1000);
        ticks++;
    }
    return NULL;
}

int main(int argc, char **argv) {
    int provided, rank;
    MPI_Init_thread(&argc, &argv, MPI_THREAD_FUNNELED, &provided);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    sleeps = argc < 2 || strcmp(argv[1], "spin") != 0;
    pthread_t t;
    if (rank == 1 && pthread_create(&t, NULL, helper, NULL) != 0) return 1;
    volatile double x = 0;
    for (int k = 0; k < 20; k++) {
        for (long i = 0; i < 1000000; i++)
            x += 1e-9 * (double)i;
        MPI_Barrier(MPI_COMM_WORLD);
    }
    printf("rank %d done\n", rank);
    MPI_Finalize();
    return 0;
}
