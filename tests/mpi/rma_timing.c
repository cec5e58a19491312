/* ranks: 2 options: --cpu=ignore --set nodes=2 --set cores_per_node=1 --set inter.model=affine --set inter.latency=10us --set inter.bandwidth=100MB/s --set mpi.coll.barrier=dissemination
 * The time of one-sided communication (docs/models.md): T(S) = 10 us +
 * S x 10 ns between the two nodes, control messages T(0) = 10 us. A put is a
 * synchronous message to the target (done when its acknowledgement is
 * back: T(S) + T(0)), a get a message from the target (T(S)); a contended
 * lock is granted T(0) after the holder releases it; a post or complete
 * arrives T(0) after it is sent; a fence is a dissemination barrier after
 * the rank's operations complete. Rank 0 is the origin, rank 1 the target.
 *
 * - lock, put 1000 B, unlock: 0 + T(1000) + T(0) = 20 + 10 -> 30 us.
 * - lock shared, get 1000 B, unlock: 30 + T(1000) = 30 + 20 -> 50 us.
 * - rank 1 holds its own exclusive lock from 60 to 100 us (usleep); rank 0
 *   asks at 70 us, is granted at 100 + 10 = 110 us; put 8 B, unlock:
 *   110 + T(8) + T(0) = 110 + 10.08 + 10 -> 130.08 us.
 * - rank 1 posts at 200 us; rank 0's start (called at 130.08) returns at
 *   200 + 10 = 210 us; put 1000 B, complete: 210 + 20 + 10 -> 240 us.
 * - rank 1's wait: the complete sent at 240 arrives at 250 us.
 * - fence 1: rank 0 enters at 240, rank 1 at 250, each sends T(0) to the
 *   other: rank 0 leaves at max(240, 250 + 10) = 260 us, rank 1 at
 *   max(250, 240 + 10) = 250 us.
 * - rank 0 gets 1000 B at 260: done at 280; fence 2: rank 0 enters at
 *   280, rank 1 at 250: rank 0 leaves at max(280, 250 + 10) = 280 us,
 *   rank 1 at max(250, 280 + 10) = 290 us. */
#include <math.h>
#include <mpi.h>
#include <unistd.h>

#include "check.h"

/* times count from t0, when both ranks have the window (its creation is a
 * collective, symmetric for two ranks) */
#define AT(t_us) EXPECT_AT_US(t0, t_us)

static void origin(MPI_Win win, char *buf, MPI_Group other, double t0, int *errs, int check_rank) {
    MPI_Win_lock(MPI_LOCK_EXCLUSIVE, 1, 0, win);
    MPI_Put(buf, 1000, MPI_CHAR, 1, 0, 1000, MPI_CHAR, win);
    MPI_Win_unlock(1, win);
    AT(30);
    MPI_Win_lock(MPI_LOCK_SHARED, 1, 0, win);
    MPI_Get(buf, 1000, MPI_CHAR, 1, 0, 1000, MPI_CHAR, win);
    MPI_Win_unlock(1, win);
    AT(50);
    usleep(20);
    AT(70);
    MPI_Win_lock(MPI_LOCK_EXCLUSIVE, 1, 0, win);
    AT(110);
    MPI_Put(buf, 8, MPI_CHAR, 1, 0, 8, MPI_CHAR, win);
    MPI_Win_unlock(1, win);
    AT(130.08);
    MPI_Win_start(other, 0, win);
    AT(210);
    MPI_Put(buf, 1000, MPI_CHAR, 1, 0, 1000, MPI_CHAR, win);
    MPI_Win_complete(win);
    AT(240);
    MPI_Win_fence(0, win);
    AT(260);
    MPI_Get(buf, 1000, MPI_CHAR, 1, 0, 1000, MPI_CHAR, win);
    MPI_Win_fence(0, win);
    AT(280);
}

static void target(MPI_Win win, MPI_Group other, double t0, int *errs, int check_rank) {
    usleep(60);
    MPI_Win_lock(MPI_LOCK_EXCLUSIVE, 1, 0, win);
    AT(60);
    usleep(40);
    MPI_Win_unlock(1, win);
    AT(100);
    usleep(100);
    MPI_Win_post(other, 0, win);
    MPI_Win_wait(win);
    AT(250);
    MPI_Win_fence(0, win);
    AT(250);
    MPI_Win_fence(0, win);
    AT(290);
}

int main(int argc, char **argv) {
    static char buf[1000], mem[1000];
    int rank, errs = 0, total, peer;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Win win;
    MPI_Win_create(mem, sizeof mem, 1, MPI_INFO_NULL, MPI_COMM_WORLD, &win);
    MPI_Group world, other;
    MPI_Comm_group(MPI_COMM_WORLD, &world);
    peer = 1 - rank;
    MPI_Group_incl(world, 1, &peer, &other);
    double t0 = MPI_Wtime();
    if (rank == 0)
        origin(win, buf, other, t0, &errs, rank);
    else
        target(win, other, t0, &errs, rank);
    MPI_Win_free(&win);
    MPI_Reduce(&errs, &total, 1, MPI_INT, MPI_SUM, 0, MPI_COMM_WORLD);
    if (rank == 0 && total == 0) printf("No Errors\n");
    MPI_Finalize();
    return 0;
}
