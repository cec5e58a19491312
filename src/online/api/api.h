/* SPDX-License-Identifier: BSD-3-Clause */
/* Shared declarations of the MPI C API entry points (src/online/api/, one
 * file per chapter of MPI-3.1): request wrappers, argument checks, error
 * reporting through the handlers of errhan.c, and the helpers the chapters
 * lend each other. */
#ifndef SIMPI_ONLINE_API_H
#define SIMPI_ONLINE_API_H

#include <stdbool.h>

#include "mpi.h"
#include "mpi/sim.h"
#include "online/datatype/predefined.h"
#include "online/datatype/typemap.h"
#include "online/runtime.h"

struct stage;

/* What a persistent request starts each time. */
struct persist {
    void *buf;
    int count, type, peer, tag;
    MPI_Comm comm;
    int mode;
    bool is_recv;
};

/* An MPI_Request: the MPI-layer request and where a receive's data goes. */
struct simpi_request {
    struct request *r; /* NULL for an operation on MPI_PROC_NULL */
    uint32_t magic;    /* REQUEST_LIVE while the handle is valid */
    int32_t rank;      /* the world rank that made it */
    struct sim_recv_target tgt;
    int64_t type_size;
    bool is_recv;
    /* a receive of a non-contiguous datatype lands in tgt.buf (staging),
     * then is unpacked into user_buf (which may be MPI_BOTTOM) */
    void *user_buf;
    bool staged;
    int type;
    struct stage *stage; /* non-blocking collective: staging to finish */
    void *send_packed;   /* a rendezvous send's packed data, read when delivered */
    bool active;         /* started and not yet completed */
    bool cancelled;
    bool persistent;
    struct persist persist;
    struct simpi_request *companion; /* MPI_Isendrecv: the send, finished with it */
    struct rma_op *rma;              /* a request-based one-sided operation (rma.c) */
    struct greq *greq;               /* a generalized request (ext.c) */
    int fint;                        /* its integer for Fortran, 0 if none (src/fortran) */
};

/* --- api.c: checks shared by most calls (MPI_SUCCESS or the reported
 * error), statuses, and the stop for functions simpi lacks (stubs.c) --- */
int api_check_init(const char *func);
int api_check_comm(const char *func, MPI_Comm comm);
int api_check_type(const char *func, MPI_Datatype type, int count);
/* A communication buffer: the datatype valid and committed, the count
 * non-negative, and no NULL buffer of a predefined type with elements
 * (what says which buffer: "buf", "sendbuf"...). */
int api_check_data(const char *func, const void *buf, int count, MPI_Datatype type,
                   const char *what);
/* A send buffer and a receive buffer of one call must not overlap (MPI's
 * rule on aliasing; MPI_IN_PLACE is how to share one). */
int api_check_overlap(const char *func, const void *sendbuf, int scount, MPI_Datatype stype,
                      const void *recvbuf, int rcount, MPI_Datatype rtype);
/* Request handles a program passes in (NULL: MPI_REQUEST_NULL, valid):
 * made by simpi, not freed, this rank's. */
int api_check_requests(const char *func, const MPI_Request *reqs, int n);
/* --check (SIMPI_CHECK): 0 off, 1 default, 2 full (docs/checking.md). */
int api_check_level(void);
/* --check=full: the MPI layer's hooks for type signatures, set in hooks
 * before any rank runs. */
void api_check_hooks(struct sim_hooks *hooks);
/* MPI's empty status (null or inactive requests): any source, any tag,
 * no error, 0 bytes. */
void api_empty_status(MPI_Status *status);
/* Fills status (if not ignored) from a finished request wrapper. */
void api_fill_status(MPI_Status *status, const struct simpi_request *q);
_Noreturn void api_unsupported(const char *func);

/* --- errhan.c --- */
/* Reports an error through the handler of the communicator the call is
 * about (MPI_COMM_WORLD's if none): aborts under MPI_ERRORS_ARE_FATAL,
 * calls a user handler, returns the code. */
int api_error(const char *func, int code, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));
/* The same through an explicit error handler, for an object (a window, a
 * file) that has its own. */
int api_error_handler(int handler, int obj, const char *func, int code, const char *fmt, ...)
    __attribute__((format(printf, 5, 6)));
/* Reports an error through comm's handler (MPI_Comm_call_errhandler). */
int api_comm_error(MPI_Comm comm, const char *func, int code, const char *what);
/* The communicator the running call is about: its handler gets the call's
 * errors. */
