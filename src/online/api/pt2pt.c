/* SPDX-License-Identifier: BSD-3-Clause */
/* Point-to-point communication (MPI-3.1 chapter 3) for on-line programs:
 * sends in every mode, receives, probes, persistent requests, waits and
 * tests, cancellation, over the MPI layer's requests with real data. */
#include <stdlib.h>
#include <string.h>

#include "core/alloc.h"
#include "core/pool.h"
#include "online/api/api.h"

/* Request wrappers come from the runtime's pool, so that those of ranks
 * stopped by an error are reclaimed with it. */
static struct pool request_pool; /* MPI_Request wrappers */

#define REQUEST_LIVE 0x52455131u  /* "REQ1" */
#define REQUEST_FREED 0x46524545u /* "FREE" */

struct simpi_request *api_request_new(void) {
    if (!request_pool.obj_size) {
        pool_init(&request_pool, sizeof(struct simpi_request), 256);
        pool_keep_freed_readable(&request_pool); /* bad_request reads a freed one's mark */
    }
    struct simpi_request *q = pool_get(&request_pool);
    q->magic = REQUEST_LIVE;
    q->rank = runtime_rank();
    return q;
}
void api_request_free(struct simpi_request *q) {
    free(q->send_packed);
    q->send_packed = NULL;
    if (q->rma) api_rma_forget(q);
    if (q->persistent) dt_release(q->persist.type);
    pool_put(&request_pool, q);
    q->magic = REQUEST_FREED; /* beyond the pool's free-list link */
}

/* Why handle q is not a request this rank may use, or NULL. */
static const char *bad_request(const struct simpi_request *q, int32_t *owner) {
    if (!pool_owns(&request_pool, q)) return "is not a request (never made by MPI, or overwritten)";
    if (q->magic == REQUEST_FREED)
        return "was freed already (by MPI_Request_free, or completed by a wait or test "
               "through a copy of the handle)";
    if (q->magic != REQUEST_LIVE) return "is not a request (overwritten)";
    *owner = q->rank;
    return q->rank != runtime_rank() ? "belongs to another rank" : NULL;
}

int api_check_requests(const char *func, const MPI_Request *reqs, int n) {
    if (api_check_level() == 0) return MPI_SUCCESS;
    if (n < 0) return api_error(func, MPI_ERR_COUNT, "count %d is negative", n);
    if (n > 0 && !reqs) return api_error(func, MPI_ERR_REQUEST, "the request array is NULL");
    for (int i = 0; i < n; i++) {
        int32_t owner = -1;
        const char *why = reqs[i] ? bad_request(reqs[i], &owner) : NULL;
        if (!why) continue;
        char at[32] = "";
        if (n > 1) snprintf(at, sizeof at, " %d", i);
        if (owner >= 0 && owner != runtime_rank())
            return api_error(func, MPI_ERR_REQUEST, "request%s (%p) belongs to rank %d", at,
                             (void *)reqs[i], owner);
        return api_error(func, MPI_ERR_REQUEST, "request%s (%p) %s", at, (void *)reqs[i], why);
    }
    return MPI_SUCCESS;
}

static int check_peer(const char *func, MPI_Comm comm, int peer, bool any_ok) {
    int n = sim_comm_size(simpi_rt->sim, runtime_rank(), comm);
    if (peer == MPI_PROC_NULL || (any_ok && peer == MPI_ANY_SOURCE) || (peer >= 0 && peer < n))
        return MPI_SUCCESS;
    return api_error(func, MPI_ERR_RANK, "rank %d is not in the communicator (size %d)", peer, n);
}

static int check_tag(const char *func, int tag, bool any_ok) {
    if (tag >= 0 || (any_ok && tag == MPI_ANY_TAG)) return MPI_SUCCESS;
    return api_error(func, MPI_ERR_TAG, "tag %d is invalid", tag);
}

static int check_args(const char *func, const void *buf, int count, MPI_Datatype type, int peer,
                      int tag, MPI_Comm comm, bool is_recv) {
    int rc = api_check_comm(func, comm);
    if (rc == MPI_SUCCESS) rc = api_check_data(func, buf, count, type, "the buffer");
    if (rc == MPI_SUCCESS) rc = check_peer(func, comm, peer, is_recv);
    if (rc == MPI_SUCCESS) rc = check_tag(func, tag, is_recv);
    return rc;
}

/* Posts a send on an existing wrapper (also MPI_Start of a persistent one). */
/* --check=full: the type signature of each send in flight, by its request
 * in the MPI layer, handed to its receive as the data arrive. */
struct sig_entry {
    const struct request *send;
    int sig;
    struct sig_entry *next;
};
#define SIG_BUCKETS 4096
static struct sig_entry *sig_table[SIG_BUCKETS];

static size_t sig_bucket(const struct request *r) {
    return ((uintptr_t)r >> 4) % SIG_BUCKETS;
}

/* The representation of a datatype's elements (predefined.h), 0 if mixed. */
static int type_signature(MPI_Datatype type) {
    int64_t per;
    int basic = dt_basic(type, &per);
    return basic > 0 ? dtype_class(basic) : 0;
}

static void sig_note(const struct request *send, int sig) {
    struct sig_entry **b = &sig_table[sig_bucket(send)], *e = *b;
    for (; e && e->send != send; e = e->next)
        ;
    if (!e) {
        e = xmalloc(sizeof *e);
        e->send = send;
        e->next = *b;
        *b = e;
    }
    e->sig = sig;
}

static int sending_sig;        /* the send being posted: matched at once, it is delivered */
static bool sending_delivered; /* before its request is known */

