/* SPDX-License-Identifier: BSD-3-Clause */
/* ranks: 6
 * Graph and distributed graph topologies and the neighborhood collectives
 * (MPI-3.1 7.5-7.6): on a 2 x 3 grid periodic in its second dimension, a
 * ring graph, and a ring as a distributed graph given adjacently and by
 * one rank for all, each rank gets its neighbors' blocks in the order MPI
 * defines (a grid: per dimension the source, then the destination of a
 * shift by 1; the block a neighbor sent towards + lands in the - slot). */
#include <mpi.h>
#include <stdio.h>

#include "check.h"

static void grid(int rank, int *errs, int check_rank) {
    int dims[2] = {2, 3}, periods[2] = {0, 1}, status, nbr[4];
    MPI_Comm cart;
    MPI_Cart_create(MPI_COMM_WORLD, 2, dims, periods, 0, &cart);
    MPI_Topo_test(cart, &status);
    EXPECT(status == MPI_CART);
    for (int d = 0; d < 2; d++)
        MPI_Cart_shift(cart, d, 1, &nbr[2 * d], &nbr[2 * d + 1]);
    int send[4], recv[4] = {-1, -1, -1, -1};
    for (int j = 0; j < 4; j++)
        send[j] = 10 * rank + j;
    MPI_Neighbor_alltoall(send, 1, MPI_INT, recv, 1, MPI_INT, cart);
    for (int i = 0; i < 4; i++)
        EXPECT(nbr[i] == MPI_PROC_NULL ? recv[i] == -1 : recv[i] == 10 * nbr[i] + (i ^ 1));
    MPI_Comm_free(&cart);
}

static void ring_graph(int rank, int n, int *errs, int check_rank) {
    int index[6], edges[12], status, nn, ne, count;
    for (int i = 0; i < n; i++) {
        index[i] = 2 * (i + 1);
        edges[2 * i] = (i + n - 1) % n;
        edges[2 * i + 1] = (i + 1) % n;
    }
    MPI_Comm g;
    MPI_Graph_create(MPI_COMM_WORLD, n, index, edges, 0, &g);
    MPI_Topo_test(g, &status);
    MPI_Graphdims_get(g, &nn, &ne);
    MPI_Graph_neighbors_count(g, rank, &count);
    EXPECT(status == MPI_GRAPH && nn == n && ne == 2 * n && count == 2);
    int got[2] = {-1, -1};
    MPI_Neighbor_allgather(&rank, 1, MPI_INT, got, 1, MPI_INT, g);
    EXPECT(got[0] == (rank + n - 1) % n && got[1] == (rank + 1) % n);
    MPI_Comm_free(&g);
}

static void dist_graphs(int rank, int n, int *errs, int check_rank) {
    int left = (rank + n - 1) % n, right = (rank + 1) % n, status;
    MPI_Comm adj, all;
    MPI_Dist_graph_create_adjacent(MPI_COMM_WORLD, 1, &left, MPI_UNWEIGHTED, 1, &right,
                                   MPI_UNWEIGHTED, MPI_INFO_NULL, 0, &adj);
    MPI_Topo_test(adj, &status);
    EXPECT(status == MPI_DIST_GRAPH);
    int got = -1;
    MPI_Request r;
    MPI_Ineighbor_allgather(&rank, 1, MPI_INT, &got, 1, MPI_INT, adj, &r);
    MPI_Wait(&r, MPI_STATUS_IGNORE);
    EXPECT(got == left);
    /* rank 0 gives every edge i -> i + 1, with weight i */
    int nodes[6], degrees[6], dests[6], weights[6];
    for (int i = 0; i < n; i++)
        nodes[i] = i, degrees[i] = 1, dests[i] = (i + 1) % n, weights[i] = i;
    MPI_Dist_graph_create(MPI_COMM_WORLD, rank == 0 ? n : 0, nodes, degrees, dests, weights,
                          MPI_INFO_NULL, 0, &all);
    int in, out, weighted, src = -1, sw = -1, dst = -1, dw = -1;
    MPI_Dist_graph_neighbors_count(all, &in, &out, &weighted);
    MPI_Dist_graph_neighbors(all, 1, &src, &sw, 1, &dst, &dw);
    EXPECT(in == 1 && out == 1 && weighted && src == left && sw == left && dst == right &&
           dw == rank);
    int sends[1] = {100 + rank}, recvs[1] = {-1}, one = 1, zero = 0;
    MPI_Neighbor_alltoallv(sends, &one, &zero, MPI_INT, recvs, &one, &zero, MPI_INT, all);
    EXPECT(recvs[0] == 100 + left);
    MPI_Comm_free(&adj);
    MPI_Comm_free(&all);
}

int main(int argc, char **argv) {
    int rank, n, errs = 0, total;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &n);
    grid(rank, &errs, rank);
    ring_graph(rank, n, &errs, rank);
    dist_graphs(rank, n, &errs, rank);
    MPI_Reduce(&errs, &total, 1, MPI_INT, MPI_SUM, 0, MPI_COMM_WORLD);
    if (rank == 0 && total == 0) printf("No Errors\n");
    MPI_Finalize();
    return 0;
}
