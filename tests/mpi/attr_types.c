/* SPDX-License-Identifier: BSD-3-Clause */
/* ranks: 2
 * Datatype attributes and keyval lifetimes: MPI_Type_dup copies through the
 * copy callback, MPI_Type_free runs the delete callback; a keyval freed
 * while attributes use it lives until the last one goes; a copy callback's
 * error makes MPI_Comm_dup fail with it (MPI_ERRORS_RETURN) and return
 * MPI_COMM_NULL; deleting a value that is not set does nothing. */
#include <mpi.h>
#include <stdio.h>

static int copies, deletes;

static int copy_fn(MPI_Datatype t, int key, void *extra, void *in, void *out, int *flag) {
    (void)t, (void)key, (void)extra;
    copies++;
    *(void **)out = (char *)in + 1;
    *flag = 1;
    return MPI_SUCCESS;
}

static int delete_fn(MPI_Datatype t, int key, void *value, void *extra) {
    (void)t, (void)key, (void)value, (void)extra;
    deletes++;
    return MPI_SUCCESS;
}

static int failing_copy(MPI_Comm c, int key, void *extra, void *in, void *out, int *flag) {
    (void)c, (void)key, (void)extra, (void)in, (void)out, (void)flag;
    return MPI_ERR_OTHER;
}

int main(int argc, char **argv) {
    int me, errors = 0, key, flag;
    void *v;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &me);
    MPI_Datatype t, t2;
    MPI_Type_contiguous(4, MPI_INT, &t);
    MPI_Type_create_keyval(copy_fn, delete_fn, &key, NULL);
    MPI_Type_set_attr(t, key, (void *)100);
    MPI_Type_dup(t, &t2);
    MPI_Type_get_attr(t2, key, &v, &flag);
    errors += !flag || v != (void *)101 || copies != 1;
    MPI_Type_free_keyval(&key); /* t and t2 still use it */
    MPI_Type_free(&t);
    errors += deletes != 1;
    int key2 = 0;
    MPI_Type_create_keyval(MPI_TYPE_NULL_COPY_FN, MPI_TYPE_NULL_DELETE_FN, &key2, NULL);
    errors += MPI_Type_delete_attr(t2, key2) != MPI_SUCCESS; /* not set: nothing */
    MPI_Type_free(&t2);
    errors += deletes != 2;

    int ckey;
    MPI_Comm dup = MPI_COMM_WORLD;
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
    MPI_Comm_create_keyval(failing_copy, MPI_COMM_NULL_DELETE_FN, &ckey, NULL);
    MPI_Comm_set_attr(MPI_COMM_WORLD, ckey, (void *)1);
    int rc = MPI_Comm_dup(MPI_COMM_WORLD, &dup), cls;
    MPI_Error_class(rc, &cls);
    errors += cls != MPI_ERR_OTHER || dup != MPI_COMM_NULL;
    MPI_Comm_delete_attr(MPI_COMM_WORLD, ckey);
    MPI_Comm_free_keyval(&ckey);
    int total;
    MPI_Allreduce(&errors, &total, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
    if (me == 0 && total == 0) printf("No Errors\n");
    MPI_Finalize();
    return 0;
}