static void sig_deliver(void *ctx, const struct request *send, struct sim_recv_target *t) {
    (void)ctx;
    if (sending_sig) {
        t->sig = sending_sig;
        sending_delivered = true;
        return;
    }
    for (struct sig_entry **p = &sig_table[sig_bucket(send)]; *p; p = &(*p)->next)
        if ((*p)->send == send) {
            struct sig_entry *e = *p;
            t->sig = e->sig;
            *p = e->next;
            free(e);
            return;
        }
}

/* A split run: the signature of the send being posted goes with its
 * envelope to the receiver's worker (and is not kept here, where it will
 * never be delivered), which notes it for the stand-in that meets the
 * receive there. */
static int32_t sig_crossing(void *ctx, const struct request *send) {
    (void)ctx;
    (void)send;
    if (sending_sig) sending_delivered = true;
    return sending_sig;
}

static void sig_arrived(void *ctx, const struct request *standin, int32_t sig) {
    (void)ctx;
    sig_note(standin, sig);
}

/* Installed before any rank runs: an envelope may reach a worker before
 * its receiving rank has called MPI_Init (a signature is only ever sent
 * under --check=full). */
void api_check_hooks(struct sim_hooks *hooks) {
    hooks->send_signature = sig_crossing;
    hooks->remote_signature = sig_arrived;
    hooks->deliver = api_check_level() >= 2 ? sig_deliver : NULL;
}

/* sim_isend_buf and sim_irecv_buf on the scheduler's stack (runtime_aside). */
struct post_args {
    struct simpi_request *q;
    MPI_Comm comm;
    int peer, tag;
    int64_t bytes;
    enum send_mode mode;
    const void *buf;
};

static void isend_aside(void *p) {
    struct post_args *a = p;
    a->q->r = sim_isend_buf(simpi_rt->sim, runtime_rank(), a->comm, a->peer, a->tag, a->bytes,
                            a->mode, a->buf);
}

static void irecv_aside(void *p) {
    struct post_args *a = p;
    a->q->r = sim_irecv_buf(simpi_rt->sim, runtime_rank(), a->comm, a->peer, a->tag, &a->q->tgt);
}

static void post_send(struct simpi_request *q, const void *buf, int count, MPI_Datatype type,
                      int dest, int tag, MPI_Comm comm, enum send_mode mode) {
    q->type_size = dt_size(type);
    int64_t bytes = (int64_t)count * q->type_size;
    free(q->send_packed); /* a persistent send's previous start, delivered */
    q->send_packed = NULL;
    void *packed = NULL;
    if (!dt_contiguous(type) && bytes > 0) {
        packed = xmalloc((size_t)bytes);
        dt_pack(type, buf, count, packed);
    }
    q->r = NULL;
    bool full = api_check_level() >= 2;
    if (full) {
        sending_sig = type_signature(type);
        sending_delivered = false;
    }
    if (dest != MPI_PROC_NULL) {
        struct post_args a = {q, comm, dest, tag, bytes, mode, packed ? packed : buf};
        runtime_aside(isend_aside, &a);
    }
    if (packed && q->r && sim_send_borrows(simpi_rt->sim, bytes, (enum send_mode)mode))
        q->send_packed = packed; /* read when delivered: freed with the request */
    else
        free(packed); /* delivered already, or copied by the MPI layer */
    if (full && q->r && sending_sig && !sending_delivered) sig_note(q->r, sending_sig);
    sending_sig = 0;
    q->active = true;
    q->cancelled = false;
}

/* Readies a receive wrapper: its target, and staging for a non-contiguous
 * datatype (unpacked into buf when the receive completes). */
static void prepare_recv(struct simpi_request *q, void *buf, int count, MPI_Datatype type) {
    q->is_recv = true;
    q->type_size = dt_size(type);
    q->type = type;
    memset(&q->tgt, 0, sizeof q->tgt);
    q->tgt.buf = buf;
    q->tgt.owner = runtime_rank();
    q->tgt.capacity = (int64_t)count * q->type_size;
    q->user_buf = NULL;
    q->staged = false;
    if (!dt_contiguous(type) && q->tgt.capacity > 0) {
        q->user_buf = buf;
        q->staged = true;
        q->tgt.buf = xmalloc((size_t)q->tgt.capacity);
        dt_retain(type); /* unpacked with it at completion, even if freed before */
    }
    q->r = NULL;
    q->active = true;
    q->cancelled = false;
}

static void post_recv(struct simpi_request *q, void *buf, int count, MPI_Datatype type, int source,
                      int tag, MPI_Comm comm) {
    prepare_recv(q, buf, count, type);
    if (source != MPI_PROC_NULL) {
        struct post_args a = {q, comm, source, tag, 0, SEND_STANDARD, NULL};
        runtime_aside(irecv_aside, &a);
    }
}

static int start_send(const char *func, const void *buf, int count, MPI_Datatype type, int dest,
                      int tag, MPI_Comm comm, enum send_mode mode, struct simpi_request **out) {
    int rc = check_args(func, buf, count, type, dest, tag, comm, false);
    if (rc != MPI_SUCCESS) return rc;
    *out = api_request_new();
    post_send(*out, buf, count, type, dest, tag, comm, mode);
    return MPI_SUCCESS;
}

static int start_recv(const char *func, void *buf, int count, MPI_Datatype type, int source,
                      int tag, MPI_Comm comm, struct simpi_request **out) {
    int rc = check_args(func, buf, count, type, source, tag, comm, true);
    if (rc != MPI_SUCCESS) return rc;
    *out = api_request_new();
    post_recv(*out, buf, count, type, source, tag, comm);
    return MPI_SUCCESS;
}

