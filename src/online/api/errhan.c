/* SPDX-License-Identifier: BSD-3-Clause */
/* Error handling (MPI-3.1 sections 8.3 to 8.5): error handlers per
 * communicator (windows and files keep their own), the error classes and
 * their strings, and the classes, codes and strings a program adds. */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/alloc.h"
#include "online/api/api.h"

static MPI_Comm_errhandler_function **handlers; /* errhandler = index + HANDLER_BASE */

static int nhandlers;

#define HANDLER_BASE 3

int PMPI_Comm_create_errhandler(MPI_Comm_errhandler_function *fn, MPI_Errhandler *errhandler) {
    handlers = realloc(handlers, sizeof *handlers * (size_t)(nhandlers + 1));
    if (!handlers) abort();
    handlers[nhandlers] = fn;
    *errhandler = HANDLER_BASE + nhandlers++;
    return MPI_SUCCESS;
}

int PMPI_Errhandler_free(MPI_Errhandler *errhandler) {
    *errhandler = MPI_ERRHANDLER_NULL;
    return MPI_SUCCESS;
}

/* Calls a user handler; false if errhandler is not one. */
bool api_call_user_handler(int errhandler, MPI_Comm comm, int code) {
    if (errhandler < HANDLER_BASE || errhandler - HANDLER_BASE >= nhandlers) return false;
    handlers[errhandler - HANDLER_BASE](&comm, &code);
    return true;
}

int PMPI_Errhandler_create(MPI_Handler_function *fn, MPI_Errhandler *e) {
    return PMPI_Comm_create_errhandler(fn, e);
}

int PMPI_Errhandler_set(MPI_Comm comm, MPI_Errhandler e) {
    return PMPI_Comm_set_errhandler(comm, e);
}

int PMPI_Errhandler_get(MPI_Comm comm, MPI_Errhandler *e) {
    return PMPI_Comm_get_errhandler(comm, e);
}

int PMPI_Comm_call_errhandler(MPI_Comm comm, int code) {
    api_comm_error(comm, "MPI_Comm_call_errhandler", code, "raised by the program");
    return MPI_SUCCESS;
}

/* Error handlers of each rank's communicators (by communicator id; 0:
 * MPI_ERRORS_ARE_FATAL, MPI's default), and the communicator the running
 * call is about: its handler gets the call's errors (MPI_COMM_WORLD's for
 * calls on no communicator). */
struct rank_errhandlers {
    int *by_comm;
    int cap;
    MPI_Comm current;
};

static struct rank_errhandlers *errhandlers;

static struct rank_errhandlers *handlers_of(int32_t rank) {
    if (!errhandlers) errhandlers = xcalloc((size_t)simpi_rt->n, sizeof *errhandlers);
    return &errhandlers[rank];
}

void api_error_context(MPI_Comm comm) {
    handlers_of(runtime_rank())->current = comm;
}

static int errhandler_of(int32_t rank, MPI_Comm comm) {
    struct rank_errhandlers *h = handlers_of(rank);
    return comm >= 0 && comm < h->cap && h->by_comm[comm] ? h->by_comm[comm] : MPI_ERRORS_ARE_FATAL;
}

void api_set_errhandler(MPI_Comm comm, int handler) {
    struct rank_errhandlers *h = handlers_of(runtime_rank());
    if (comm >= h->cap) {
        int cap = comm + 8;
        h->by_comm = xrealloc_or_die(h->by_comm, sizeof *h->by_comm * (size_t)cap);
        memset(h->by_comm + h->cap, 0, sizeof *h->by_comm * (size_t)(cap - h->cap));
        h->cap = cap;
    }
    h->by_comm[comm] = handler;
    /* ULFM: a rank that returns errors on MPI_COMM_WORLD keeps running when
     * a node crashes (docs/faults.md) */
    if (comm == MPI_COMM_WORLD)
        sim_set_tolerant(simpi_rt->sim, runtime_rank(), handler != MPI_ERRORS_ARE_FATAL);
}

