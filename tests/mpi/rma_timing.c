/* SPDX-License-Identifier: BSD-3-Clause */
/* ranks: 2 options: --cpu=ignore --set nodes=2 --set cores_per_node=1 --set inter.model=affine --set inter.latency=10us --set inter.bandwidth=100MB/s --set mpi.coll.barrier=dissemination
 * The time of one-sided communication (docs/models.md): T(S) = 10 us +
 * S x 10 ns between the two nodes, control messages T(0) = 10 us; inside a
 * node (a rank locking its own window) the built-in platform's intra-node
 * latency, c = 0.5 us. Every operation, lock request, release, post and
 * complete reaches the other rank one control latency after it is sent,
 * and acts there then. A put is a synchronous message to the target (done
 * when its acknowledgement is back: T(S) + T(0)); a get reaches the target
 * (T(0)) whose node sends the data back (T(S)); a lock is granted when its
 * request arrives and no conflicting lock is held (first come, first
 * served), and the grant travels back; a fence is a dissemination barrier
 * after the rank's operations complete. Rank 0 is the origin, rank 1 the
 * target.
 *
 * - lock: the request arrives at 10, the grant back at 20; put 1000 B:
 *   20 + T(1000) + T(0) = 20 + 20 + 10 = 50; unlock at 50 (its release
 *   reaches rank 1 at 60) -> 50 us.
 * - lock shared at 50: arrives at 60, after the release (sent earlier),
 *   granted, back at 70; get 1000 B: 70 + T(0) + T(1000) = 100; unlock at
 *   100 (release at rank 1 at 110) -> 100 us; usleep(20) -> 120 us.
 * - rank 1 locks itself exclusively at 60: its request arrives at 60.5 and
 *   waits for rank 0's shared lock, released at 110; granted then, back at
 *   110.5 us; it holds the lock for 40 us: unlocks at 150.5 us (the release
 *   arrives at 151).
 * - rank 0 asks at 120 (arrives at 130, waits), granted at 151, back at
 *   161 us; put 8 B: 161 + T(8) + T(0) = 161 + 10.08 + 10 -> 181.08 us.
 * - rank 1 posts at 150.5 + 100 = 250.5 us; rank 0's start returns when
 *   the post arrives, at 260.5 us; put 1000 B, complete: 260.5 + 20 + 10
 *   -> 290.5 us.
 * - rank 1's wait: the complete sent at 290.5 arrives at 300.5 us.
 * - fence 1: rank 0 enters at 290.5, rank 1 at 300.5, each sends T(0) to
 *   the other: rank 0 leaves at max(290.5, 300.5 + 10) = 310.5 us, rank 1
 *   at max(300.5, 290.5 + 10) = 300.5 us.
 * - rank 0 gets 1000 B at 310.5: 310.5 + T(0) + T(1000) = 340.5; fence 2:
 *   rank 0 enters at 340.5, rank 1 at 300.5: rank 0 leaves at
 *   max(340.5, 300.5 + 10) = 340.5 us, rank 1 at max(300.5, 340.5 + 10)
 *   = 350.5 us. */
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
    AT(50);
    MPI_Win_lock(MPI_LOCK_SHARED, 1, 0, win);
    MPI_Get(buf, 1000, MPI_CHAR, 1, 0, 1000, MPI_CHAR, win);
    MPI_Win_unlock(1, win);
    AT(100);
    usleep(20);
    AT(120);
    MPI_Win_lock(MPI_LOCK_EXCLUSIVE, 1, 0, win);
    AT(161);
    MPI_Put(buf, 8, MPI_CHAR, 1, 0, 8, MPI_CHAR, win);
    MPI_Win_unlock(1, win);
    AT(181.08);
    MPI_Win_start(other, 0, win);
    AT(260.5);
    MPI_Put(buf, 1000, MPI_CHAR, 1, 0, 1000, MPI_CHAR, win);
    MPI_Win_complete(win);
    AT(290.5);
    MPI_Win_fence(0, win);
    AT(310.5);
    MPI_Get(buf, 1000, MPI_CHAR, 1, 0, 1000, MPI_CHAR, win);
    MPI_Win_fence(0, win);
    AT(340.5);
}

static void target(MPI_Win win, MPI_Group other, double t0, int *errs, int check_rank) {
    usleep(60);
    MPI_Win_lock(MPI_LOCK_EXCLUSIVE, 1, 0, win);
    AT(110.5);
    usleep(40);
    MPI_Win_unlock(1, win);
    AT(150.5);
    usleep(100);
    MPI_Win_post(other, 0, win);
    MPI_Win_wait(win);
    AT(300.5);
    MPI_Win_fence(0, win);
    AT(300.5);
    MPI_Win_fence(0, win);
    AT(350.5);
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