void api_start(struct simpi_request *q) {
    struct persist *p = &q->persist;
    if (p->is_recv)
        post_recv(q, p->buf, p->count, p->type, p->peer, p->tag, p->comm);
    else
        post_send(q, p->buf, p->count, p->type, p->peer, p->tag, p->comm, (enum send_mode)p->mode);
}

int api_make_persistent(const char *func, const void *buf, int count, MPI_Datatype type, int peer,
                        int tag, MPI_Comm comm, int mode, bool is_recv, MPI_Request *request) {
    int rc = check_args(func, buf, count, type, peer, tag, comm, is_recv);
    if (rc != MPI_SUCCESS) return rc;
    struct simpi_request *q = api_request_new();
    q->persistent = true;
    dt_retain(type); /* each MPI_Start uses it, even once the program freed it */
    q->persist = (struct persist){(void *)buf, count, type, peer, tag, comm, mode, is_recv};
    *request = q;
    return MPI_SUCCESS;
}

static const char *sig_kind(int sig) {
    static const char *const kinds[] = {"",          "signed integers", "unsigned integers",
                                        "reals",     "complex numbers", "logicals",
                                        "characters"};
    return sig / 256 < 7 ? kinds[sig / 256] : "";
}

/* After completion: status, truncation check, free the wrapper. */
static int finish(const char *func, struct simpi_request *q, MPI_Status *status) {
    if (q->companion) { /* an Isendrecv completes with its send */
        struct simpi_request *c = q->companion;
        q->companion = NULL;
        if (c->r) runtime_wait(&c->r, 1, false);
        finish(func, c, MPI_STATUS_IGNORE);
    }
    int rc = MPI_SUCCESS;
    if (q->greq)
        rc = api_greq_finish(q, status);
    else
        api_fill_status(status, q);
    int want = q->is_recv && q->r && q->tgt.sig ? type_signature(q->type) : 0;
    if (want && want != q->tgt.sig)
        rc = api_error(func, MPI_ERR_TYPE,
                       "the message from rank %d (tag %d) was sent as elements of %d bytes (%s) "
                       "and is received as elements of %d bytes (%s): the type signatures differ "
                       "(--check=full)",
                       q->tgt.source, q->tgt.tag, q->tgt.sig % 256, sig_kind(q->tgt.sig),
                       want % 256, sig_kind(want));
    else if (q->is_recv && q->r && q->tgt.size > q->tgt.capacity)
        rc = api_error(func, MPI_ERR_TRUNCATE,
                       "a message of %lld bytes from rank %d (tag %d) arrived in a receive of "
                       "%lld bytes",
                       (long long)q->tgt.size, q->tgt.source, q->tgt.tag,
                       (long long)q->tgt.capacity);
    if (rc == MPI_SUCCESS && q->r && sim_request_failed(simpi_rt->sim, q->r))
        rc = api_error(func, MPIX_ERR_PROC_FAILED,
                       "a process involved failed (its node crashed: docs/faults.md)");
    if (status != MPI_STATUS_IGNORE) status->MPI_ERROR = rc;
    if (q->stage) api_unstage(q->stage);
    if (q->staged) {
        int64_t got = q->tgt.size < q->tgt.capacity ? q->tgt.size : q->tgt.capacity;
        if (q->r) dt_unpack(q->type, q->tgt.buf, got / q->type_size, q->user_buf);
        dt_release(q->type);
        free(q->tgt.buf);
        q->user_buf = NULL;
        q->staged = false;
    }
    q->active = false;
    q->r = NULL;
    if (!q->persistent) api_request_free(q);
    return rc;
}

static int blocking(const char *func, struct simpi_request *q, MPI_Status *status) {
    if (q->r) runtime_wait(&q->r, 1, false);
    return finish(func, q, status);
}

