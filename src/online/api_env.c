/* MPI environment functions: init, finalize, timers, queries, errors, and
 * the communicator queries and creation calls. */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/pool.h"
#include "online/api.h"

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
}

/* A new communicator starts with its parent's handler (MPI-3.1 8.3). */
static void inherit_errhandler(MPI_Comm parent, MPI_Comm child) {
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
    handlers_of(rt->current)->current = MPI_COMM_WORLD;
    return MPI_SUCCESS;
}

int api_check_comm(const char *func, MPI_Comm comm) {
    if (comm != MPI_COMM_NULL && sim_comm_valid(simpi_rt->sim, runtime_rank(), comm)) {
        handlers_of(runtime_rank())->current = comm; /* errors of the call go to its handler */
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

int PMPI_Init(int *argc, char ***argv) {
    (void)argc;
    (void)argv;
    struct runtime *rt = simpi_rt;
    if (!rt || rt->current < 0) {
        fprintf(stderr, "simpi: error: MPI_Init called outside a simulated rank\n");
        exit(4);
    }
    runtime_enter();
    struct orank *o = &rt->ranks[rt->current];
    if (o->initialized) runtime_abort("MPI_Init called twice");
    o->initialized = 1;
    sim_comm_self(rt->sim, rt->current, MPI_COMM_SELF);
    runtime_leave();
    return MPI_SUCCESS;
}

int PMPI_Init_thread(int *argc, char ***argv, int required, int *provided) {
    (void)required;
    if (provided) *provided = MPI_THREAD_SINGLE;
    return PMPI_Init(argc, argv);
}

int PMPI_Finalize(void) {
    API_ENTER("MPI_Finalize");
    struct runtime *rt = simpi_rt;
    rt->ranks[rt->current].finalized = 1;
    sim_finish(rt->sim, rt->current);
    runtime_leave();
    return MPI_SUCCESS;
}

int PMPI_Initialized(int *flag) {
    *flag = simpi_rt && simpi_rt->current >= 0 && simpi_rt->ranks[simpi_rt->current].initialized;
    return MPI_SUCCESS;
}

int PMPI_Finalized(int *flag) {
    *flag = simpi_rt && simpi_rt->current >= 0 && simpi_rt->ranks[simpi_rt->current].finalized;
    return MPI_SUCCESS;
}

int PMPI_Abort(MPI_Comm comm, int errorcode) {
    runtime_enter();
    runtime_abort_status(errorcode, "MPI_Abort(comm %d, error code %d)", comm, errorcode);
}

double PMPI_Wtime(void) {
    runtime_enter(); /* charge the computation so far */
    double t = simtime_to_seconds(sim_now(simpi_rt->sim));
    runtime_leave();
    return t;
}

double PMPI_Wtick(void) {
    return 1e-12;
}

int PMPI_Get_processor_name(char *name, int *resultlen) {
    struct runtime *rt = simpi_rt;
    int32_t node = rt && rt->current >= 0 ? platform_node_of(rt->plat, rt->current) : 0;
    *resultlen = snprintf(name, MPI_MAX_PROCESSOR_NAME, "node-%d", node);
    return MPI_SUCCESS;
}

int PMPI_Get_version(int *version, int *subversion) {
    *version = MPI_VERSION;
    *subversion = MPI_SUBVERSION;
    return MPI_SUCCESS;
}

int PMPI_Get_library_version(char *version, int *resultlen) {
    *resultlen = snprintf(version, MPI_MAX_LIBRARY_VERSION_STRING, "simpi 0.1.0 (simulated MPI)");
    return MPI_SUCCESS;
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

int PMPI_Query_thread(int *provided) {
    *provided = MPI_THREAD_SINGLE;
    return MPI_SUCCESS;
}

int PMPI_Is_thread_main(int *flag) {
    *flag = 1;
    return MPI_SUCCESS;
}

int PMPI_Comm_size(MPI_Comm comm, int *size) {
    API_ENTER("MPI_Comm_size");
    int rc = api_check_comm("MPI_Comm_size", comm);
    if (rc == MPI_SUCCESS) *size = sim_comm_size(simpi_rt->sim, runtime_rank(), comm);
    API_RETURN(rc);
}

int PMPI_Comm_rank(MPI_Comm comm, int *rank) {
    API_ENTER("MPI_Comm_rank");
    int rc = api_check_comm("MPI_Comm_rank", comm);
    if (rc == MPI_SUCCESS) *rank = sim_comm_rank(simpi_rt->sim, runtime_rank(), comm);
    API_RETURN(rc);
}

/* Communicator ids are per rank; each rank numbers its new ones from 2. */
static MPI_Comm next_comm_id(void) {
    static int32_t *next;
    struct runtime *rt = simpi_rt;
    if (!next) next = xcalloc((size_t)rt->n, sizeof *next);
    return 2 + next[rt->current]++;
}

static int split(const char *func, MPI_Comm comm, int color, int key, MPI_Comm *newcomm, bool dup) {
    int rc = api_check_comm(func, comm);
    if (rc != MPI_SUCCESS) return rc;
    if (!dup && color < 0 && color != MPI_UNDEFINED)
        return api_error(func, MPI_ERR_ARG, "color %d is negative", color);
    MPI_Comm id = next_comm_id();
    struct sim *s = simpi_rt->sim;
    int32_t me = runtime_rank();
    struct request *q =
        dup ? sim_comm_dup(s, me, comm, id)
            : sim_comm_split(s, me, comm, color == MPI_UNDEFINED ? SIM_UNDEFINED : color, key, id);
    runtime_wait(&q, 1, false);
    *newcomm = sim_comm_valid(s, me, id) ? id : MPI_COMM_NULL;
    inherit_errhandler(comm, *newcomm);
    if (dup && (rc = api_copy_attrs(comm, id)) != MPI_SUCCESS) {
        *newcomm = MPI_COMM_NULL; /* a copy callback failed: MPI_Comm_dup fails with it */
        return api_error(func, rc, "an attribute copy callback returned error %d", rc);
    }
    return MPI_SUCCESS;
}

MPI_Comm api_comm_dup_private(MPI_Comm comm) {
    MPI_Comm id = next_comm_id();
    struct request *q = sim_comm_dup(simpi_rt->sim, runtime_rank(), comm, id);
    runtime_wait(&q, 1, false);
    return id;
}

int api_comm_create_group(MPI_Comm comm, const int32_t *world, int n, int tag, MPI_Comm *newcomm) {
    int rc = api_check_comm("MPI_Comm_create_group", comm);
    if (rc != MPI_SUCCESS) return rc;
    MPI_Comm id = next_comm_id();
    struct request *q =
        sim_comm_create_group(simpi_rt->sim, runtime_rank(), comm, world, n, tag, id);
    if (!q) { /* not a member: nothing to join */
        *newcomm = MPI_COMM_NULL;
        return MPI_SUCCESS;
    }
    runtime_wait(&q, 1, false);
    *newcomm = id;
    inherit_errhandler(comm, id);
    return MPI_SUCCESS;
}

int PMPI_Comm_dup(MPI_Comm comm, MPI_Comm *newcomm) {
    API_ENTER("MPI_Comm_dup");
    API_RETURN(split("MPI_Comm_dup", comm, 0, 0, newcomm, true));
}

/* Info hints on communicators: simpi has none to act on, so a
 * communicator's info is always empty (MPI lets an implementation ignore
 * hints it does not use). */
int PMPI_Comm_dup_with_info(MPI_Comm comm, MPI_Info info, MPI_Comm *newcomm) {
    (void)info;
    API_ENTER("MPI_Comm_dup_with_info");
    API_RETURN(split("MPI_Comm_dup_with_info", comm, 0, 0, newcomm, true));
}

int PMPI_Comm_set_info(MPI_Comm comm, MPI_Info info) {
    (void)info;
    API_ENTER("MPI_Comm_set_info");
    API_RETURN(api_check_comm("MPI_Comm_set_info", comm));
}

int PMPI_Comm_get_info(MPI_Comm comm, MPI_Info *info_used) {
    API_ENTER("MPI_Comm_get_info");
    int rc = api_check_comm("MPI_Comm_get_info", comm);
    if (rc == MPI_SUCCESS) rc = PMPI_Info_create(info_used);
    API_RETURN(rc);
}

#pragma weak MPI_Comm_dup_with_info = PMPI_Comm_dup_with_info
#pragma weak MPI_Comm_set_info = PMPI_Comm_set_info
#pragma weak MPI_Comm_get_info = PMPI_Comm_get_info

int PMPI_Comm_split(MPI_Comm comm, int color, int key, MPI_Comm *newcomm) {
    API_ENTER("MPI_Comm_split");
    API_RETURN(split("MPI_Comm_split", comm, color, key, newcomm, false));
}

int PMPI_Comm_free(MPI_Comm *comm) {
    API_ENTER("MPI_Comm_free");
    int rc = api_check_comm("MPI_Comm_free", *comm);
    if (rc == MPI_SUCCESS) api_delete_attrs(*comm);
    if (rc == MPI_SUCCESS) *comm = MPI_COMM_NULL;
    API_RETURN(rc);
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

/* MPI_ names are weak aliases of the PMPI_ entry points (profiling interface). */
#pragma weak MPI_Init = PMPI_Init
#pragma weak MPI_Init_thread = PMPI_Init_thread
#pragma weak MPI_Finalize = PMPI_Finalize
#pragma weak MPI_Initialized = PMPI_Initialized
#pragma weak MPI_Finalized = PMPI_Finalized
#pragma weak MPI_Abort = PMPI_Abort
#pragma weak MPI_Wtime = PMPI_Wtime
#pragma weak MPI_Wtick = PMPI_Wtick
#pragma weak MPI_Get_processor_name = PMPI_Get_processor_name
#pragma weak MPI_Get_version = PMPI_Get_version
#pragma weak MPI_Get_library_version = PMPI_Get_library_version
#pragma weak MPI_Error_string = PMPI_Error_string
#pragma weak MPI_Error_class = PMPI_Error_class
#pragma weak MPI_Query_thread = PMPI_Query_thread
#pragma weak MPI_Is_thread_main = PMPI_Is_thread_main
#pragma weak MPI_Comm_size = PMPI_Comm_size
#pragma weak MPI_Comm_rank = PMPI_Comm_rank
#pragma weak MPI_Comm_dup = PMPI_Comm_dup
#pragma weak MPI_Comm_split = PMPI_Comm_split
#pragma weak MPI_Comm_free = PMPI_Comm_free
#pragma weak MPI_Comm_set_errhandler = PMPI_Comm_set_errhandler
#pragma weak MPI_Comm_get_errhandler = PMPI_Comm_get_errhandler
