/* Helpers shared by the entry points: argument checks, statuses, the stop
 * for functions simpi lacks. */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/pool.h"
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
        api_error_context(comm); /* errors of the call go to its handler */
        return MPI_SUCCESS;
    }
    return api_error(func, MPI_ERR_COMM, "communicator %d does not exist", comm);
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
