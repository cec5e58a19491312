/* SPDX-License-Identifier: BSD-3-Clause */
/* Erroneous programs: each case (argv[1]) makes one error that MPI
 * implementations may not catch; simpi sees every rank in one process and
 * must report it as an MPI error naming the call and argument, never
 * corrupt its state or crash. With "return" as argv[2] the errors come back
 * as codes (MPI_ERRORS_RETURN) and the program prints their classes. */
#include <mpi.h>
#include <stdio.h>
#include <string.h>

static void report(const char *what, int rc) {
    int cls = MPI_SUCCESS;
    if (rc != MPI_SUCCESS) MPI_Error_class(rc, &cls);
    printf("%s: class %d\n", what, cls);
}

int main(int argc, char **argv) {
    MPI_Init(&argc, &argv);
    int rank, n;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &n);
    const char *c = argc > 1 ? argv[1] : "";
    if (argc > 2 && !strcmp(argv[2], "return"))
        MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
    int v[64] = {0}, w[64] = {0};
    if (!strcmp(c, "request_twice") && rank == 0) {
        MPI_Request r, copy;
        MPI_Irecv(v, 1, MPI_INT, MPI_PROC_NULL, 0, MPI_COMM_WORLD, &r);
        copy = r;
        report("first free", MPI_Request_free(&r));
        report("second free", MPI_Request_free(&copy));
        MPI_Request a, b;
        MPI_Irecv(v, 1, MPI_INT, MPI_PROC_NULL, 0, MPI_COMM_WORLD, &a);
        MPI_Irecv(w, 1, MPI_INT, MPI_PROC_NULL, 0, MPI_COMM_WORLD, &b);
        printf("distinct handles: %d\n", a != b);
        MPI_Wait(&a, MPI_STATUS_IGNORE);
        MPI_Wait(&b, MPI_STATUS_IGNORE);
    }
    if (!strcmp(c, "wait_garbage") && rank == 0) {
        MPI_Request r = (MPI_Request)(v + 3); /* points at the program's own data */
        report("wait on garbage", MPI_Wait(&r, MPI_STATUS_IGNORE));
    }
    if (!strcmp(c, "allreduce_count")) /* rank 1 reduces more than the others */
        report("allreduce",
               MPI_Allreduce(v, w, rank == 1 ? 64 : 4, MPI_INT, MPI_SUM, MPI_COMM_WORLD));
    if (!strcmp(c, "bcast_root"))
        report("bcast", MPI_Bcast(v, 1, MPI_INT, rank == 1 ? 1 : 0, MPI_COMM_WORLD));
    if (!strcmp(c, "gather_count")) /* rank 1 sends 2 ints, the root expects 1 */
        report("gather",
               MPI_Gather(v, rank == 1 ? 2 : 1, MPI_INT, w, 1, MPI_INT, 0, MPI_COMM_WORLD));
    if (!strcmp(c, "comm_freed")) {
        MPI_Comm d;
        MPI_Comm_dup(MPI_COMM_WORLD, &d);
        MPI_Comm keep = d;
        MPI_Comm_free(&d);
        int size = -1;
        report("size of a freed communicator", MPI_Comm_size(keep, &size));
    }
    if (!strcmp(c, "free_world")) {
        MPI_Comm world = MPI_COMM_WORLD;
        report("free MPI_COMM_WORLD", MPI_Comm_free(&world));
    }
    if (!strcmp(c, "send_null") && rank == 0)
        report("send NULL", MPI_Send(NULL, 10, MPI_INT, 1, 0, MPI_COMM_WORLD));
    if (!strcmp(c, "uncommitted") && rank == 0) {
        MPI_Datatype t;
        MPI_Type_contiguous(2, MPI_INT, &t);
        report("uncommitted", MPI_Send(v, 1, t, 1, 0, MPI_COMM_WORLD));
        MPI_Type_free(&t);
    }
    if (!strcmp(c, "alias"))
        report("alias", MPI_Allreduce(v, v, 4, MPI_INT, MPI_SUM, MPI_COMM_WORLD));
    if (!strcmp(c, "alias_allgather")) /* the send block inside the receive buffer */
        report("alias", MPI_Allgather(v + 1, 1, MPI_INT, v, 1, MPI_INT, MPI_COMM_WORLD));
    if (!strcmp(c, "signature") && rank < 2) { /* ints sent, floats received */
        float f[4];
        if (rank == 0) MPI_Send(v, 4, MPI_INT, 1, 0, MPI_COMM_WORLD);
        if (rank == 1)
            report("recv", MPI_Recv(f, 4, MPI_FLOAT, 0, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE));
        /* the receive posted first, then the send: the same */
        if (rank == 1) {
            MPI_Request r;
            MPI_Irecv(f, 4, MPI_FLOAT, 0, 1, MPI_COMM_WORLD, &r);
            MPI_Barrier(MPI_COMM_WORLD);
            report("irecv", MPI_Wait(&r, MPI_STATUS_IGNORE));
        } else {
            MPI_Barrier(MPI_COMM_WORLD);
            MPI_Send(v, 4, MPI_INT32_T, 1, 1, MPI_COMM_WORLD);
        }
    } else if (!strcmp(c, "signature")) {
        MPI_Barrier(MPI_COMM_WORLD);
    }
    MPI_Barrier(MPI_COMM_WORLD);
    if (rank == 0) printf("finished\n");
    MPI_Finalize();
    return 0;
}