#define SEND_FN(NAME, MODE)                                                                        \
    int P##NAME(const void *buf, int count, MPI_Datatype type, int dest, int tag, MPI_Comm comm) { \
        API_ENTER(#NAME);                                                                          \
        struct simpi_request *q;                                                                   \
        int rc = start_send(#NAME, buf, count, type, dest, tag, comm, MODE, &q);                   \
        API_RETURN(rc == MPI_SUCCESS ? blocking(#NAME, q, MPI_STATUS_IGNORE) : rc);                \
    }

#define ISEND_FN(NAME, MODE)                                                                       \
    int P##NAME(const void *buf, int count, MPI_Datatype type, int dest, int tag, MPI_Comm comm,   \
                MPI_Request *request) {                                                            \
        API_ENTER(#NAME);                                                                          \
        int rc = start_send(#NAME, buf, count, type, dest, tag, comm, MODE, request);              \
        API_RETURN(rc);                                                                            \
    }

SEND_FN(MPI_Send, SEND_STANDARD)
SEND_FN(MPI_Ssend, SEND_SYNC)
SEND_FN(MPI_Bsend, SEND_BUFFERED)
SEND_FN(MPI_Rsend, SEND_READY)
ISEND_FN(MPI_Isend, SEND_STANDARD)
ISEND_FN(MPI_Issend, SEND_SYNC)
ISEND_FN(MPI_Ibsend, SEND_BUFFERED)
ISEND_FN(MPI_Irsend, SEND_READY)

int PMPI_Recv(void *buf, int count, MPI_Datatype type, int source, int tag, MPI_Comm comm,
              MPI_Status *status) {
    API_ENTER("MPI_Recv");
    struct simpi_request *q;
    int rc = start_recv("MPI_Recv", buf, count, type, source, tag, comm, &q);
    API_RETURN(rc == MPI_SUCCESS ? blocking("MPI_Recv", q, status) : rc);
}

int PMPI_Irecv(void *buf, int count, MPI_Datatype type, int source, int tag, MPI_Comm comm,
               MPI_Request *request) {
    API_ENTER("MPI_Irecv");
    API_RETURN(start_recv("MPI_Irecv", buf, count, type, source, tag, comm, request));
}

/* Posts a receive and a send; returns the receive's wrapper with the send
 * as its companion (finished with it). */
static int start_sendrecv(const char *func, const void *sendbuf, int sendcount,
                          MPI_Datatype sendtype, int dest, int sendtag, void *recvbuf,
                          int recvcount, MPI_Datatype recvtype, int source, int recvtag,
                          MPI_Comm comm, struct simpi_request **out) {
    struct simpi_request *s = NULL, *r = NULL;
    int rc = api_check_overlap(func, sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype);
    if (rc != MPI_SUCCESS) return rc;
    rc = start_recv(func, recvbuf, recvcount, recvtype, source, recvtag, comm, &r);
    if (rc == MPI_SUCCESS)
        rc = start_send(func, sendbuf, sendcount, sendtype, dest, sendtag, comm, SEND_STANDARD, &s);
    if (rc != MPI_SUCCESS) {
        if (r) api_request_free(r);
        return rc;
    }
    r->companion = s;
    *out = r;
    return MPI_SUCCESS;
}

int PMPI_Sendrecv(const void *sendbuf, int sendcount, MPI_Datatype sendtype, int dest, int sendtag,
                  void *recvbuf, int recvcount, MPI_Datatype recvtype, int source, int recvtag,
                  MPI_Comm comm, MPI_Status *status) {
    API_ENTER("MPI_Sendrecv");
    struct simpi_request *r;
    int rc = start_sendrecv("MPI_Sendrecv", sendbuf, sendcount, sendtype, dest, sendtag, recvbuf,
                            recvcount, recvtype, source, recvtag, comm, &r);
    if (rc != MPI_SUCCESS) API_RETURN(rc);
    struct request *both[2] = {r->companion->r, r->r};
    runtime_wait(both, 2, false);
    r->companion->r = NULL; /* the wait finished (and freed) it: finish() waits no more */
    API_RETURN(finish("MPI_Sendrecv", r, status));
}

/* MPI-4.0's non-blocking sendrecv: one request, complete when both are. */
int PMPI_Isendrecv(const void *sendbuf, int sendcount, MPI_Datatype sendtype, int dest, int sendtag,
                   void *recvbuf, int recvcount, MPI_Datatype recvtype, int source, int recvtag,
                   MPI_Comm comm, MPI_Request *request) {
    API_ENTER("MPI_Isendrecv");
    API_RETURN(start_sendrecv("MPI_Isendrecv", sendbuf, sendcount, sendtype, dest, sendtag, recvbuf,
                              recvcount, recvtype, source, recvtag, comm, request));
}

int PMPI_Wait(MPI_Request *request, MPI_Status *status) {
    API_ENTER("MPI_Wait");
    int crc_ = api_check_requests("MPI_Wait", request, 1);
    if (crc_ != MPI_SUCCESS) API_RETURN(crc_);
    struct simpi_request *q = *request;
    if (!q || (q->persistent && !q->active)) {
        api_empty_status(status);
        API_RETURN(MPI_SUCCESS);
    }
    if (!q->persistent) *request = MPI_REQUEST_NULL;
    API_RETURN(blocking("MPI_Wait", q, status));
}

int PMPI_Waitall(int count, MPI_Request requests[], MPI_Status statuses[]) {
    API_ENTER("MPI_Waitall");
    int crc_ = api_check_requests("MPI_Waitall", requests, count);
    if (crc_ != MPI_SUCCESS) API_RETURN(crc_);
    struct request *small[16], **list = count > 16 ? xcalloc((size_t)count, sizeof *list) : small;
    int n = 0;
    for (int i = 0; i < count; i++)
        if (requests[i] && requests[i]->active && requests[i]->r) list[n++] = requests[i]->r;
    if (n) runtime_wait(list, n, false);
    if (list != small) free(list);
    int rc = MPI_SUCCESS;
    for (int i = 0; i < count; i++) {
        MPI_Status *st = statuses == MPI_STATUSES_IGNORE ? MPI_STATUS_IGNORE : &statuses[i];
        struct simpi_request *q = requests[i];
        if (!q || !q->active) {
            api_empty_status(st);
            continue;
        }
        if (finish("MPI_Waitall", q, st) != MPI_SUCCESS) rc = MPI_ERR_IN_STATUS;
        if (!q->persistent) requests[i] = MPI_REQUEST_NULL;
    }
    API_RETURN(rc);
}

int PMPI_Waitany(int count, MPI_Request requests[], int *index, MPI_Status *status) {
    API_ENTER("MPI_Waitany");
    int crc_ = api_check_requests("MPI_Waitany", requests, count);
    if (crc_ != MPI_SUCCESS) API_RETURN(crc_);
    *index = MPI_UNDEFINED;
    for (int i = 0; i < count; i++) /* an operation on MPI_PROC_NULL is complete at once */
        if (requests[i] && requests[i]->active && !requests[i]->r) {
            *index = i;
            break;
        }
    if (*index == MPI_UNDEFINED) {
        struct request *small[16],
            **list = count > 16 ? xcalloc((size_t)count, sizeof *list) : small;
        int n = 0;
        for (int i = 0; i < count; i++)
            if (requests[i] && requests[i]->active) {
                sim_request_set_id(requests[i]->r, i);
                list[n++] = requests[i]->r;
            }
        if (n) {
            runtime_wait(list, n, true);
            *index = sim_last_index(simpi_rt->sim, runtime_rank());
        }
        if (list != small) free(list);
    }
    if (*index == MPI_UNDEFINED) {
        api_empty_status(status);
        API_RETURN(MPI_SUCCESS);
    }
    struct simpi_request *q = requests[*index];
    if (!q->persistent) requests[*index] = MPI_REQUEST_NULL;
    API_RETURN(finish("MPI_Waitany", q, status));
}

/* sim_test on the scheduler's stack (runtime_aside). */
struct test_args {
    struct request *r;
    bool done;
};

static void test_aside(void *p) {
    struct test_args *a = p;
    a->done = sim_test(simpi_rt->sim, runtime_rank(), a->r);
}

static bool test_request(struct request *r) {
    struct test_args a = {r, false};
    runtime_aside(test_aside, &a);
    return a.done;
}

int api_test_one(MPI_Request *request, int *flag, MPI_Status *status) {
    struct simpi_request *q = *request;
    struct simpi_request *c = q && q->active ? q->companion : NULL; /* Isendrecv: its send */
    if (c && c->r && q->r) { /* both complete, or neither is finished (and freed) */
        struct request *both[2] = {q->r, c->r};
        if (!sim_requests_ready(simpi_rt->sim, both, 2, false)) {
            *flag = 0;
            return MPI_SUCCESS;
        }
    }
    *flag = !q || !q->active || !q->r || test_request(q->r);
    if (*flag && c && c->r) {
        *flag = test_request(c->r);
        if (*flag) c->r = NULL; /* the test finished (and freed) it: finish() waits no more */
    }
    if (*flag && (!q || !q->active)) api_empty_status(status);
    if (!*flag || !q || !q->active) return MPI_SUCCESS;
    if (!q->persistent) *request = MPI_REQUEST_NULL;
    return finish("MPI_Test", q, status);
}

int PMPI_Test(MPI_Request *request, int *flag, MPI_Status *status) {
    API_ENTER("MPI_Test");
    int crc_ = api_check_requests("MPI_Test", request, 1);
    if (crc_ != MPI_SUCCESS) API_RETURN(crc_);
    int rc = api_test_one(request, flag, status);
    if (rc == MPI_SUCCESS && !*flag) vtime_poll_charge();
    API_RETURN(rc);
}

int PMPI_Testall(int count, MPI_Request requests[], int *flag, MPI_Status statuses[]) {
    API_ENTER("MPI_Testall");
    int crc_ = api_check_requests("MPI_Testall", requests, count);
    if (crc_ != MPI_SUCCESS) API_RETURN(crc_);
    /* all or nothing: complete them only if every one has completed */
    *flag = 1;
    for (int i = 0; i < count && *flag; i++) {
        struct simpi_request *q = requests[i];
        *flag = !q || !q->active || !q->r || sim_request_done(simpi_rt->sim, q->r);
    }
    if (!*flag) {
        vtime_poll_charge();
        API_RETURN(MPI_SUCCESS);
    }
    runtime_leave();
    return PMPI_Waitall(count, requests, statuses);
}

int PMPI_Get_count(const MPI_Status *status, MPI_Datatype type, int *count) {
    int64_t size = dt_size(type);
    if (size < 0) return api_error("MPI_Get_count", MPI_ERR_TYPE, "datatype %d is not valid", type);
    *count = size == 0                    ? 0
             : status->simpi_bytes % size ? MPI_UNDEFINED
                                          : (int)(status->simpi_bytes / size);
    return MPI_SUCCESS;
}

/* The buffers attached by each rank (only their size matters to the model). */
static struct attached {
    void *buf;
    int size;
} * attached;

int PMPI_Buffer_attach(void *buffer, int size) {
    API_ENTER("MPI_Buffer_attach");
    if (!attached) attached = xcalloc((size_t)simpi_rt->n, sizeof *attached);
    attached[runtime_rank()] = (struct attached){buffer, size};
    sim_buffer_attach(simpi_rt->sim, runtime_rank(), size);
    API_RETURN(MPI_SUCCESS);
}

int PMPI_Buffer_detach(void *buffer_addr, int *size) {
    API_ENTER("MPI_Buffer_detach");
    struct attached a = attached ? attached[runtime_rank()] : (struct attached){NULL, 0};
    *(void **)buffer_addr = a.buf;
    *size = a.size;
    if (attached) attached[runtime_rank()] = (struct attached){NULL, 0};
    sim_buffer_detach(simpi_rt->sim, runtime_rank());
    API_RETURN(MPI_SUCCESS);
}

/* MPI_ names are weak aliases of the PMPI_ entry points (profiling interface). */
#pragma weak MPI_Recv = PMPI_Recv
#pragma weak MPI_Irecv = PMPI_Irecv
#pragma weak MPI_Sendrecv = PMPI_Sendrecv
#pragma weak MPI_Wait = PMPI_Wait
#pragma weak MPI_Waitall = PMPI_Waitall
#pragma weak MPI_Waitany = PMPI_Waitany
#pragma weak MPI_Test = PMPI_Test
#pragma weak MPI_Testall = PMPI_Testall
#pragma weak MPI_Get_count = PMPI_Get_count
#pragma weak MPI_Buffer_attach = PMPI_Buffer_attach
#pragma weak MPI_Buffer_detach = PMPI_Buffer_detach
#pragma weak MPI_Send = PMPI_Send
#pragma weak MPI_Ssend = PMPI_Ssend
#pragma weak MPI_Bsend = PMPI_Bsend
#pragma weak MPI_Rsend = PMPI_Rsend
#pragma weak MPI_Isend = PMPI_Isend
#pragma weak MPI_Issend = PMPI_Issend
#pragma weak MPI_Ibsend = PMPI_Ibsend
#pragma weak MPI_Irsend = PMPI_Irsend

/* The envelope of a probe on MPI_PROC_NULL. */
static void proc_null_envelope(struct sim_recv_target *t) {
    t->source = MPI_PROC_NULL;
    t->tag = MPI_ANY_TAG;
    t->size = 0;
}

static void probe_status(MPI_Status *status, const struct sim_recv_target *t) {
    if (status == MPI_STATUS_IGNORE) return;
    status->MPI_SOURCE = t->source;
    status->MPI_TAG = t->tag;
    status->simpi_bytes = t->size;
    status->MPI_ERROR = MPI_SUCCESS;
}

int PMPI_Probe(int source, int tag, MPI_Comm comm, MPI_Status *status) {
    API_ENTER("MPI_Probe");
    int rc = check_args("MPI_Probe", NULL, 0, MPI_BYTE, source, tag, comm, true);
    if (rc != MPI_SUCCESS) API_RETURN(rc);
    struct sim_recv_target t = {0};
    if (source == MPI_PROC_NULL) {
        proc_null_envelope(&t);
    } else {
        struct request *q = sim_probe(simpi_rt->sim, runtime_rank(), comm, source, tag, &t);
        runtime_wait(&q, 1, false);
    }
    probe_status(status, &t);
    API_RETURN(MPI_SUCCESS);
}

int PMPI_Iprobe(int source, int tag, MPI_Comm comm, int *flag, MPI_Status *status) {
    API_ENTER("MPI_Iprobe");
    int rc = check_args("MPI_Iprobe", NULL, 0, MPI_BYTE, source, tag, comm, true);
    if (rc != MPI_SUCCESS) API_RETURN(rc);
    struct sim_recv_target t = {0};
    if (source == MPI_PROC_NULL) {
        proc_null_envelope(&t);
        *flag = 1;
    } else {
        *flag = sim_iprobe(simpi_rt->sim, runtime_rank(), comm, source, tag, &t);
    }
    if (*flag) probe_status(status, &t);
    if (!*flag) vtime_poll_charge();
    API_RETURN(MPI_SUCCESS);
}

#pragma weak MPI_Probe = PMPI_Probe
#pragma weak MPI_Iprobe = PMPI_Iprobe

/* The message goes out from a copy, and the reply lands in the same buffer. */
/* A copy of the count elements of type at buf, for the *_replace calls
 * (NULL with *rc set on a bad type or count). */
static char *replace_copy(const char *func, const void *buf, int count, MPI_Datatype type,
                          int *rc) {
    int64_t size = dt_size(type), extent = dt_extent(type);
    if (size < 0 || count < 0) {
        *rc = api_error(func, size < 0 ? MPI_ERR_TYPE : MPI_ERR_COUNT, "datatype %d, count %d",
                        type, count);
        return NULL;
    }
    int64_t span = count > 0 ? (count - 1) * extent + dt_true_lb(type) + dt_true_extent(type) : 0;
    char *copy = xmalloc((size_t)(span > 0 ? span : 1));
    if (span > 0) memcpy(copy, buf, (size_t)span);
    return copy;
}

int PMPI_Sendrecv_replace(void *buf, int count, MPI_Datatype type, int dest, int sendtag,
                          int source, int recvtag, MPI_Comm comm, MPI_Status *status) {
    int rc;
    char *copy = replace_copy("MPI_Sendrecv_replace", buf, count, type, &rc);
    if (!copy) return rc;
    rc = PMPI_Sendrecv(copy, count, type, dest, sendtag, buf, count, type, source, recvtag, comm,
                       status);
    free(copy);
    return rc;
}

#pragma weak MPI_Sendrecv_replace = PMPI_Sendrecv_replace

/* The message goes out from a copy (the MPI layer keeps its own at once),
 * and the reply lands in buf. */
int PMPI_Isendrecv_replace(void *buf, int count, MPI_Datatype type, int dest, int sendtag,
                           int source, int recvtag, MPI_Comm comm, MPI_Request *request) {
    int rc;
    char *copy = replace_copy("MPI_Isendrecv_replace", buf, count, type, &rc);
    if (!copy) return rc;
    rc = PMPI_Isendrecv(copy, count, type, dest, sendtag, buf, count, type, source, recvtag, comm,
                        request);
    free(copy);
    return rc;
}

#pragma weak MPI_Isendrecv = PMPI_Isendrecv
#pragma weak MPI_Isendrecv_replace = PMPI_Isendrecv_replace

/* Matched probes: an MPI_Message names a claimed message (index + 1). */
static struct request **messages;
static int nmessages;

static MPI_Message message_new(struct request *send) {
    for (int i = 0; i < nmessages; i++)
        if (!messages[i]) {
            messages[i] = send;
            return i + 1;
        }
    messages = realloc(messages, sizeof *messages * (size_t)(nmessages + 1));
    if (!messages) abort();
    messages[nmessages++] = send;
    return nmessages;
}

int PMPI_Improbe(int source, int tag, MPI_Comm comm, int *flag, MPI_Message *message,
                 MPI_Status *status) {
    API_ENTER("MPI_Improbe");
    int rc = check_args("MPI_Improbe", NULL, 0, MPI_BYTE, source, tag, comm, true);
    if (rc != MPI_SUCCESS) API_RETURN(rc);
    struct sim_recv_target t = {0};
    *flag = 1;
    if (source == MPI_PROC_NULL) {
        *message = MPI_MESSAGE_NO_PROC;
        proc_null_envelope(&t);
    } else {
        struct request *send = sim_claim(simpi_rt->sim, runtime_rank(), comm, source, tag, &t);
        *flag = send != NULL;
        if (send) *message = message_new(send);
    }
    if (*flag) probe_status(status, &t);
    if (!*flag) vtime_poll_charge();
    API_RETURN(MPI_SUCCESS);
}

int PMPI_Mprobe(int source, int tag, MPI_Comm comm, MPI_Message *message, MPI_Status *status) {
    int flag = 0, rc;
    while ((rc = PMPI_Improbe(source, tag, comm, &flag, message, status)) == MPI_SUCCESS && !flag)
        PMPI_Probe(source, tag, comm, MPI_STATUS_IGNORE); /* wait for one to arrive */
    return rc;
}

static int mrecv(const char *func, void *buf, int count, MPI_Datatype type, MPI_Message *message,
                 struct simpi_request **out) {
    int rc = api_check_type(func, type, count);
    if (rc != MPI_SUCCESS) return rc;
    bool no_proc = *message == MPI_MESSAGE_NO_PROC;
    if (!no_proc && (*message < 1 || *message > nmessages || !messages[*message - 1]))
        return api_error(func, MPI_ERR_REQUEST, "message %d is not valid", *message);
    struct simpi_request *q = api_request_new();
    *out = q;
    prepare_recv(q, buf, count, type);
    if (!no_proc) { /* with no_proc, r stays NULL: completes at once, from MPI_PROC_NULL */
        q->r = sim_mrecv(simpi_rt->sim, runtime_rank(), messages[*message - 1], &q->tgt);
        messages[*message - 1] = NULL;
    }
    *message = MPI_MESSAGE_NULL;
    return MPI_SUCCESS;
}

int PMPI_Mrecv(void *buf, int count, MPI_Datatype type, MPI_Message *message, MPI_Status *status) {
    API_ENTER("MPI_Mrecv");
    struct simpi_request *q;
    int rc = mrecv("MPI_Mrecv", buf, count, type, message, &q);
    API_RETURN(rc == MPI_SUCCESS ? blocking("MPI_Mrecv", q, status) : rc);
}

int PMPI_Imrecv(void *buf, int count, MPI_Datatype type, MPI_Message *message,
                MPI_Request *request) {
    API_ENTER("MPI_Imrecv");
    API_RETURN(mrecv("MPI_Imrecv", buf, count, type, message, request));
}

#pragma weak MPI_Improbe = PMPI_Improbe
#pragma weak MPI_Mprobe = PMPI_Mprobe
#pragma weak MPI_Mrecv = PMPI_Mrecv
#pragma weak MPI_Imrecv = PMPI_Imrecv

#define INIT_FN(NAME, MODE)                                                                        \
    int P##NAME(const void *buf, int count, MPI_Datatype type, int dest, int tag, MPI_Comm comm,   \
                MPI_Request *request) {                                                            \
        API_ENTER(#NAME);                                                                          \
        API_RETURN(                                                                                \
            api_make_persistent(#NAME, buf, count, type, dest, tag, comm, MODE, false, request));  \
    }

INIT_FN(MPI_Send_init, SEND_STANDARD)
INIT_FN(MPI_Ssend_init, SEND_SYNC)
INIT_FN(MPI_Bsend_init, SEND_BUFFERED)
INIT_FN(MPI_Rsend_init, SEND_READY)

int PMPI_Recv_init(void *buf, int count, MPI_Datatype type, int source, int tag, MPI_Comm comm,
                   MPI_Request *request) {
    API_ENTER("MPI_Recv_init");
    API_RETURN(api_make_persistent("MPI_Recv_init", buf, count, type, source, tag, comm, 0, true,
                                   request));
}

int PMPI_Start(MPI_Request *request) {
    API_ENTER("MPI_Start");
    int crc_ = api_check_requests("MPI_Start", request, 1);
    if (crc_ != MPI_SUCCESS) API_RETURN(crc_);
    struct simpi_request *q = *request;
    if (!q || !q->persistent || q->active)
        API_RETURN(api_error("MPI_Start", MPI_ERR_REQUEST, "not an inactive persistent request"));
    api_start(q);
    API_RETURN(MPI_SUCCESS);
}

int PMPI_Startall(int count, MPI_Request requests[]) {
    for (int i = 0; i < count; i++) {
        int rc = PMPI_Start(&requests[i]);
        if (rc != MPI_SUCCESS) return rc;
    }
    return MPI_SUCCESS;
}

int PMPI_Request_free(MPI_Request *request) {
    API_ENTER("MPI_Request_free");
    int crc_ = api_check_requests("MPI_Request_free", request, 1);
    if (crc_ != MPI_SUCCESS) API_RETURN(crc_);
    struct simpi_request *q = *request;
    bool goes_on = q && q->active && q->r && !q->persistent && !q->companion &&
                   (sim_request_is_send(q->r) || (q->is_recv && !q->staged && !q->greq));
    if (goes_on) {
        /* a send goes on with its packed data, if still to be read; a
         * receive into the user's buffer still delivers there */
        if (sim_request_free(simpi_rt->sim, runtime_rank(), q->r, q->send_packed))
            q->send_packed = NULL;
        q->r = NULL;
    } else if (q && q->active && q->r) {
        runtime_wait(&q->r, 1, false); /* staged data are unpacked by the wrapper */
    }
    if (q && q->companion) { /* an Isendrecv's send: waited for and freed with it */
        struct simpi_request *c = q->companion;
        q->companion = NULL;
        if (c->active && c->r) runtime_wait(&c->r, 1, false);
        api_request_free(c);
    }
    if (q) api_request_free(q);
    *request = MPI_REQUEST_NULL;
    API_RETURN(MPI_SUCCESS);
}

/* The first completed of the active requests, if any. */
static int test_any(int count, MPI_Request requests[], int *index, int *flag, MPI_Status *status) {
    *index = MPI_UNDEFINED;
    *flag = 1; /* true when no request is active */
    for (int i = 0; i < count; i++) {
        if (!requests[i] || !requests[i]->active) continue;
        *flag = 0;
        int done = 0, rc = api_test_one(&requests[i], &done, status);
        if (rc != MPI_SUCCESS) return rc;
        if (done) {
            *index = i;
            *flag = 1;
            return MPI_SUCCESS;
        }
    }
    if (!*flag) vtime_poll_charge();
    if (*flag) api_empty_status(status); /* no active request */
    return MPI_SUCCESS;
}

int PMPI_Testany(int count, MPI_Request requests[], int *index, int *flag, MPI_Status *status) {
    API_ENTER("MPI_Testany");
    int crc_ = api_check_requests("MPI_Testany", requests, count);
    if (crc_ != MPI_SUCCESS) API_RETURN(crc_);
    API_RETURN(test_any(count, requests, index, flag, status));
}

int PMPI_Testsome(int incount, MPI_Request requests[], int *outcount, int indices[],
                  MPI_Status statuses[]) {
    API_ENTER("MPI_Testsome");
    int crc_ = api_check_requests("MPI_Testsome", requests, incount);
    if (crc_ != MPI_SUCCESS) API_RETURN(crc_);
    int n = 0, active = 0;
    for (int i = 0; i < incount; i++) {
        if (!requests[i] || !requests[i]->active) continue;
        active++;
        int done = 0;
        MPI_Status *st = statuses == MPI_STATUSES_IGNORE ? MPI_STATUS_IGNORE : &statuses[n];
        api_test_one(&requests[i], &done, st);
        if (done) indices[n++] = i;
    }
    if (active && n == 0) vtime_poll_charge();
    *outcount = active ? n : MPI_UNDEFINED;
    API_RETURN(MPI_SUCCESS);
}

int PMPI_Waitsome(int incount, MPI_Request requests[], int *outcount, int indices[],
                  MPI_Status statuses[]) {
    int index;
    MPI_Status *first = statuses == MPI_STATUSES_IGNORE ? MPI_STATUS_IGNORE : &statuses[0];
    int rc = PMPI_Waitany(incount, requests, &index, first);
    if (rc != MPI_SUCCESS || index == MPI_UNDEFINED) {
        *outcount = MPI_UNDEFINED;
        return rc;
    }
    indices[0] = index;
    int more = 0;
    PMPI_Testsome(incount, requests, &more, indices + 1,
                  statuses == MPI_STATUSES_IGNORE ? MPI_STATUSES_IGNORE : statuses + 1);
    *outcount = 1 + (more == MPI_UNDEFINED ? 0 : more);
    return MPI_SUCCESS;
}

int PMPI_Request_get_status(MPI_Request request, int *flag, MPI_Status *status) {
    API_ENTER("MPI_Request_get_status");
    int crc_ = api_check_requests("MPI_Request_get_status", &request, 1);
    if (crc_ != MPI_SUCCESS) API_RETURN(crc_);
    struct simpi_request *q = request;
    *flag = !q || !q->active || !q->r || sim_request_done(simpi_rt->sim, q->r);
    if (*flag && q && q->active)
        api_fill_status(status, q);
    else if (*flag)
        api_empty_status(status);
    API_RETURN(MPI_SUCCESS);
}

/* MPI_Cancel of a send waits for the receiver's node to answer whether it
 * withdrew the message (docs/models.md). */
static bool cancel_send(struct simpi_request *q) {
    struct sim *s = simpi_rt->sim;
    int32_t rank = runtime_rank();
    struct request *answer = sim_signal_new(s, rank, -1, "MPI_Cancel (the receiver's answer)");
    sim_cancel(s, rank, q->r, answer);
    runtime_wait(&answer, 1, false);
    return sim_request_cancelled(q->r);
}

int PMPI_Cancel(MPI_Request *request) {
    API_ENTER("MPI_Cancel");
    int crc_ = api_check_requests("MPI_Cancel", request, 1);
    if (crc_ != MPI_SUCCESS) API_RETURN(crc_);
    struct simpi_request *q = *request;
    if (q && q->active && q->greq)
        api_greq_cancel(q);
    else if (q && q->active && q->r && !q->stage && sim_request_is_send(q->r))
        q->cancelled = cancel_send(q);
    else if (q && q->active && q->r && !q->stage)
        q->cancelled = sim_cancel(simpi_rt->sim, runtime_rank(), q->r, NULL);
    API_RETURN(MPI_SUCCESS);
}

int PMPI_Test_cancelled(const MPI_Status *status, int *flag) {
    *flag = status->simpi_cancelled;
    return MPI_SUCCESS;
}

#pragma weak MPI_Send_init = PMPI_Send_init
#pragma weak MPI_Ssend_init = PMPI_Ssend_init
#pragma weak MPI_Bsend_init = PMPI_Bsend_init
#pragma weak MPI_Rsend_init = PMPI_Rsend_init
#pragma weak MPI_Recv_init = PMPI_Recv_init
#pragma weak MPI_Start = PMPI_Start
#pragma weak MPI_Startall = PMPI_Startall
#pragma weak MPI_Request_free = PMPI_Request_free
#pragma weak MPI_Testany = PMPI_Testany
#pragma weak MPI_Testsome = PMPI_Testsome
#pragma weak MPI_Waitsome = PMPI_Waitsome
#pragma weak MPI_Request_get_status = PMPI_Request_get_status
#pragma weak MPI_Cancel = PMPI_Cancel
#pragma weak MPI_Test_cancelled = PMPI_Test_cancelled