/* A new communicator starts with its parent's handler (MPI-3.1 8.3). */
void api_inherit_errhandler(MPI_Comm parent, MPI_Comm child) {
    if (child != MPI_COMM_NULL) api_set_errhandler(child, errhandler_of(runtime_rank(), parent));
}

static const char *error_text(int code) {
    static const char *const texts[] = {
        [MPI_SUCCESS] = "no error",
        [MPI_ERR_BUFFER] = "invalid buffer",
        [MPI_ERR_COUNT] = "invalid count",
        [MPI_ERR_TYPE] = "invalid datatype",
        [MPI_ERR_TAG] = "invalid tag",
        [MPI_ERR_COMM] = "invalid communicator",
        [MPI_ERR_RANK] = "invalid rank",
        [MPI_ERR_REQUEST] = "invalid request",
        [MPI_ERR_ROOT] = "invalid root",
        [MPI_ERR_GROUP] = "invalid group",
        [MPI_ERR_OP] = "invalid operation",
        [MPI_ERR_TOPOLOGY] = "invalid topology",
        [MPI_ERR_DIMS] = "invalid dimensions",
        [MPI_ERR_ARG] = "invalid argument",
        [MPI_ERR_UNKNOWN] = "unknown error",
        [MPI_ERR_TRUNCATE] = "message truncated",
        [MPI_ERR_OTHER] = "other error",
        [MPI_ERR_INTERN] = "internal error",
        [MPI_ERR_IN_STATUS] = "error in status",
        [MPI_ERR_PENDING] = "pending request",
        [MPI_ERR_ACCESS] = "permission denied",
        [MPI_ERR_AMODE] = "invalid file access mode",
        [MPI_ERR_ASSERT] = "invalid assertion",
        [MPI_ERR_BAD_FILE] = "invalid file name",
        [MPI_ERR_BASE] = "invalid base address",
        [MPI_ERR_CONVERSION] = "data conversion error",
        [MPI_ERR_DISP] = "invalid displacement",
        [MPI_ERR_DUP_DATAREP] = "data representation already defined",
        [MPI_ERR_FILE_EXISTS] = "file exists",
        [MPI_ERR_FILE_IN_USE] = "file in use",
        [MPI_ERR_FILE] = "invalid file",
        [MPI_ERR_INFO_KEY] = "info key too long",
        [MPI_ERR_INFO_NOKEY] = "no such info key",
        [MPI_ERR_INFO_VALUE] = "info value too long",
        [MPI_ERR_INFO] = "invalid info object",
        [MPI_ERR_IO] = "input/output error",
        [MPI_ERR_KEYVAL] = "invalid attribute key",
        [MPI_ERR_LOCKTYPE] = "invalid lock type",
        [MPI_ERR_NAME] = "name not published",
        [MPI_ERR_NO_MEM] = "out of memory",
        [MPI_ERR_NOT_SAME] = "arguments differ between processes",
        [MPI_ERR_NO_SPACE] = "no space left",
        [MPI_ERR_NO_SUCH_FILE] = "no such file",
        [MPI_ERR_PORT] = "invalid port",
        [MPI_ERR_QUOTA] = "quota exceeded",
        [MPI_ERR_READ_ONLY] = "read-only file",
        [MPI_ERR_RMA_CONFLICT] = "conflicting accesses to a window",
        [MPI_ERR_RMA_SYNC] = "wrong synchronisation of RMA calls",
        [MPI_ERR_SERVICE] = "invalid service name",
        [MPI_ERR_SIZE] = "invalid size",
        [MPI_ERR_SPAWN] = "could not spawn processes",
        [MPI_ERR_UNSUPPORTED_DATAREP] = "unsupported data representation",
        [MPI_ERR_WIN] = "invalid window",
        [MPI_ERR_RMA_RANGE] = "target memory outside the window",
        [MPI_ERR_RMA_ATTACH] = "memory cannot be attached",
        [MPI_ERR_RMA_SHARED] = "memory cannot be shared",
        [MPI_ERR_RMA_FLAVOR] = "wrong window flavor",
        [MPIX_ERR_PROC_FAILED] = "a process involved failed",
        [MPIX_ERR_PROC_FAILED_PENDING] = "a process that may be involved failed",
        [MPIX_ERR_REVOKED] = "communicator revoked",
    };
    if (code == MPI_ERR_UNSUPPORTED_OPERATION) return "operation not supported by simpi";
    if (code < 0 || code >= (int)(sizeof texts / sizeof texts[0]) || !texts[code])
        return "unknown error code";
    return texts[code];
}

