/* SPDX-License-Identifier: BSD-3-Clause */
/* External interfaces (MPI-3.1 chapter 12): generalized requests and the
 * setting of status fields. */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/alloc.h"
#include "online/api/api.h"

struct greq {
    MPI_Grequest_query_function *query;
    MPI_Grequest_free_function *free;
    MPI_Grequest_cancel_function *cancel;
    void *extra;
};

int PMPI_Grequest_start(MPI_Grequest_query_function *query, MPI_Grequest_free_function *free_fn,
                        MPI_Grequest_cancel_function *cancel, void *extra, MPI_Request *request) {
    API_ENTER("MPI_Grequest_start");
    struct simpi_request *q = api_request_new();
    q->r = sim_signal_new(simpi_rt->sim, runtime_rank(), -1,
                          "a generalized request (MPI_Grequest_complete not called)");
    q->active = true;
    q->greq = xmalloc(sizeof *q->greq);
    *q->greq = (struct greq){query, free_fn, cancel, extra};
    *request = q;
    API_RETURN(MPI_SUCCESS);
}

int PMPI_Grequest_complete(MPI_Request request) {
    API_ENTER("MPI_Grequest_complete");
    if (!request || !request->greq || !request->r)
        API_RETURN(api_error("MPI_Grequest_complete", MPI_ERR_REQUEST,
                             "not an active generalized request"));
    sim_signal_fire(simpi_rt->sim, request->r, sim_now(simpi_rt->sim));
    API_RETURN(MPI_SUCCESS);
}

int api_greq_finish(struct simpi_request *q, MPI_Status *status) {
    MPI_Status local;
    MPI_Status *st = status == MPI_STATUS_IGNORE ? &local : status;
    api_empty_status(st);
    int rc = q->greq->query ? q->greq->query(q->greq->extra, st) : MPI_SUCCESS;
    int rc_free = q->greq->free ? q->greq->free(q->greq->extra) : MPI_SUCCESS;
    free(q->greq);
    q->greq = NULL;
    return rc != MPI_SUCCESS ? rc : rc_free;
}

void api_greq_cancel(struct simpi_request *q) {
    if (q->greq->cancel) q->greq->cancel(q->greq->extra, sim_request_done(simpi_rt->sim, q->r));
}

int PMPI_Status_set_cancelled(MPI_Status *status, int flag) {
    status->simpi_cancelled = flag != 0;
    return MPI_SUCCESS;
}

int PMPI_Status_set_elements_x(MPI_Status *status, MPI_Datatype type, MPI_Count count) {
    int64_t size = dt_size(type);
    if (size < 0) return api_error("MPI_Status_set_elements", MPI_ERR_TYPE, "invalid datatype");
    int64_t per, basic = dt_basic(type, &per);
    /* count is in basic elements: bytes = count x the basic element's size */
    status->simpi_bytes = basic > 0 && per > 0 ? count * (size / per) : count * size;
    return MPI_SUCCESS;
}

int PMPI_Status_set_elements(MPI_Status *status, MPI_Datatype type, int count) {
    return PMPI_Status_set_elements_x(status, type, count);
}

#pragma weak MPI_Grequest_start = PMPI_Grequest_start
#pragma weak MPI_Grequest_complete = PMPI_Grequest_complete
#pragma weak MPI_Status_set_cancelled = PMPI_Status_set_cancelled
#pragma weak MPI_Status_set_elements = PMPI_Status_set_elements
#pragma weak MPI_Status_set_elements_x = PMPI_Status_set_elements_x
