/* SPDX-License-Identifier: BSD-3-Clause */
/* ranks: 2 options: --cpu=ignore --set nodes=2 --set cores_per_node=1 --set inter.model=affine --set inter.latency=10us --set inter.bandwidth=1GB/s --set mpi.coll.barrier=dissemination --set storage.latency=100us --set storage.bandwidth=100MB/s --set storage.concurrency=2
 * The time of MPI-IO (docs/models.md, "File I/O"): one shared server with
 * 2 slots, a request of S bytes holding a slot for 100 us + S x 10 ns, the
 * server reached through rank 0's node: a request arrives there T(0) after
 * it is made and its completion takes T(0) back, with T(0) = 0.5 us from
 * rank 0 (the built-in platform's intra-node latency) and 10 us from rank 1
 * (the other node). Times count from t0, before the open, when both ranks
 * are there; the open's duplicate of the communicator is an allgather of 8
 * bytes, T(8) = 10.008 us: both ranks leave it at X = t0 + 10.008 us, then
 * make the open's metadata request of 0 bytes (100 us).
 * - opens: rank 0's arrives at X + 0.5, holds slot A to X + 100.5, done at
 *   X + 101 = 111.008 us; rank 1's arrives at X + 10, slot B to X + 110,
 *   done at X + 120 = 130.008 us.
 * - rank 0 starts 3 writes of 1000 B (110 us each) at X + 101; they arrive
 *   at X + 101.5: A serves the first from 101.5 to 211.5, B the second from
 *   110 to 220, A the third from 211.5 to 321.5; done 0.5 later: the
 *   waitall returns at X + 322 = 332.008 us.
 * - rank 1 sleeps 10 us and writes 500 B (105 us) at X + 130: it arrives
 *   at X + 140, B is free first (at 220): 220 to 325, done at X + 335 =
 *   345.008 us.
 * - write_at_all of 1000 B: a barrier first (T(0) = 10 us between the
 *   nodes): rank 0 enters at X + 322, rank 1 at X + 335; rank 0 leaves at
 *   max(322, 335 + 10) = 345, rank 1 at max(335, 322 + 10) = 335. Rank 1's
 *   request arrives first, at X + 345: A (free at 321.5) from 345 to 455,
 *   done at X + 465 = 475.008 us; rank 0's at X + 345.5: B (free at 325)
 *   from 345.5 to 455.5, done at X + 456 = 466.008 us. */
#include <math.h>
#include <mpi.h>
#include <stdio.h>
#include <unistd.h>

#include "check.h"

#define AT(t_us) EXPECT_AT_US(t0, t_us)

int main(int argc, char **argv) {
    static char buf[3000];
    int rank, errcount = 0, *errs = &errcount, total, check_rank;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    check_rank = rank;
    MPI_File fh;
    double t0 = MPI_Wtime();
    MPI_File_open(MPI_COMM_WORLD, "io_timing.out", MPI_MODE_CREATE | MPI_MODE_RDWR, MPI_INFO_NULL,
                  &fh);
    AT(rank == 0 ? 111.008 : 130.008);
    if (rank == 0) {
        MPI_Request r[3];
        for (int i = 0; i < 3; i++)
            MPI_File_iwrite_at(fh, 1000 * i, buf, 1000, MPI_CHAR, &r[i]);
        MPI_Waitall(3, r, MPI_STATUSES_IGNORE);
        AT(332.008);
    } else {
        usleep(10);
        MPI_File_write_at(fh, 3000, buf, 500, MPI_CHAR, MPI_STATUS_IGNORE);
        AT(345.008);
    }
    MPI_File_write_at_all(fh, 4000 + 1000 * rank, buf, 1000, MPI_CHAR, MPI_STATUS_IGNORE);
    AT(rank == 0 ? 466.008 : 475.008);
    MPI_File_close(&fh);
    if (rank == 0) MPI_File_delete("io_timing.out", MPI_INFO_NULL);
    MPI_Reduce(errs, &total, 1, MPI_INT, MPI_SUM, 0, MPI_COMM_WORLD);
    if (rank == 0 && total == 0) printf("No Errors\n");
    MPI_Finalize();
    return 0;
}
