/* SPDX-License-Identifier: BSD-3-Clause */
/* The MPI program whose SimGrid time-independent trace is simgrid-app.txt:
 * recorded with SimGrid SMPI 3.32 on 4 ranks by
 *   smpicc -o app simgrid-app.c
 *   smpirun -np 4 -platform cluster.xml -hostfile hosts -trace-ti --cfg=tracing/filename:ti.txt
 * ./app (SMPI measures computation at its default host speed of 20000 flop/s, so replay it with:
 * simpi replay --set speed=20000f examples/traces/simgrid-app.txt). */
#include <mpi.h>
#include <stdio.h>
int main(int argc, char **argv) {
    int rank, size;
    double buf[1000] = {0}, out[1000];
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    MPI_Request rq[2];
    MPI_Status st[2];
    for (volatile int i = 0; i < 1000000; i++)
        ;
    if (rank == 0) MPI_Send(buf, 100, MPI_DOUBLE, 1, 7, MPI_COMM_WORLD);
    if (rank == 1) MPI_Recv(buf, 100, MPI_DOUBLE, 0, 7, MPI_COMM_WORLD, st);
    MPI_Irecv(out, 10, MPI_DOUBLE, (rank + size - 1) % size, 3, MPI_COMM_WORLD, &rq[0]);
    MPI_Isend(buf, 10, MPI_DOUBLE, (rank + 1) % size, 3, MPI_COMM_WORLD, &rq[1]);
    MPI_Waitall(2, rq, st);
    MPI_Wait(&rq[0], st);
    MPI_Barrier(MPI_COMM_WORLD);
    MPI_Bcast(buf, 50, MPI_DOUBLE, 1, MPI_COMM_WORLD);
    MPI_Allreduce(buf, out, 20, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
    MPI_Reduce(buf, out, 20, MPI_DOUBLE, MPI_SUM, 0, MPI_COMM_WORLD);
    MPI_Alltoall(buf, 5, MPI_DOUBLE, out, 5, MPI_DOUBLE, MPI_COMM_WORLD);
    MPI_Gather(buf, 5, MPI_DOUBLE, out, 5, MPI_DOUBLE, 0, MPI_COMM_WORLD);
    MPI_Allgather(buf, 5, MPI_DOUBLE, out, 5, MPI_DOUBLE, MPI_COMM_WORLD);
    MPI_Scatter(buf, 5, MPI_DOUBLE, out, 5, MPI_DOUBLE, 0, MPI_COMM_WORLD);
    MPI_Sendrecv(buf, 8, MPI_DOUBLE, (rank + 1) % size, 1, out, 8, MPI_DOUBLE,
                 (rank + size - 1) % size, 1, MPI_COMM_WORLD, st);
    MPI_Comm sub;
    MPI_Comm_split(MPI_COMM_WORLD, rank % 2, rank, &sub);
    MPI_Barrier(sub);
    MPI_Reduce_scatter_block(buf, out, 2, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
    MPI_Finalize();
    return 0;
}