static int report_error(int handler, int obj, const char *func, int code, const char *fmt,
                        va_list ap) {
    if (handler == MPI_ERRORS_RETURN) return code;
    if (api_call_user_handler(handler, obj, code)) return code;
    char msg[512];
    vsnprintf(msg, sizeof msg, fmt, ap);
    runtime_abort("%s: %s (%s)", func, msg, error_text(code));
}

int api_comm_error(MPI_Comm comm, const char *func, int code, const char *what) {
    return api_error_handler(errhandler_of(runtime_rank(), comm), comm, func, code, "%s", what);
}

int api_error(const char *func, int code, const char *fmt, ...) {
    va_list ap;
    va_start(ap, fmt);
    MPI_Comm comm = handlers_of(runtime_rank())->current;
    int rc = report_error(errhandler_of(runtime_rank(), comm), comm, func, code, fmt, ap);
    va_end(ap);
    return rc;
}

int api_error_handler(int handler, int obj, const char *func, int code, const char *fmt, ...) {
    va_list ap;
    va_start(ap, fmt);
    int rc = report_error(handler, obj, func, code, fmt, ap);
    va_end(ap);
    return rc;
}

int PMPI_Error_string(int errorcode, char *string, int *resultlen) {
    const char *user = api_user_error_text(errorcode);
    *resultlen = snprintf(string, MPI_MAX_ERROR_STRING, "%s",
                          user                                    ? user
                          : errorcode > MPI_ERR_LASTCODE && !user ? ""
                                                                  : error_text(errorcode));
    return MPI_SUCCESS;
}

int PMPI_Error_class(int errorcode, int *errorclass) {
    *errorclass = api_user_error_class(errorcode);
    return MPI_SUCCESS;
}

int PMPI_Comm_set_errhandler(MPI_Comm comm, MPI_Errhandler handler) {
    API_ENTER("MPI_Comm_set_errhandler");
    int rc = api_check_comm("MPI_Comm_set_errhandler", comm);
    if (rc == MPI_SUCCESS) api_set_errhandler(comm, handler);
    API_RETURN(rc);
}

int PMPI_Comm_get_errhandler(MPI_Comm comm, MPI_Errhandler *handler) {
    API_ENTER("MPI_Comm_get_errhandler");
    int rc = api_check_comm("MPI_Comm_get_errhandler", comm);
    if (rc == MPI_SUCCESS) *handler = errhandler_of(runtime_rank(), comm);
    API_RETURN(rc);
}

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

#pragma weak MPI_Comm_create_errhandler = PMPI_Comm_create_errhandler
#pragma weak MPI_Errhandler_free = PMPI_Errhandler_free
#pragma weak MPI_Errhandler_create = PMPI_Errhandler_create
#pragma weak MPI_Errhandler_set = PMPI_Errhandler_set
#pragma weak MPI_Errhandler_get = PMPI_Errhandler_get
#pragma weak MPI_Comm_call_errhandler = PMPI_Comm_call_errhandler
#pragma weak MPI_Error_string = PMPI_Error_string
#pragma weak MPI_Error_class = PMPI_Error_class
#pragma weak MPI_Comm_set_errhandler = PMPI_Comm_set_errhandler
#pragma weak MPI_Comm_get_errhandler = PMPI_Comm_get_errhandler
#pragma weak MPI_Add_error_class = PMPI_Add_error_class
#pragma weak MPI_Add_error_code = PMPI_Add_error_code
#pragma weak MPI_Add_error_string = PMPI_Add_error_string
