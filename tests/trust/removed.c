/* SPDX-License-Identifier: BSD-3-Clause */
/* Every MPI-1 function removed in MPI-3 (and MPI_Info_get, deprecated in
 * MPI-4), called from C and checked (issue 45): real codes still call
 * them, and MPICH still provides them. 2 ranks; rank 0 prints
 * "removed: ok" when every check passed. */
#include <mpi.h>
#include <stdio.h>
#include <string.h>

static int bad, rank, handled;

static void check(int ok, const char *what) {
    if (!ok) {
        printf("rank %d: FAILED %s\n", rank, what);
        bad++;
    }
}

static void on_error(MPI_Comm *comm, int *code, ...) {
    if (*comm == MPI_COMM_WORLD && *code != MPI_SUCCESS) handled++;
}

int main(int argc, char **argv) {
    int nranks;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &nranks);
    double x[8] = {0};
    MPI_Aint a1, a2, ext, lb, ub;
    MPI_Address(&x[0], &a1);
    MPI_Address(&x[1], &a2);
    check(a2 - a1 == 8, "MPI_Address");
    /* hvector(2, 1, 16 bytes, double): extent 16 + 8 = 24 */
    MPI_Datatype hvec, hind, strct;
    MPI_Type_hvector(2, 1, 16, MPI_DOUBLE, &hvec);
    MPI_Type_commit(&hvec);
    MPI_Type_extent(hvec, &ext);
    MPI_Type_lb(hvec, &lb);
    MPI_Type_ub(hvec, &ub);
    check(ext == 24 && lb == 0 && ub == 24, "MPI_Type_hvector/extent/lb/ub");
    int lens[2] = {1, 1};
    MPI_Aint displs[2] = {0, 16};
    MPI_Type_hindexed(2, lens, displs, MPI_INT, &hind); /* extent 16 + 4 = 20 */
    MPI_Type_extent(hind, &ext);
    check(ext == 20, "MPI_Type_hindexed");
    MPI_Datatype types[2] = {MPI_INT, MPI_DOUBLE};
    displs[1] = 8;
    MPI_Type_struct(2, lens, displs, types, &strct); /* extent 16 */
    MPI_Type_extent(strct, &ext);
    check(ext == 16, "MPI_Type_struct");
    MPI_Type_free(&strct);
    MPI_Type_free(&hind);
    if (rank == 0) {
        for (int i = 0; i < 8; i++)
            x[i] = i + 1;
        MPI_Send(x, 1, hvec, 1, 5, MPI_COMM_WORLD);
    } else if (rank == 1) {
        MPI_Recv(x, 1, hvec, 0, 5, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
        check(x[0] == 1 && x[1] == 0 && x[2] == 3, "data of a hvector");
    }
    MPI_Type_free(&hvec);
    /* MPI-1 attributes: MPI_DUP_FN copies the value to a duplicate */
    int key, *got, flag, value = 42;
    MPI_Keyval_create(MPI_DUP_FN, MPI_NULL_DELETE_FN, &key, NULL);
    MPI_Attr_put(MPI_COMM_WORLD, key, &value);
    MPI_Attr_get(MPI_COMM_WORLD, key, &got, &flag);
    check(flag && *got == 42, "MPI_Attr_put/get");
    MPI_Comm dup;
    MPI_Comm_dup(MPI_COMM_WORLD, &dup);
    MPI_Attr_get(dup, key, &got, &flag);
    check(flag && got == &value, "MPI_DUP_FN copies the attribute");
    MPI_Attr_delete(dup, key);
    MPI_Attr_get(dup, key, &got, &flag);
    check(!flag, "MPI_Attr_delete");
    MPI_Comm_free(&dup);
    MPI_Attr_delete(MPI_COMM_WORLD, key);
    MPI_Keyval_free(&key);
    check(key == MPI_KEYVAL_INVALID, "MPI_Keyval_free");
    /* MPI-1 error handlers */
    MPI_Errhandler eh, got_eh;
    MPI_Errhandler_create(on_error, &eh);
    MPI_Errhandler_set(MPI_COMM_WORLD, eh);
    MPI_Errhandler_get(MPI_COMM_WORLD, &got_eh);
    check(got_eh == eh, "MPI_Errhandler_get");
    int rc = MPI_Send(x, 1, MPI_DOUBLE, nranks, 0, MPI_COMM_WORLD);
    check(handled == 1 && rc != MPI_SUCCESS, "MPI_Errhandler_set: handler called");
    MPI_Errhandler_set(MPI_COMM_WORLD, MPI_ERRORS_ARE_FATAL);
    MPI_Errhandler_free(&eh);
    /* MPI_Info_get, MPI_Info_get_valuelen */
    MPI_Info info;
    char buf[16];
    int vlen;
    MPI_Info_create(&info);
    MPI_Info_set(info, "simpi", "yes");
    MPI_Info_get_valuelen(info, "simpi", &vlen, &flag);
    check(flag && vlen == 3, "MPI_Info_get_valuelen");
    MPI_Info_get(info, "simpi", sizeof buf - 1, buf, &flag);
    check(flag && !strcmp(buf, "yes"), "MPI_Info_get");
    MPI_Info_free(&info);
    MPI_Allreduce(MPI_IN_PLACE, &bad, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
    if (rank == 0 && bad == 0) printf("removed: ok\n");
    MPI_Finalize();
    return 0;
}
