/* SPDX-License-Identifier: BSD-3-Clause */
/* ranks: 4
 * One-sided communication moves the right data: fence epochs with derived
 * target types, accumulates under shared locks, an atomic counter under
 * exclusive locks, compare-and-swap, post-start-complete-wait, shared and
 * dynamic windows, request-based operations, a window on a global array
 * (each rank's own copy), window attributes, and errors returned under
 * MPI_ERRORS_RETURN. */
#include <mpi.h>
#include <stdlib.h>

#include "check.h"

static int global_window[4]; /* privatized: every rank has its own */

static void fence_put_vector(int rank, int n, int *errs, int check_rank) {
    int *mem = calloc(8, sizeof *mem); /* 2 rows of 4 columns, a column per rank (n <= 4) */
    MPI_Win win;
    MPI_Win_create(mem, 8 * sizeof *mem, sizeof *mem, MPI_INFO_NULL, MPI_COMM_WORLD, &win);
    MPI_Datatype column; /* two ints, 4 apart: one column of a 2 x 4 block */
    MPI_Type_vector(2, 1, 4, MPI_INT, &column);
    MPI_Type_commit(&column);
    int mine[2] = {100 + rank, 200 + rank};
    MPI_Win_fence(0, win);
    for (int t = 0; t < n; t++)
        MPI_Put(mine, 2, MPI_INT, t, rank, 1, column, win);
    MPI_Win_fence(0, win);
    for (int r = 0; r < n; r++) {
        EXPECT(mem[r] == 100 + r);
        EXPECT(mem[4 + r] == 200 + r);
    }
    int got[2] = {0, 0}; /* and back: the column of the next rank */
    MPI_Get(got, 2, MPI_INT, (rank + 1) % n, (rank + 1) % n, 1, column, win);
    MPI_Win_fence(MPI_MODE_NOSUCCEED, win);
    EXPECT(got[0] == 100 + (rank + 1) % n && got[1] == 200 + (rank + 1) % n);
    MPI_Type_free(&column);
    MPI_Win_free(&win);
    EXPECT(win == MPI_WIN_NULL);
    free(mem);
}

