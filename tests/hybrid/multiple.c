/* SPDX-License-Identifier: BSD-3-Clause */
/* MPI_THREAD_MULTIPLE: every thread of every rank, the main thread
 * included, calls MPI at once. Each exchange's data are checked; rank 0
 * prints "No Errors" when all are right. Run with 2 to 4 ranks and
 * OMP_NUM_THREADS threads.
 *   1. each thread t exchanges with the same thread of the next and the
 *      previous rank (MPI_Sendrecv, tag t), 10 times;
 *   2. each thread t runs an allreduce on its own communicator (a
 *      duplicate of MPI_COMM_WORLD per thread), 5 times;
 *   3. thread t of every rank but 0 sends to rank 0, whose thread t
 *      receives from MPI_ANY_SOURCE with tag t, n - 1 times. */
#include <mpi.h>
#include <omp.h>
#include <stdio.h>
#include <stdlib.h>

#include "expect.h"

static int me, n, errors;

int main(int argc, char **argv) {
    int provided;
    MPI_Init_thread(&argc, &argv, MPI_THREAD_MULTIPLE, &provided);
    MPI_Comm_rank(MPI_COMM_WORLD, &me);
    MPI_Comm_size(MPI_COMM_WORLD, &n);
    EXPECT(provided == MPI_THREAD_MULTIPLE);
    int nt = omp_get_max_threads();
    MPI_Comm *comms = malloc(sizeof *comms * (size_t)nt);
    for (int t = 0; t < nt; t++)
        MPI_Comm_dup(MPI_COMM_WORLD, &comms[t]);
#pragma omp parallel num_threads(nt)
    {
        int t = omp_get_thread_num();
        for (int it = 0; it < 10; it++) {
            int out = 1000 * me + 10 * t + it, in = -1;
            MPI_Sendrecv(&out, 1, MPI_INT, (me + 1) % n, t, &in, 1, MPI_INT, (me + n - 1) % n, t,
                         MPI_COMM_WORLD, MPI_STATUS_IGNORE);
            EXPECT(in == 1000 * ((me + n - 1) % n) + 10 * t + it);
        }
        for (int it = 0; it < 5; it++) {
            int mine = me + t + it, sum = -1;
            MPI_Allreduce(&mine, &sum, 1, MPI_INT, MPI_SUM, comms[t]);
            EXPECT(sum == n * (n - 1) / 2 + n * (t + it));
        }
        if (me == 0) {
            int total = 0;
            for (int i = 1; i < n; i++) {
                int v = -1;
                MPI_Status st;
                MPI_Recv(&v, 1, MPI_INT, MPI_ANY_SOURCE, t, MPI_COMM_WORLD, &st);
                EXPECT(v == 100 * st.MPI_SOURCE + t);
                total += st.MPI_SOURCE;
            }
            EXPECT(total == n * (n - 1) / 2);
        } else {
            int v = 100 * me + t;
            MPI_Send(&v, 1, MPI_INT, 0, t, MPI_COMM_WORLD);
        }
    }
    for (int t = 0; t < nt; t++)
        MPI_Comm_free(&comms[t]);
    free(comms);
    int all = 0;
    MPI_Reduce(&errors, &all, 1, MPI_INT, MPI_SUM, 0, MPI_COMM_WORLD);
    if (me == 0 && all == 0) printf("No Errors\n");
    MPI_Finalize();
    return 0;
}
