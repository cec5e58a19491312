/* SPDX-License-Identifier: BSD-3-Clause */
/* A rank starts a thread that calls MPI. The program asked for
 * MPI_THREAD_SINGLE, or with -DASK_LEVEL=L for level L: below
 * MPI_THREAD_SERIALIZED simpi must stop with a message naming the call, the
 * thread and the levels asked for and given, write its JSON, and exit 4 -
 * never hang or crash; from SERIALIZED up (MULTIPLE is given SERIALIZED)
 * the call is made and the run ends normally. MPI_Wtime and
 * MPI_Is_thread_main from the thread are allowed. */
#include <mpi.h>
#include <pthread.h>
#include <stdio.h>

static int peer;

static void *worker(void *arg) {
    (void)arg;
    int main_thread = 1;
    MPI_Is_thread_main(&main_thread);
    if (main_thread || MPI_Wtime() < 0) printf("Is_thread_main or Wtime wrong\n");
    int v = 1;
    MPI_Send(&v, 1, MPI_INT, peer, 0, MPI_COMM_WORLD);
    return NULL;
}

int main(int argc, char **argv) {
#ifdef ASK_LEVEL
    int provided;
    MPI_Init_thread(&argc, &argv, ASK_LEVEL, &provided);
#else
    MPI_Init(&argc, &argv);
#endif
    int rank, v;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    printf("rank %d started\n", rank);
    if (rank == 0) {
        peer = 1;
        pthread_t t;
        pthread_create(&t, NULL, worker, NULL);
        pthread_join(t, NULL);
    } else if (rank == 1) {
        MPI_Recv(&v, 1, MPI_INT, 0, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    }
    MPI_Finalize();
    return 0;
}