void api_error_context(MPI_Comm comm);
void api_set_errhandler(MPI_Comm comm, int handler);
/* A new communicator starts with its parent's handler (MPI-3.1 8.3). */
void api_inherit_errhandler(MPI_Comm parent, MPI_Comm child);
bool api_call_user_handler(int errhandler, MPI_Comm comm, int code);
/* Error classes and codes the program added: the last one, a code's class
 * (code itself if not added) and string (NULL if none). */
int api_last_used_code(void);
int api_user_error_class(int code);
const char *api_user_error_text(int code);

/* --- pt2pt.c: request wrappers --- */
struct simpi_request *api_request_new(void);
void api_request_free(struct simpi_request *q);
/* MPI_Test without the polling cost (for Testany and Testsome). */
int api_test_one(MPI_Request *request, int *flag, MPI_Status *status);
/* Persistent requests: create (inactive), and start. */
int api_make_persistent(const char *func, const void *buf, int count, MPI_Datatype type, int peer,
                        int tag, MPI_Comm comm, int mode, bool is_recv, MPI_Request *request);
void api_start(struct simpi_request *q);

/* --- coll.c --- */
struct stage;
/* Finishes a collective's staging (unpacks outputs) and frees it. */
void api_unstage(struct stage *st);
/* Blocking collectives for simpi's own use (no entry, errors returned). */
int api_coll_barrier(MPI_Comm comm);
int api_coll_bcast(void *buf, int count, MPI_Datatype type, int root, MPI_Comm comm);
int api_coll_reduce(const void *sendbuf, void *recvbuf, int count, MPI_Datatype type, MPI_Op op,
                    int root, MPI_Comm comm);
/* A gather of `bytes` bytes per rank into recvbuf at root. */
int api_coll_gather(const void *sendbuf, int bytes, void *recvbuf, int root, MPI_Comm comm);
int api_coll_scatterv(const void *sendbuf, const int *counts, const int *displs, MPI_Datatype type,
                      void *recvbuf, int recvcount, int root, MPI_Comm comm);
int api_comm_split(MPI_Comm comm, int color, int key, MPI_Comm *newcomm);
/* An allgather of `bytes` bytes per rank. */
int api_coll_allgather(const void *sendbuf, int bytes, void *recvbuf, MPI_Comm comm);
/* Per-rank, per-communicator collective sequence numbers. */
uint32_t api_next_coll_seq(int32_t rank, MPI_Comm comm);

/* --- comm.c and group.c --- */
/* MPI_Comm_create_group with the group as world ranks. */
int api_comm_create_group(MPI_Comm comm, const int32_t *world, int n, int tag, MPI_Comm *newcomm);
/* A duplicate of comm for simpi's own use (no attributes copied). */
MPI_Comm api_comm_dup_private(MPI_Comm comm);
/* The world ranks of a communicator's members (caller frees). */
int32_t *api_comm_members(MPI_Comm comm, int *n);
/* A new group of the communicator's members (comm must be valid). */
MPI_Group api_comm_group(MPI_Comm comm);
/* The world ranks of a group's members (NULL for an invalid group). */
const int32_t *api_group_members(MPI_Group group, int *n);

/* A new communicator id for this rank. */
MPI_Comm api_comm_new_id(void);
/* A new group of the given world ranks (copied). */
MPI_Group api_group_of(const int32_t *world, int n);

/* --- ulfm.c (docs/faults.md) --- */
/* Whether a communicator was revoked (MPIX_Comm_revoke). */
bool api_comm_revoked(MPI_Comm comm);
/* MPIX_ERR_REVOKED (reported) for an operation on a revoked communicator
 * (but ULFM's own calls and the MPI_Comm_* ones). */
int api_check_failures(const char *func, MPI_Comm comm);

/* --- graph.c: MPI_GRAPH, MPI_DIST_GRAPH or MPI_UNDEFINED --- */
int api_graph_kind(MPI_Comm comm);

/* --- intercomm.c --- */
bool api_is_inter(MPI_Comm comm);
int api_inter_local_size(MPI_Comm comm);
/* A copy of the local group's world ranks, or NULL if comm is not an
 * intercommunicator. */
int32_t *api_inter_local_members(MPI_Comm comm, int *n);
int api_inter_dup(MPI_Comm comm, MPI_Comm *newcomm);
void api_inter_free(MPI_Comm comm);
int api_inter_barrier(MPI_Comm comm);
int api_inter_bcast(void *buf, int count, MPI_Datatype type, int root, MPI_Comm comm);
int api_inter_reduce(const void *sendbuf, void *recvbuf, int count, MPI_Datatype type, MPI_Op op,
                     int root, MPI_Comm comm);