static void locks_and_atomics(int rank, int n, int *errs, int check_rank) {
    int *mem;
    MPI_Win win;
    MPI_Win_allocate(4 * sizeof(int), sizeof(int), MPI_INFO_NULL, MPI_COMM_WORLD, &mem, &win);
    mem[0] = mem[1] = mem[2] = mem[3] = 0;
    MPI_Barrier(MPI_COMM_WORLD);
    /* sum of rank + 1 over the ranks, by accumulates under shared locks */
    int add = rank + 1;
    MPI_Win_lock(MPI_LOCK_SHARED, 0, 0, win);
    MPI_Accumulate(&add, 1, MPI_INT, 0, 0, 1, MPI_INT, MPI_SUM, win);
    MPI_Win_unlock(0, win);
    /* a counter: each rank takes 10 tickets, all different */
    int tickets[10];
    for (int i = 0; i < 10; i++) {
        int one = 1;
        MPI_Win_lock(MPI_LOCK_EXCLUSIVE, 0, 0, win);
        MPI_Fetch_and_op(&one, &tickets[i], MPI_INT, 0, 1, MPI_SUM, win);
        MPI_Win_unlock(0, win);
    }
    for (int i = 1; i < 10; i++)
        EXPECT(tickets[i] > tickets[i - 1]);
    /* one rank wins the compare-and-swap of 0 -> rank + 1 */
    int want = rank + 1, zero = 0, old = -1;
    MPI_Win_lock(MPI_LOCK_EXCLUSIVE, 0, 0, win);
    MPI_Compare_and_swap(&want, &zero, &old, MPI_INT, 0, 2, win);
    MPI_Win_unlock(0, win);
    int won = old == 0, winners;
    MPI_Allreduce(&won, &winners, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
    EXPECT(winners == 1);
    if (rank == 0) {
        EXPECT(mem[0] == n * (n + 1) / 2);
        EXPECT(mem[1] == 10 * n);
        EXPECT(mem[2] >= 1 && mem[2] <= n);
    }
    /* fetch without changing: MPI_NO_OP (no origin buffer needed) */
    int seen = -1;
    MPI_Win_lock_all(0, win);
    MPI_Get_accumulate(NULL, 0, MPI_DATATYPE_NULL, &seen, 1, MPI_INT, 0, 1, 1, MPI_INT, MPI_NO_OP,
                       win);
    MPI_Win_flush(0, win);
    EXPECT(seen == 10 * n);
    /* request-based: a put and a get to the right neighbour */
    int right = (rank + 1) % n, val = 1000 + rank, back = 0;
    MPI_Request req[2];
    MPI_Rput(&val, 1, MPI_INT, right, 3, 1, MPI_INT, win, &req[0]);
    MPI_Waitall(1, req, MPI_STATUSES_IGNORE);
    MPI_Win_flush(right, win);
    MPI_Rget(&back, 1, MPI_INT, right, 3, 1, MPI_INT, win, &req[1]);
    MPI_Wait(&req[1], MPI_STATUS_IGNORE);
    EXPECT(back == 1000 + rank);
    MPI_Win_unlock_all(win);
    MPI_Barrier(MPI_COMM_WORLD);
    EXPECT(mem[3] == 1000 + (rank + n - 1) % n);
    MPI_Win_free(&win);
}

static void pscw_ring(int rank, int n, int *errs, int check_rank) {
    int slot = -1, left = (rank + n - 1) % n, right = (rank + 1) % n;
    MPI_Win win;
    MPI_Win_create(&slot, sizeof slot, sizeof slot, MPI_INFO_NULL, MPI_COMM_WORLD, &win);
    MPI_Group world, from, to;
    MPI_Comm_group(MPI_COMM_WORLD, &world);
    MPI_Group_incl(world, 1, &left, &from);
    MPI_Group_incl(world, 1, &right, &to);
    for (int round = 0; round < 3; round++) {
        int value = 10 * round + rank;
        MPI_Win_post(from, 0, win);
        MPI_Win_start(to, 0, win);
        MPI_Put(&value, 1, MPI_INT, right, 0, 1, MPI_INT, win);
        MPI_Win_complete(win);
        MPI_Win_wait(win);
        EXPECT(slot == 10 * round + left);
    }
    MPI_Group_free(&from);
    MPI_Group_free(&to);
    MPI_Group_free(&world);
    MPI_Win_free(&win);
}

static void shared_and_dynamic(int rank, int n, int *errs, int check_rank) {
    int *mine, node_rank, node_n;
    MPI_Win win;
    MPI_Comm node; /* the ranks that can share memory, as MPI requires */
    MPI_Comm_split_type(MPI_COMM_WORLD, MPI_COMM_TYPE_SHARED, 0, MPI_INFO_NULL, &node);
    MPI_Comm_rank(node, &node_rank);
    MPI_Comm_size(node, &node_n);
    MPI_Win_allocate_shared(sizeof(int), sizeof(int), MPI_INFO_NULL, node, &mine, &win);
    MPI_Win_lock_all(0, win);
    *mine = 7 * node_rank;
    MPI_Win_sync(win);
    MPI_Barrier(node);
    MPI_Win_sync(win);
    int *theirs, du;
    MPI_Aint size;
    MPI_Win_shared_query(win, (node_rank + 1) % node_n, &size, &du, &theirs);
    EXPECT(size == sizeof(int) && du == sizeof(int) && *theirs == 7 * ((node_rank + 1) % node_n));
    MPI_Win_unlock_all(win);
    MPI_Win_free(&win);
    MPI_Comm_free(&node);

    int *cell = malloc(sizeof *cell);
    *cell = -1;
    MPI_Win_create_dynamic(MPI_INFO_NULL, MPI_COMM_WORLD, &win);
    MPI_Win_attach(win, cell, sizeof *cell);
    MPI_Aint addr, addrs[64];
    MPI_Get_address(cell, &addr);
    MPI_Allgather(&addr, 1, MPI_AINT, addrs, 1, MPI_AINT, MPI_COMM_WORLD);
    int right = (rank + 1) % n, v = 50 + rank;
    MPI_Win_lock(MPI_LOCK_EXCLUSIVE, right, 0, win);
    MPI_Put(&v, 1, MPI_INT, right, addrs[right], 1, MPI_INT, win);
    MPI_Win_unlock(right, win);
    MPI_Barrier(MPI_COMM_WORLD);
    EXPECT(*cell == 50 + (rank + n - 1) % n);
    MPI_Win_detach(win, cell);
    MPI_Win_free(&win);
    free(cell);
}

static void global_memory(int rank, int n, int *errs, int check_rank) {
    MPI_Win win;
    global_window[0] = global_window[1] = 0;
    MPI_Win_create(global_window, sizeof global_window, sizeof(int), MPI_INFO_NULL, MPI_COMM_WORLD,
                   &win);
    MPI_Win_fence(0, win);
    int v = rank + 1;
    MPI_Put(&v, 1, MPI_INT, (rank + 1) % n, 1, 1, MPI_INT, win);
    MPI_Win_fence(0, win);
    EXPECT(global_window[1] == (rank + n - 1) % n + 1);
    EXPECT(global_window[0] == 0);
    MPI_Win_free(&win);
}

static void queries_and_errors(int rank, int n, int *errs, int check_rank) {
    int buf[2];
    MPI_Win win;
    MPI_Win_create(buf, sizeof buf, 4, MPI_INFO_NULL, MPI_COMM_WORLD, &win);
    MPI_Aint *size;
    int *du, *flavor, *model, flag;
    void *base;
    MPI_Win_get_attr(win, MPI_WIN_BASE, &base, &flag);
    EXPECT(flag && base == buf);
    MPI_Win_get_attr(win, MPI_WIN_SIZE, &size, &flag);
    EXPECT(flag && *size == sizeof buf);
    MPI_Win_get_attr(win, MPI_WIN_DISP_UNIT, &du, &flag);
    EXPECT(flag && *du == 4);
    MPI_Win_get_attr(win, MPI_WIN_CREATE_FLAVOR, &flavor, &flag);
    EXPECT(flag && *flavor == MPI_WIN_FLAVOR_CREATE);
    MPI_Win_get_attr(win, MPI_WIN_MODEL, &model, &flag);
    EXPECT(flag && *model == MPI_WIN_UNIFIED);
    MPI_Group g;
    int gsize;
    MPI_Win_get_group(win, &g);
    MPI_Group_size(g, &gsize);
    EXPECT(gsize == n);
    MPI_Group_free(&g);
    char name[MPI_MAX_OBJECT_NAME];
    int len;
    MPI_Win_set_name(win, "halo");
    MPI_Win_get_name(win, name, &len);
    EXPECT(len == 4 && name[0] == 'h');
    MPI_Win_set_errhandler(win, MPI_ERRORS_RETURN);
    int one = 1;
    EXPECT(MPI_Put(&one, 1, MPI_INT, 0, 0, 1, MPI_INT, win) == MPI_ERR_RMA_SYNC);
    MPI_Win_lock(MPI_LOCK_SHARED, 0, 0, win);
    EXPECT(MPI_Put(&one, 1, MPI_INT, 0, 2, 1, MPI_INT, win) == MPI_ERR_RMA_RANGE);
    EXPECT(MPI_Put(&one, 1, MPI_INT, MPI_PROC_NULL, 0, 1, MPI_INT, win) == MPI_SUCCESS);
    EXPECT(MPI_Win_lock(MPI_LOCK_SHARED, 0, 0, win) == MPI_ERR_RMA_SYNC);
    MPI_Win_unlock(0, win);
    EXPECT(MPI_Win_unlock(0, win) == MPI_ERR_RMA_SYNC);
    EXPECT(MPI_Win_lock(99, 0, 0, win) == MPI_ERR_LOCKTYPE);
    MPI_Win_free(&win);
}

int main(int argc, char **argv) {
    int rank, n, errs = 0, total;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &n);
    fence_put_vector(rank, n, &errs, rank);
    locks_and_atomics(rank, n, &errs, rank);
    pscw_ring(rank, n, &errs, rank);
    shared_and_dynamic(rank, n, &errs, rank);
    global_memory(rank, n, &errs, rank);
    queries_and_errors(rank, n, &errs, rank);
    MPI_Reduce(&errs, &total, 1, MPI_INT, MPI_SUM, 0, MPI_COMM_WORLD);
    if (rank == 0 && total == 0) printf("No Errors\n");
    MPI_Finalize();
    return 0;
}
