/* SPDX-License-Identifier: BSD-3-Clause */
/* ranks: 2
 * External interfaces and empty statuses: a generalized request completes
 * only when MPI_Grequest_complete is called, its query callback fills the
 * status and its free callback runs; error classes, codes and strings the
 * program adds; MPI_Test / MPI_Wait / MPI_Request_get_status on a null or
 * inactive request give MPI's empty status; error handlers belong to each
 * communicator, and a duplicate inherits its parent's. */
#include <mpi.h>
#include <stdio.h>
#include <string.h>

#include "check.h"

static int query(void *extra, MPI_Status *status) {
    (void)extra;
    MPI_Status_set_elements(status, MPI_INT, 3);
    MPI_Status_set_cancelled(status, 0);
    status->MPI_SOURCE = 7;
    return MPI_SUCCESS;
}

static int release(void *extra) {
    (*(int *)extra)++;
    return MPI_SUCCESS;
}

static int cancel(void *extra, int complete) {
    (void)extra, (void)complete;
    return MPI_SUCCESS;
}

static void generalized(int *errs, int check_rank) {
    int freed = 0, flag = 1, count;
    MPI_Request r;
    MPI_Status st;
    MPI_Grequest_start(query, release, cancel, &freed, &r);
    MPI_Test(&r, &flag, &st);
    EXPECT(!flag && freed == 0);
    MPI_Grequest_complete(r);
    MPI_Wait(&r, &st);
    MPI_Get_count(&st, MPI_INT, &count);
    EXPECT(r == MPI_REQUEST_NULL && freed == 1 && count == 3 && st.MPI_SOURCE == 7);
}

static void error_classes(int *errs, int check_rank) {
    int cls, code, got, len, *last, flag;
    char text[MPI_MAX_ERROR_STRING];
    MPI_Add_error_class(&cls);
    EXPECT(cls > MPI_ERR_LASTCODE);
    MPI_Add_error_code(cls, &code);
    MPI_Add_error_string(code, "the widget broke");
    MPI_Error_class(code, &got);
    EXPECT(got == cls);
    MPI_Error_string(code, text, &len);
    EXPECT(strcmp(text, "the widget broke") == 0 && len == 16);
    MPI_Comm_get_attr(MPI_COMM_WORLD, MPI_LASTUSEDCODE, &last, &flag);
    EXPECT(flag && *last == code);
}

static int empty(const MPI_Status *st) {
    int count;
    MPI_Get_count(st, MPI_INT, &count);
    return st->MPI_SOURCE == MPI_ANY_SOURCE && st->MPI_TAG == MPI_ANY_TAG && count == 0;
}

static void empty_statuses(int *errs, int check_rank) {
    MPI_Status st = {.MPI_SOURCE = 3, .MPI_TAG = 3};
    int flag = 0, buf = 0;
    MPI_Request r = MPI_REQUEST_NULL;
    MPI_Request_get_status(r, &flag, &st);
    EXPECT(flag && empty(&st));
    MPI_Send_init(&buf, 1, MPI_INT, 0, 0, MPI_COMM_SELF, &r); /* inactive */
    st.MPI_TAG = 5;
    MPI_Test(&r, &flag, &st);
    EXPECT(flag && empty(&st));
    st.MPI_TAG = 5;
    MPI_Wait(&r, &st);
    EXPECT(empty(&st));
    MPI_Request_free(&r);
}

static int handler_calls;
static MPI_Comm handler_comm;

static void count_calls(MPI_Comm *comm, int *code, ...) {
    handler_calls += *code == MPI_ERR_OTHER;
    handler_comm = *comm;
}

static void per_communicator(int *errs, int check_rank) {
    MPI_Comm a, b;
    MPI_Errhandler h, got;
    MPI_Comm_dup(MPI_COMM_WORLD, &a);
    MPI_Comm_create_errhandler(count_calls, &h);
    MPI_Comm_set_errhandler(a, h);
    MPI_Comm_dup(a, &b); /* inherits h */
    MPI_Comm_call_errhandler(b, MPI_ERR_OTHER);
    EXPECT(handler_calls == 1 && handler_comm == b);
    MPI_Comm_get_errhandler(MPI_COMM_WORLD, &got);
    EXPECT(got == MPI_ERRORS_ARE_FATAL);
    MPI_Comm_set_errhandler(b, MPI_ERRORS_RETURN);
    int x = 0;
    EXPECT(MPI_Send(&x, 1, MPI_INT, 99, 0, b) == MPI_ERR_RANK);
    EXPECT(MPI_Send(&x, 1, MPI_INT, 99, 0, a) == MPI_ERR_RANK && handler_calls == 1);
    MPI_Errhandler_free(&h);
    MPI_Comm_free(&a);
    MPI_Comm_free(&b);
    /* MPI_Comm_idup: the duplicate is usable once its request completes */
    MPI_Comm c;
    MPI_Request r;
    int size = 0, sum = 0, one = 1;
    MPI_Comm_idup(MPI_COMM_WORLD, &c, &r);
    MPI_Wait(&r, MPI_STATUS_IGNORE);
    MPI_Comm_size(c, &size);
    MPI_Allreduce(&one, &sum, 1, MPI_INT, MPI_SUM, c);
    EXPECT(r == MPI_REQUEST_NULL && size == 2 && sum == 2);
    MPI_Comm_free(&c);
}

int main(int argc, char **argv) {
    int rank, errs = 0, total;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    generalized(&errs, rank);
    error_classes(&errs, rank);
    empty_statuses(&errs, rank);
    per_communicator(&errs, rank);
    MPI_Reduce(&errs, &total, 1, MPI_INT, MPI_SUM, 0, MPI_COMM_WORLD);
    if (rank == 0 && total == 0) printf("No Errors\n");
    MPI_Finalize();
    return 0;
}
