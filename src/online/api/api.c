/* SPDX-License-Identifier: BSD-3-Clause */
/* Helpers shared by the entry points: argument checks, statuses, the stop
 * for functions simpi lacks. */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "online/api/api.h"

_Noreturn void api_unsupported(const char *func) {
    runtime_enter();
    runtime_abort_status(RUNTIME_EXIT_UNSUPPORTED,
                         "%s is not supported by simpi yet (docs/mpi-coverage.md lists what is)",
                         func);
}

int api_check_init(const char *func) {
    struct runtime *rt = simpi_rt;
    if (!rt || rt->current < 0) {
        fprintf(stderr, "simpi: error: %s called outside a simulated rank\n", func);
        exit(4);
    }
    struct orank *o = &rt->ranks[rt->current];
    if (!o->initialized) runtime_abort("%s called before MPI_Init", func);
    if (o->finalized) runtime_abort("%s called after MPI_Finalize", func);
    api_error_context(MPI_COMM_WORLD);
    return MPI_SUCCESS;
}

int api_check_comm(const char *func, MPI_Comm comm) {
    if (comm != MPI_COMM_NULL && sim_comm_valid(simpi_rt->sim, runtime_rank(), comm)) {
        api_error_context(comm);               /* errors of the call go to its handler */
        return api_check_failures(func, comm); /* MPIX_ERR_REVOKED (ULFM) */
    }
    if (comm != MPI_COMM_NULL && sim_comm_freed(simpi_rt->sim, runtime_rank(), comm))
        return api_error(func, MPI_ERR_COMM,
                         "communicator %d was freed (MPI_Comm_free); its handle names nothing",
                         comm);
    return api_error(func, MPI_ERR_COMM, "communicator %d does not exist", comm);
}

int api_check_level(void) {
    return simpi_rt ? simpi_rt->check : 1;
}

int api_check_data(const char *func, const void *buf, int count, MPI_Datatype type,
                   const char *what) {
    int rc = api_check_type(func, type, count);
    if (rc != MPI_SUCCESS || api_check_level() == 0) return rc;
    if (!dt_committed(type))
        return api_error(func, MPI_ERR_TYPE,
                         "datatype %d of %s is not committed (call MPI_Type_commit first)", type,
                         what);
    if (!buf && count > 0 && dt_predefined(type) && dt_size(type) > 0)
        return api_error(func, MPI_ERR_BUFFER, "%s is NULL with count %d", what, count);
    return MPI_SUCCESS;
}

int api_check_type(const char *func, MPI_Datatype type, int count) {
    if (dt_size(type) < 0) return api_error(func, MPI_ERR_TYPE, "datatype %d is not valid", type);
    if (count < 0) return api_error(func, MPI_ERR_COUNT, "count %d is negative", count);
    return MPI_SUCCESS;
}

void api_empty_status(MPI_Status *status) {
    if (status == MPI_STATUS_IGNORE) return;
    status->MPI_SOURCE = MPI_ANY_SOURCE;
    status->MPI_TAG = MPI_ANY_TAG;
    status->MPI_ERROR = MPI_SUCCESS;
    status->simpi_bytes = 0;
    status->simpi_cancelled = 0;
}

void api_fill_status(MPI_Status *status, const struct simpi_request *q) {
    if (status == MPI_STATUS_IGNORE) return;
    if (!q->is_recv) { /* a send: nothing to report */
        api_empty_status(status);
        status->simpi_cancelled = q->cancelled;
        return;
    }
    if (!q->r && q->is_recv) { /* MPI_PROC_NULL */
        status->MPI_SOURCE = MPI_PROC_NULL;
        status->MPI_TAG = MPI_ANY_TAG;
        status->simpi_bytes = 0;
    } else if (q->is_recv) {
        status->MPI_SOURCE = q->tgt.source;
        status->MPI_TAG = q->tgt.tag;
        status->simpi_bytes = q->tgt.size < q->tgt.capacity ? q->tgt.size : q->tgt.capacity;
    }
    status->MPI_ERROR = MPI_SUCCESS;
    status->simpi_cancelled = q->cancelled;
    if (q->cancelled) status->simpi_bytes = 0;
}

/* The bytes count elements of type at buf span: [*lo, *hi). */
static void span(const void *buf, int count, MPI_Datatype type, uintptr_t *lo, uintptr_t *hi) {
    *lo = (uintptr_t)buf + (uintptr_t)dt_true_lb(type);
    *hi = *lo + (uintptr_t)((int64_t)(count - 1) * dt_extent(type) + dt_true_extent(type));
}

int api_check_overlap(const char *func, const void *sendbuf, int scount, MPI_Datatype stype,
                      const void *recvbuf, int rcount, MPI_Datatype rtype) {
    if (api_check_level() == 0 || scount <= 0 || rcount <= 0 || !sendbuf || !recvbuf ||
        sendbuf == MPI_IN_PLACE || recvbuf == MPI_IN_PLACE || dt_size(stype) <= 0 ||
        dt_size(rtype) <= 0)
        return MPI_SUCCESS;
    uintptr_t slo, shi, rlo, rhi;
    span(sendbuf, scount, stype, &slo, &shi);
    span(recvbuf, rcount, rtype, &rlo, &rhi);
    if (slo >= rhi || rlo >= shi) return MPI_SUCCESS;
    return api_error(func, MPI_ERR_BUFFER,
                     "the send buffer (%p, %lld bytes) and the receive buffer (%p, %lld bytes) "
                     "overlap, which MPI forbids (MPI_IN_PLACE, or separate buffers)",
                     sendbuf, (long long)(shi - slo), recvbuf, (long long)(rhi - rlo));
}