int api_inter_allreduce(const void *sendbuf, void *recvbuf, int count, MPI_Datatype type, MPI_Op op,
                        MPI_Comm comm);
int api_inter_allgather(const void *sendbuf, int scount, MPI_Datatype stype, void *recvbuf,
                        int rcount, MPI_Datatype rtype, MPI_Comm comm);
/* The arguments of a data-moving collective on an intercommunicator:
 * counts per peer (NULL: the single count), displacements in elements
 * (NULL: packed), or in bytes with a datatype per peer (alltoallw). */
struct inter_args {
    const void *sendbuf;
    int scount;
    const int *scounts, *sdispls;
    MPI_Datatype stype;
    const MPI_Datatype *stypes;
    void *recvbuf;
    int rcount;
    const int *rcounts, *rdispls;
    MPI_Datatype rtype;
    const MPI_Datatype *rtypes;
    int root;
};
/* gather(v), scatter(v), allgather(v), alltoall(v, w) (kind: a coll_data
 * kind) between the groups, as MPI-3.1 5.2.2 defines them. */
int api_inter_move(const char *func, int kind, const struct inter_args *a, MPI_Comm comm);
/* reduce_scatter: the other group's reduction of the vector, scattered
 * over this group by its recvcounts (whose sums must agree). */
int api_inter_reduce_scatter(const void *sendbuf, void *recvbuf, const int *recvcounts,
                             MPI_Datatype type, MPI_Op op, MPI_Comm comm);
/* MPI_Comm_split of an intercommunicator: the members of each color in
 * both groups form an intercommunicator (MPI_COMM_NULL where the color is
 * MPI_UNDEFINED or absent from the other group). */
int api_inter_split(MPI_Comm comm, int color, int key, MPI_Comm *newcomm);
/* A request that is already complete (the non-blocking forms on
 * intercommunicators run to completion in the call). */
void api_request_done(MPI_Request *request);

/* --- info.c: hints kept by windows and files --- */
void api_hints_take(MPI_Info info, const char *const *keys, int n, char *values, size_t width);
int api_hints_info(MPI_Info *info, const char *const *keys, int n, const char *values, size_t width,
                   const char *const *defaults);

/* --- attr.c: attributes follow communicators, datatypes, windows --- */
/* On MPI_Comm_dup: MPI_SUCCESS, or the error a copy callback returned. */
int api_copy_attrs(MPI_Comm from, MPI_Comm to);
void api_delete_attrs(MPI_Comm comm);
/* Datatype attributes on MPI_Type_dup (callback errors returned) and free. */
int api_type_copy_attrs(MPI_Datatype from, MPI_Datatype to);
void api_type_delete_attrs(MPI_Datatype type);
int api_win_get_user_attr(MPI_Win win, int keyval, void *value, int *flag);
void api_win_delete_attrs(MPI_Win win);

/* --- rma.c and ext.c: the ends of special requests --- */
/* A request-based one-sided operation's request is completed. */
void api_rma_forget(struct simpi_request *q);
/* A one-sided operation, lock message, post or complete arrives at rank
 * target (sim_driver.land: api_land). */
void api_rma_land(void *ctx, int32_t target, int32_t origin, const void *msg, uint32_t len);
/* The shared file pointer's messages (io.c), told apart from one-sided
 * communication's by their first byte. */
enum { IO_LAND_FETCH = 32, IO_LAND_FETCHED, IO_LAND_ADJUST };
void api_io_land(int32_t target, const void *msg, uint32_t len);
/* What lands at a rank: one-sided communication or the shared file pointer. */
void api_land(void *ctx, int32_t target, int32_t origin, const void *msg, uint32_t len);
/* Generalized requests: at completion, the query and free callbacks
 * (status filled by query; returns the first error); on MPI_Cancel, the
 * cancel callback. */
int api_greq_finish(struct simpi_request *q, MPI_Status *status);
void api_greq_cancel(struct simpi_request *q);

#define API_ENTER(name)                                                                            \
    runtime_check_thread(name);                                                                    \
    runtime_enter();                                                                               \
    int api_rc_ = api_check_init(name);                                                            \
    if (api_rc_ != MPI_SUCCESS) {                                                                  \
        runtime_leave();                                                                           \
        return api_rc_;                                                                            \
    }

#define API_RETURN(rc)                                                                             \
    do {                                                                                           \
        int r_ = (rc);                                                                             \
        runtime_leave();                                                                           \
        return r_;                                                                                 \
    } while (0)

#endif
