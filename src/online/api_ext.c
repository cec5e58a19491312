/* External interfaces (MPI-3.1 chapter 12) for on-line programs:
 * generalized requests, setting status fields, and error classes, codes
 * and strings added by the program. */
#include <stdlib.h>
#include <string.h>

#include "core/pool.h"
#include "online/api.h"

/* --- generalized requests --- */

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

/* --- error classes, codes and strings of the program (per rank) --- */

struct user_errors {
    int n;
    int *classes; /* code -> its class; a class is its own class */
    char **texts; /* NULL: no string */
};

static struct user_errors *errors; /* per rank */

static struct user_errors *mine(void) {
    if (!errors) errors = xcalloc((size_t)simpi_rt->n, sizeof *errors);
    return &errors[runtime_rank()];
}

/* The codes of a rank follow MPI_ERR_LASTCODE. */
static int add_code(int cls) {
    struct user_errors *u = mine();
    u->classes = xrealloc_or_die(u->classes, sizeof *u->classes * (size_t)(u->n + 1));
    u->texts = xrealloc_or_die(u->texts, sizeof *u->texts * (size_t)(u->n + 1));
    int code = MPI_ERR_LASTCODE + 1 + u->n;
    u->classes[u->n] = cls < 0 ? code : cls;
    u->texts[u->n++] = NULL;
    return code;
}

static bool is_user_code(int code) {
    return errors && code > MPI_ERR_LASTCODE && code <= MPI_ERR_LASTCODE + mine()->n;
}

int api_last_used_code(void) {
    return MPI_ERR_LASTCODE + (errors ? mine()->n : 0);
}

const char *api_user_error_text(int code) {
    return is_user_code(code) ? mine()->texts[code - MPI_ERR_LASTCODE - 1] : NULL;
}

int api_user_error_class(int code) {
    return is_user_code(code) ? mine()->classes[code - MPI_ERR_LASTCODE - 1] : code;
}

int PMPI_Add_error_class(int *errorclass) {
    *errorclass = add_code(-1);
    return MPI_SUCCESS;
}

int PMPI_Add_error_code(int errorclass, int *errorcode) {
    bool predefined = errorclass >= MPI_SUCCESS && errorclass <= MPI_ERR_LASTCODE;
    if (!predefined &&
        (!is_user_code(errorclass) || api_user_error_class(errorclass) != errorclass))
        return api_error("MPI_Add_error_code", MPI_ERR_ARG, "%d is not an error class", errorclass);
    *errorcode = add_code(errorclass);
    return MPI_SUCCESS;
}

int PMPI_Add_error_string(int errorcode, const char *text) {
    if (!is_user_code(errorcode))
        return api_error("MPI_Add_error_string", MPI_ERR_ARG,
                         "%d is not a code or class the program added", errorcode);
    char **slot = &mine()->texts[errorcode - MPI_ERR_LASTCODE - 1];
    free(*slot);
    *slot = xstrdup(text);
    return MPI_SUCCESS;
}

#pragma weak MPI_Grequest_start = PMPI_Grequest_start
#pragma weak MPI_Grequest_complete = PMPI_Grequest_complete
#pragma weak MPI_Status_set_cancelled = PMPI_Status_set_cancelled
#pragma weak MPI_Status_set_elements = PMPI_Status_set_elements
#pragma weak MPI_Status_set_elements_x = PMPI_Status_set_elements_x
#pragma weak MPI_Add_error_class = PMPI_Add_error_class
#pragma weak MPI_Add_error_code = PMPI_Add_error_code
#pragma weak MPI_Add_error_string = PMPI_Add_error_string
