/* ranks: 2 options: --cpu=ignore --set nodes=2 --set cores_per_node=1 --set inter.model=affine --set inter.latency=10us --set inter.bandwidth=1GB/s --set mpi.coll.barrier=dissemination --set storage.latency=100us --set storage.bandwidth=100MB/s --set storage.concurrency=2
 * The time of MPI-IO (docs/models.md, "File I/O"): one shared server with
 * 2 slots, a request of S bytes holding a slot for 100 us + S x 10 ns.
 * Times count from t0, when both ranks have opened the file (the open is a
 * metadata request of 0 bytes each: both slots, 100 us, symmetric).
 * - rank 0 starts 3 writes of 1000 B at 0: slots A and B serve the first two
 *   from 0 to 110 us; the third waits for A: 110 to 220 us. Its waitall
 *   returns at 220 us.
 * - rank 1 writes 500 B at 10 us: B is free first (at 110): 110 to 215 us.
 * - write_at_all of 1000 B: a barrier first (T(0) = 10 us between nodes):
 *   rank 0 enters at 220, rank 1 at 215; rank 0 leaves at
 *   max(220, 215 + 10) = 225, rank 1 at max(215, 220 + 10) = 230. Rank 0
 *   takes slot B (free at 215): 225 to 335 us; rank 1 slot A (free at
 *   220): 230 to 340 us. */
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
    MPI_File_open(MPI_COMM_WORLD, "io_timing.out", MPI_MODE_CREATE | MPI_MODE_RDWR, MPI_INFO_NULL,
                  &fh);
    double t0 = MPI_Wtime();
    if (rank == 0) {
        MPI_Request r[3];
        for (int i = 0; i < 3; i++)
            MPI_File_iwrite_at(fh, 1000 * i, buf, 1000, MPI_CHAR, &r[i]);
        MPI_Waitall(3, r, MPI_STATUSES_IGNORE);
        AT(220);
    } else {
        usleep(10);
        MPI_File_write_at(fh, 3000, buf, 500, MPI_CHAR, MPI_STATUS_IGNORE);
        AT(215);
    }
    MPI_File_write_at_all(fh, 4000 + 1000 * rank, buf, 1000, MPI_CHAR, MPI_STATUS_IGNORE);
    AT(rank == 0 ? 335 : 340);
    MPI_File_close(&fh);
    if (rank == 0) MPI_File_delete("io_timing.out", MPI_INFO_NULL);
    MPI_Reduce(errs, &total, 1, MPI_INT, MPI_SUM, 0, MPI_COMM_WORLD);
    if (rank == 0 && total == 0) printf("No Errors\n");
    MPI_Finalize();
    return 0;
}
