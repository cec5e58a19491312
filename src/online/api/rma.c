/* SPDX-License-Identifier: BSD-3-Clause */
/* One-sided communication (MPI-3.1 chapter 11) for on-line programs:
 * windows (create, allocate, allocate_shared, dynamic), put, get, the
 * accumulate family, request-based operations, and the three kinds of
 * synchronisation (fence, post-start-complete-wait, lock/unlock and flush).
 *
 * An operation reaches its target one control latency after the call
 * (sim_land), and the target's node acts on it then: a put writes into the
 * target's window, an accumulate applies its operation there, a get reads
 * and sends its data back, which the origin finds in its buffer once the
 * operation completes. Operations on one target take effect in the order
 * (arrival, origin rank, the origin's order), so accumulates from several
 * origins to one place give the same result in one process and split over
 * workers (the target's node applies them; the origin's data travel with
 * the operation). MPI forbids conflicting accesses within an epoch, so a
 * correct program cannot tell when within it the data move. Locks are
 * real: a lock request reaches the target, which grants it (first come,
 * first served, shared locks together) and whose grant travels back, and
 * an unlock's release reaches the target the same way; a start waits for
 * the matching posts, a wait for the completes, each arriving one control
 * latency after it was sent. So data and time follow the program's
 * synchronisation, and nothing one rank does reaches another's state
 * sooner than a message could (docs/parallel.md).
 *
 * The time of an operation's data is that of a message of its size
 * through the network model (sim_rma_origin, sim_rma_target); the origin
 * waits for its operations at the next synchronisation that completes them
 * (fence, unlock, flush, complete, free). A fence is a barrier of the
 * window's group. */
#include <stdlib.h>
#include <string.h>

#include "core/alloc.h"
#include "online/api/api.h"

enum rma_kind { RMA_PUT, RMA_GET, RMA_ACC, RMA_GET_ACC, RMA_CAS };

/* An operation the origin has issued and not yet completed. */
struct win_member;
struct rma_op {
    struct rma_op *next, *prev;
    struct win_member *owner;
    struct request *r;          /* NULL when the request belongs to wrap */
    struct simpi_request *wrap; /* a request-based operation (MPI_Rput...) */
    int target;
    /* the result, received packed into staging, unpacked at completion */
    struct sim_recv_target tgt;
    char *staging;
    void *rbuf;
    int rcount;
    MPI_Datatype rtype;
};

struct region { /* memory attached to a dynamic window */
    char *base;
    MPI_Aint size;
};

struct win_member {
    char *base;
    MPI_Aint size;
    int disp_unit;
    int32_t world;
    MPI_Comm comm;      /* the window's private communicator, as this rank names it */
    MPI_Comm user_comm; /* the communicator the window was created on */
    int errhandler;
    bool joined;     /* the member made its part of the window (in this worker) */
    bool own_memory; /* MPI_Win_allocate: freed with the window */
    bool freed;
    /* as a target (its locks, the posts and completes that reached it: the
     * MPI layer's, sim_rma_lock...) */
    struct region *regions;
    int nregions;
    int32_t *post_grp; /* the origins of this rank's exposure epoch */
    int npost;
    /* as an origin */
    struct rma_op *ops;
    uint8_t *held; /* per target: the lock this rank holds (0 none) */
    int nheld;
    bool fence_epoch;
    int32_t *start_grp; /* the targets of this rank's access epoch */
    int nstart;
    /* attribute values returned by MPI_Win_get_attr */
    MPI_Aint attr_size;
    int attr_disp_unit, attr_flavor, attr_model;
    char hints[6][32]; /* values of win_hint_keys given by the program ("": default) */
};

struct window {
    int n, joined, nfreed;
    int nlocal; /* members run by this worker (all but in a split run) */
    int flavor;
    uint32_t key_ctx, key_seq; /* the creating call: communicator context, collective number */
    char name[MPI_MAX_OBJECT_NAME];
    char *shared_block; /* MPI_Win_allocate_shared: every member's memory */
    struct win_member *m;
};

static struct window **wins; /* handle = index + 1 (MPI_WIN_NULL is 0) */
static int nwins;

static struct window *win_get(MPI_Win win) {
    return win >= 1 && win <= nwins ? wins[win - 1] : NULL;
}

/* The window a landing names, by its creating call (the same in every worker). */
static struct window *win_by_key(uint32_t ctx, uint32_t seq) {
    for (int i = 0; i < nwins; i++)
        if (wins[i] && wins[i]->key_ctx == ctx && wins[i]->key_seq == seq) return wins[i];
    return NULL;
}

/* This rank's member of w, or NULL if it has none (or freed it). */
static struct win_member *me_in(struct window *w) {
    int32_t world = runtime_rank();
    for (int i = 0; i < w->n; i++)
        if (w->m[i].world == world && !w->m[i].freed) return &w->m[i];
    return NULL;
}

static int my_index(const struct window *w, const struct win_member *me) {
    return (int)(me - w->m);
}

/* Reports an error through the window's error handler (fatal by default). */
static int win_error(const char *func, MPI_Win win, struct win_member *me, int code,
                     const char *what) {
    int handler = me ? me->errhandler : MPI_ERRORS_ARE_FATAL;
    return api_error_handler(handler, win, func, code, "%s", what);
}

#define WIN_OR_FAIL(func, win, w, me)                                                              \
    struct window *w = win_get(win);                                                               \
    struct win_member *me = w ? me_in(w) : NULL;                                                   \
    if (!me) return api_error(func, MPI_ERR_WIN, "window %d is not valid", win)

/* --- landings: what a member sends to another, acted on at its arrival --- */

enum land_kind { LAND_OP }; /* synchronisation: the MPI layer's (sim_rma_lock...) */

/* The head of a landing's message; an operation's is followed by the
 * target type's blocks, the origin's data and a compare-and-swap's value. */
struct land_head {
    uint8_t kind, op_kind, check, lock_type;
    int32_t op;
    uint32_t key_ctx, key_seq; /* the window */
    int32_t from, to;          /* members of the window */
    int32_t tcount, nblocks, basic;
    int32_t part; /* an operation needing its operand first: LAND_OPERAND, LAND_ACT (else 0) */
    int64_t disp, extent, per, tbytes, cbytes;
    int64_t lo, hi; /* the bytes touched, from the target address (check: range unknown here) */
};

/* The two landings of an operation whose result needs its operand at the
 * target (get_accumulate, fetch_and_op, compare_and_swap), as a replay of
 * its rma_put and rma_fetch records lands them: the operand's receive
 * posted one control latency from now, the operation and its reply once
 * the operand has had the time to arrive. */
enum { LAND_WHOLE, LAND_OPERAND, LAND_ACT };

/* Sends a landing from member `from` of w to member `to`, arriving one
 * control latency from now: its head and body in one malloc'd block msg
 * (the head's place left for it), which it takes. */
static void land_send_owned(struct window *w, struct land_head *h, char *msg, size_t len) {
    struct sim *s = simpi_rt->sim;
    int32_t origin = w->m[h->from].world, target = w->m[h->to].world;
    h->key_ctx = w->key_ctx;
    h->key_seq = w->key_seq;
    memcpy(msg, h, sizeof *h);
    /* an operation whose result depends on the origin's data (get-
     * accumulate, compare-and-swap) takes effect, and sends its result
     * back, once that data has arrived: its transfer's cost first (at 1 MiB
     * the call then costs a put and a get in turn, as SMPI's 170.77 us
     * against 85.39 us for a get) */
    simtime_t delay = h->part == LAND_ACT ? sim_transfer_cost(s, origin, target, h->tbytes)
                                          : sim_control_latency(s, origin, target);
    simtime_t at = simtime_add(sim_now(s), delay);
    sim_land_owned(s, origin, target, at, msg, (uint32_t)len);
}

/* --- outstanding operations --- */

static struct rma_op *op_add(struct win_member *me, int target, struct simpi_request *wrap) {
    struct rma_op *o = xcalloc(1, sizeof *o);
    o->wrap = wrap;
    o->target = target;
    o->owner = me;
    o->next = me->ops;
    if (me->ops) me->ops->prev = o;
    me->ops = o;
    if (wrap) wrap->rma = o;
    return o;
}

/* Forgets a completed operation, its result unpacked into the origin's buffer. */
static void op_unlink(struct win_member *me, struct rma_op *o) {
    if (o->staging) {
        dt_unpack(o->rtype, o->staging, o->rcount, o->rbuf);
        dt_release(o->rtype);
        free(o->staging);
    }
    if (o->prev)
        o->prev->next = o->next;
    else
        me->ops = o->next;
    if (o->next) o->next->prev = o->prev;
    if (o->wrap) o->wrap->rma = NULL;
    free(o);
}

/* Completes this rank's operations to target (-1: all targets). */
static void ops_complete(struct win_member *me, int target) {
    int n = 0;
    for (struct rma_op *o = me->ops; o; o = o->next)
        n += target < 0 || o->target == target;
    if (n == 0) return;
    struct request **reqs = xmalloc(sizeof *reqs * (size_t)n);
    int k = 0;
    /* a request-based operation's request stays for its MPI_Wait (now done) */
    for (struct rma_op *o = me->ops; o; o = o->next)
        if (target < 0 || o->target == target) {
            struct request *r = o->wrap ? o->wrap->r : o->r;
            if (r) reqs[k++] = r;
        }
    if (k) runtime_wait(reqs, k, false);
    free(reqs);
    for (struct rma_op *o = me->ops, *next; o; o = next) {
        next = o->next;
        if (target < 0 || o->target == target) {
            if (o->wrap) o->wrap->r = NULL; /* completed: MPI_Wait returns at once */
            op_unlink(me, o);
        }
    }
}

/* A request-based operation's wrapper is completed by the program. */
void api_rma_forget(struct simpi_request *q) {
    struct rma_op *o = q->rma;
    op_unlink(o->owner, o);
}

/* --- creation and destruction --- */

/* The window being created by this collective call on comm: the first
 * member to arrive (in this worker) makes it, the others join it. */
static struct window *win_join(MPI_Comm comm, int n, MPI_Win *handle) {
    struct sim *s = simpi_rt->sim;
    int32_t world = runtime_rank();
    uint32_t ctx = sim_comm_context(s, world, comm), seq = api_next_coll_seq(world, comm);
    for (int i = nwins - 1; i >= 0; i--) {
        struct window *w = wins[i];
        if (w && w->joined < w->nlocal && w->key_ctx == ctx && w->key_seq == seq) {
            *handle = i + 1;
            return w;
        }
    }
    struct window *w = xcalloc(1, sizeof *w);
    w->n = n;
    w->key_ctx = ctx;
    w->key_seq = seq;
    w->m = xcalloc((size_t)n, sizeof *w->m);
    for (int i = 0; i < n; i++) {
        w->m[i].world = sim_comm_member(s, world, comm, i);
        w->nlocal += sim_worker_of(s, w->m[i].world) == sim_worker_me(s);
    }
    wins = xrealloc_or_die(wins, sizeof *wins * (size_t)(nwins + 1));
    wins[nwins++] = w;
    *handle = nwins;
    return w;
}

static const char *flavor_func(int flavor) {
    switch (flavor) {
    case MPI_WIN_FLAVOR_ALLOCATE:
        return "MPI_Win_allocate";
    case MPI_WIN_FLAVOR_SHARED:
        return "MPI_Win_allocate_shared";
    case MPI_WIN_FLAVOR_DYNAMIC:
        return "MPI_Win_create_dynamic";
    default:
        return "MPI_Win_create";
    }
}

/* Gives memory to the members of a shared window, one block in member
 * order (the first member back from the creation does it for all). */
static void shared_block_assign(struct window *w) {
    if (w->shared_block) return;
    MPI_Aint total = 0;
    for (int i = 0; i < w->n; i++)
        total += (w->m[i].size + 15) / 16 * 16;
    w->shared_block = xcalloc(1, (size_t)total + 16);
    MPI_Aint off = 0;
    for (int i = 0; i < w->n; i++) {
        w->m[i].base = w->shared_block + off;
        off += (w->m[i].size + 15) / 16 * 16;
    }
}

static void hints_take(struct win_member *me, MPI_Info info);

/* Every member learns the others' window sizes and displacement units (an
 * allgather, as MPI libraries make at a window's creation), with which an
 * origin checks its operations' ranges wherever the target runs. */
static void share_sizes(struct window *w, struct win_member *me) {
    int64_t mine[2] = {me->size, me->disp_unit}, *all = xmalloc(sizeof mine * (size_t)w->n);
    api_coll_allgather(mine, (int)sizeof mine, all, me->comm);
    for (int i = 0; i < w->n; i++)
        if (!w->m[i].joined) { /* another worker's member */
            w->m[i].size = all[2 * i];
            w->m[i].disp_unit = (int)all[2 * i + 1];
        }
    free(all);
}

static int win_make(int flavor, void *base, MPI_Aint size, int disp_unit, MPI_Info info,
                    MPI_Comm comm, void *baseptr, MPI_Win *win) {
    const char *func = flavor_func(flavor);
    int rc = api_check_comm(func, comm);
    if (rc != MPI_SUCCESS) return rc;
    if (size < 0) return api_error(func, MPI_ERR_SIZE, "size %lld is negative", (long long)size);
    if (disp_unit <= 0)
        return api_error(func, MPI_ERR_DISP, "displacement unit %d is not positive", disp_unit);
    struct sim *s = simpi_rt->sim;
    int32_t world = runtime_rank();
    int n = sim_comm_size(s, world, comm), rank = sim_comm_rank(s, world, comm);
    MPI_Win handle;
    struct window *w = win_join(comm, n, &handle);
    if (flavor == MPI_WIN_FLAVOR_SHARED && w->nlocal < w->n)
        runtime_refuse_split("a shared-memory window whose members run in different workers");
    struct win_member *me = &w->m[rank];
    w->flavor = flavor;
    w->joined++;
    me->joined = true;
    me->size = size;
    me->disp_unit = disp_unit;
    me->user_comm = comm;
    me->errhandler = MPI_ERRORS_ARE_FATAL;
    hints_take(me, info);
    if (flavor == MPI_WIN_FLAVOR_ALLOCATE) {
        me->base = xcalloc(1, size > 0 ? (size_t)size : 1);
        me->own_memory = true;
    } else {
        me->base = base;
    }
    me->comm = api_comm_dup_private(comm); /* every member has joined when it returns */
    share_sizes(w, me);
    if (flavor == MPI_WIN_FLAVOR_SHARED) shared_block_assign(w);
    if (baseptr) *(void **)baseptr = me->base;
    *win = handle;
    return MPI_SUCCESS;
}

int PMPI_Win_create(void *base, MPI_Aint size, int disp_unit, MPI_Info info, MPI_Comm comm,
                    MPI_Win *win) {
    API_ENTER("MPI_Win_create");
    API_RETURN(win_make(MPI_WIN_FLAVOR_CREATE, base, size, disp_unit, info, comm, NULL, win));
}

int PMPI_Win_allocate(MPI_Aint size, int disp_unit, MPI_Info info, MPI_Comm comm, void *baseptr,
                      MPI_Win *win) {
    API_ENTER("MPI_Win_allocate");
    API_RETURN(win_make(MPI_WIN_FLAVOR_ALLOCATE, NULL, size, disp_unit, info, comm, baseptr, win));
}

int PMPI_Win_allocate_shared(MPI_Aint size, int disp_unit, MPI_Info info, MPI_Comm comm,
                             void *baseptr, MPI_Win *win) {
    API_ENTER("MPI_Win_allocate_shared");
    API_RETURN(win_make(MPI_WIN_FLAVOR_SHARED, NULL, size, disp_unit, info, comm, baseptr, win));
}

int PMPI_Win_create_dynamic(MPI_Info info, MPI_Comm comm, MPI_Win *win) {
    API_ENTER("MPI_Win_create_dynamic");
    API_RETURN(win_make(MPI_WIN_FLAVOR_DYNAMIC, MPI_BOTTOM, 0, 1, info, comm, NULL, win));
}

/* Frees a member's part; the window goes with its last member here. */
static void member_release(struct window *w, struct win_member *me) {
    if (me->own_memory) free(me->base);
    free(me->regions);
    free(me->post_grp);
    free(me->held);
    free(me->start_grp);
    me->freed = true;
    if (++w->nfreed < w->nlocal) return;
    free(w->shared_block);
    free(w->m);
    free(w);
}

static int win_free(MPI_Win *win) {
    WIN_OR_FAIL("MPI_Win_free", *win, w, me);
    if (me->nheld || me->nstart || me->npost)
        return win_error("MPI_Win_free", *win, me, MPI_ERR_RMA_SYNC,
                         "an epoch is still open on the window (lock, start or post)");
    ops_complete(me, -1);
    api_coll_barrier(me->comm); /* nobody accesses the window once a member frees it */
    api_win_delete_attrs(*win);
    bool last = w->nfreed + 1 == w->nlocal;
    member_release(w, me);
    if (last) wins[*win - 1] = NULL;
    *win = MPI_WIN_NULL;
    return MPI_SUCCESS;
}

/* --- fence --- */

static int win_fence(int assert, MPI_Win win) {
    WIN_OR_FAIL("MPI_Win_fence", win, w, me);
    if (me->nheld || me->nstart || me->npost)
        return win_error("MPI_Win_fence", win, me, MPI_ERR_RMA_SYNC,
                         "a fence inside a lock, start or post epoch");
    ops_complete(me, -1);
    api_coll_barrier(me->comm);
    me->fence_epoch = !(assert &MPI_MODE_NOSUCCEED);
    return MPI_SUCCESS;
}

/* --- passive target: lock, unlock, flush --- */

/* Waits until the locks this rank asked for are granted. */
static void grants_wait(struct win_member *me) {
    struct request *r = sim_rma_grants(simpi_rt->sim, me->world, me->comm);
    runtime_wait(&r, 1, false);
}

/* Asks target for a lock (the caller then waits for the grants). */
static void lock_take(struct window *w, struct win_member *me, int target, int type, bool check) {
    if (!me->held) me->held = xcalloc((size_t)w->n, 1);
    if (check) sim_rma_lock(simpi_rt->sim, me->world, me->comm, target, type == MPI_LOCK_EXCLUSIVE);
    /* the lock's type, with 4 when it was not acquired (MPI_MODE_NOCHECK) */
    me->held[target] = (uint8_t)(type | (check ? 0 : 4));
    me->nheld++;
    me->fence_epoch = false; /* a fence that opened no epoch in use (as MPICH allows) */
}

static void lock_release(struct win_member *me, int target) {
    int held = me->held[target];
    me->held[target] = 0;
    me->nheld--;
    if (!(held & 4))
        sim_rma_unlock(simpi_rt->sim, me->world, me->comm, target,
                       (held & 3) == MPI_LOCK_EXCLUSIVE);
}

static int check_target(const char *func, MPI_Win win, struct window *w, struct win_member *me,
                        int target) {
    if (target == MPI_PROC_NULL || (target >= 0 && target < w->n)) return MPI_SUCCESS;
    return win_error(func, win, me, MPI_ERR_RANK, "target rank out of the window's group");
}

static int win_lock(int type, int target, int assert, MPI_Win win) {
    WIN_OR_FAIL("MPI_Win_lock", win, w, me);
    int rc = check_target("MPI_Win_lock", win, w, me, target);
    if (rc != MPI_SUCCESS || target == MPI_PROC_NULL) return rc;
    if (type != MPI_LOCK_SHARED && type != MPI_LOCK_EXCLUSIVE)
        return win_error("MPI_Win_lock", win, me, MPI_ERR_LOCKTYPE, "unknown lock type");
    if ((me->held && me->held[target]) || me->nstart)
        return win_error("MPI_Win_lock", win, me, MPI_ERR_RMA_SYNC,
                         "the target is already in an access epoch of this rank");
    lock_take(w, me, target, type, !(assert &MPI_MODE_NOCHECK));
    grants_wait(me);
    return MPI_SUCCESS;
}

static int win_unlock(int target, MPI_Win win) {
    WIN_OR_FAIL("MPI_Win_unlock", win, w, me);
    int rc = check_target("MPI_Win_unlock", win, w, me, target);
    if (rc != MPI_SUCCESS || target == MPI_PROC_NULL) return rc;
    if (!me->held || !me->held[target])
        return win_error("MPI_Win_unlock", win, me, MPI_ERR_RMA_SYNC,
                         "the target is not locked by this rank");
    ops_complete(me, target);
    lock_release(me, target);
    return MPI_SUCCESS;
}

static int win_lock_all(int assert, MPI_Win win) {
    WIN_OR_FAIL("MPI_Win_lock_all", win, w, me);
    if (me->nheld || me->nstart)
        return win_error("MPI_Win_lock_all", win, me, MPI_ERR_RMA_SYNC,
                         "the rank is already in an access epoch");
    for (int t = 0; t < w->n; t++)
        lock_take(w, me, t, MPI_LOCK_SHARED, !(assert &MPI_MODE_NOCHECK));
    grants_wait(me);
    return MPI_SUCCESS;
}

static int win_unlock_all(MPI_Win win) {
    WIN_OR_FAIL("MPI_Win_unlock_all", win, w, me);
    if (me->nheld != w->n)
        return win_error("MPI_Win_unlock_all", win, me, MPI_ERR_RMA_SYNC,
                         "MPI_Win_lock_all was not called");
    ops_complete(me, -1);
    for (int t = 0; t < w->n; t++)
        lock_release(me, t);
    return MPI_SUCCESS;
}

static int flush(const char *func, int target, MPI_Win win) {
    WIN_OR_FAIL(func, win, w, me);
    int rc = check_target(func, win, w, me, target);
    if (rc != MPI_SUCCESS || target == MPI_PROC_NULL) return rc;
    if (!me->nheld)
        return win_error(func, win, me, MPI_ERR_RMA_SYNC, "no passive-target epoch is open");
    ops_complete(me, target);
    return MPI_SUCCESS;
}

/* Local completion is modelled as remote completion (a put's buffer is
 * free at once here, but its time is charged at the flush). */
static int win_flush(int target, MPI_Win win) {
    return flush("MPI_Win_flush", target, win);
}

static int win_flush_local(int target, MPI_Win win) {
    return flush("MPI_Win_flush_local", target, win);
}

static int flush_all(const char *func, MPI_Win win) {
    WIN_OR_FAIL(func, win, w, me);
    (void)w;
    if (!me->nheld)
        return win_error(func, win, me, MPI_ERR_RMA_SYNC, "no passive-target epoch is open");
    ops_complete(me, -1);
    return MPI_SUCCESS;
}

static int win_flush_all(MPI_Win win) {
    return flush_all("MPI_Win_flush_all", win);
}

static int win_flush_local_all(MPI_Win win) {
    return flush_all("MPI_Win_flush_local_all", win);
}

/* Memory is one address space per rank: public and private copies are the same. */
static int win_sync(MPI_Win win) {
    WIN_OR_FAIL("MPI_Win_sync", win, w, me);
    (void)w;
    return MPI_SUCCESS;
}

/* --- general active target: post, start, complete, wait --- */

/* The members of group as ranks of the window (NULL and an error if one is
 * not a member). */
static int32_t *group_ranks(const char *func, MPI_Win win, struct window *w, struct win_member *me,
                            MPI_Group group, int *n, int *rc) {
    const int32_t *world = api_group_members(group, n);
    *rc = MPI_SUCCESS;
    if (!world) {
        *rc = win_error(func, win, me, MPI_ERR_GROUP, "invalid group");
        return NULL;
    }
    int32_t *out = xmalloc(sizeof *out * (size_t)(*n + 1));
    for (int i = 0; i < *n; i++) {
        out[i] = -1;
        for (int j = 0; j < w->n; j++)
            if (w->m[j].world == world[i]) out[i] = j;
        if (out[i] < 0) {
            free(out);
            *rc = win_error(func, win, me, MPI_ERR_GROUP, "a group member is not in the window");
            return NULL;
        }
    }
    return out;
}

static int win_post(MPI_Group group, int assert, MPI_Win win) {
    WIN_OR_FAIL("MPI_Win_post", win, w, me);
    if (me->npost)
        return win_error("MPI_Win_post", win, me, MPI_ERR_RMA_SYNC, "an exposure epoch is open");
    int n, rc;
    int32_t *grp = group_ranks("MPI_Win_post", win, w, me, group, &n, &rc);
    if (!grp) return rc;
    me->post_grp = grp;
    me->npost = n;
    if (assert & MPI_MODE_NOCHECK) return MPI_SUCCESS;
    for (int i = 0; i < n; i++)
        sim_rma_notify(simpi_rt->sim, me->world, me->comm, grp[i], false);
    return MPI_SUCCESS;
}

static int win_start(MPI_Group group, int assert, MPI_Win win) {
    WIN_OR_FAIL("MPI_Win_start", win, w, me);
    if (me->nstart || me->nheld)
        return win_error("MPI_Win_start", win, me, MPI_ERR_RMA_SYNC, "an access epoch is open");
    int n, rc;
    int32_t *grp = group_ranks("MPI_Win_start", win, w, me, group, &n, &rc);
    if (!grp) return rc;
    me->start_grp = grp;
    me->nstart = n;
    me->fence_epoch = false;
    if (assert & MPI_MODE_NOCHECK) return MPI_SUCCESS;
    struct request *r = sim_rma_notes_wait(simpi_rt->sim, me->world, me->comm, grp, n, false);
    runtime_wait(&r, 1, false);
    return MPI_SUCCESS;
}

static int win_complete(MPI_Win win) {
    WIN_OR_FAIL("MPI_Win_complete", win, w, me);
    if (!me->start_grp)
        return win_error("MPI_Win_complete", win, me, MPI_ERR_RMA_SYNC, "MPI_Win_start not called");
    ops_complete(me, -1);
    for (int i = 0; i < me->nstart; i++)
        sim_rma_notify(simpi_rt->sim, me->world, me->comm, me->start_grp[i], true);
    free(me->start_grp);
    me->start_grp = NULL;
    me->nstart = 0;
    return MPI_SUCCESS;
}

/* Ends the exposure epoch (its completes used up by the MPI layer). */
static void exposure_end(struct win_member *me) {
    free(me->post_grp);
    me->post_grp = NULL;
    me->npost = 0;
}

static int win_wait(MPI_Win win) {
    WIN_OR_FAIL("MPI_Win_wait", win, w, me);
    if (!me->post_grp)
        return win_error("MPI_Win_wait", win, me, MPI_ERR_RMA_SYNC, "MPI_Win_post not called");
    (void)w;
    struct request *r =
        sim_rma_notes_wait(simpi_rt->sim, me->world, me->comm, me->post_grp, me->npost, true);
    runtime_wait(&r, 1, false);
    exposure_end(me);
    return MPI_SUCCESS;
}

static int win_test(MPI_Win win, int *flag) {
    WIN_OR_FAIL("MPI_Win_test", win, w, me);
    (void)w;
    if (!me->post_grp)
        return win_error("MPI_Win_test", win, me, MPI_ERR_RMA_SYNC, "MPI_Win_post not called");
    *flag =
        sim_rma_notes_in(simpi_rt->sim, me->world, me->comm, me->post_grp, me->npost, true, true);
    if (*flag)
        exposure_end(me);
    else
        vtime_poll_charge();
    return MPI_SUCCESS;
}

/* --- communication calls --- */

struct rma_call {
    enum rma_kind kind;
    const void *obuf; /* origin data (put, accumulate; compare-and-swap: the new value) */
    int ocount;
    MPI_Datatype otype;
    void *rbuf; /* the result (get, get-accumulate, fetch, compare-and-swap) */
    int rcount;
    MPI_Datatype rtype;
    const void *cbuf; /* compare-and-swap: the value compared */
    int target;
    MPI_Aint disp;
    int tcount;
    MPI_Datatype ttype;
    MPI_Op op;
};

static void *translate(int32_t owner, void *addr) {
    return sim_address(simpi_rt->sim, owner, addr);
}

/* The bytes count elements of type touch, [*lo, *hi) from the address of
 * the first element. */
static void type_span(MPI_Datatype type, int count, int64_t *lo, int64_t *hi) {
    int64_t ext = dt_extent(type);
    *lo = dt_true_lb(type);
    *hi = *lo + dt_true_extent(type) + (count - 1) * ext;
    if (ext < 0) { /* elements go down: the last one is lowest */
        *lo += (count - 1) * ext;
        *hi = dt_true_lb(type) + dt_true_extent(type);
    }
}

/* Whether [lo, hi) from an operation's target address is all in member
 * t's window: disp units from its base, or for a dynamic window the
 * absolute address disp in attached memory. */
static bool target_inside(int flavor, const struct win_member *t, int64_t disp, int64_t lo,
                          int64_t hi) {
    if (flavor == MPI_WIN_FLAVOR_DYNAMIC) {
        const char *addr = (const char *)(intptr_t)disp;
        for (int i = 0; i < t->nregions; i++)
            if (addr + lo >= t->regions[i].base &&
                addr + hi <= t->regions[i].base + t->regions[i].size)
                return true;
        return false;
    }
    int64_t off = disp * t->disp_unit;
    return off + lo >= 0 && off + hi <= t->size;
}

/* Where an operation's target memory starts (t runs here). */
static char *target_address(int flavor, const struct win_member *t, int64_t disp) {
    return flavor == MPI_WIN_FLAVOR_DYNAMIC ? (char *)(intptr_t)disp
                                            : t->base + disp * t->disp_unit;
}

static bool in_access_epoch(const struct win_member *me, int target) {
    if (me->fence_epoch || (me->held && me->held[target])) return true;
    for (int i = 0; i < me->nstart; i++)
        if (me->start_grp[i] == target) return true;
    return false;
}

/* Whether predefined operation op applies to basic type `basic`. */
static bool op_fits(MPI_Op op, int basic) {
    if (op == MPI_REPLACE || op == MPI_NO_OP) return true;
    char in[64] = {0}, inout[64] = {0};
    return basic && dtype_size(basic) <= 64 && op_apply(op, basic, in, inout, 1) == MPI_SUCCESS;
}

static int check_call(const char *func, MPI_Win win, struct window *w, struct win_member *me,
                      const struct rma_call *c) {
    int rc = check_target(func, win, w, me, c->target);
    if (rc != MPI_SUCCESS || c->target == MPI_PROC_NULL) return rc;
    bool origin_data = c->kind != RMA_GET && !(c->kind == RMA_GET_ACC && c->op == MPI_NO_OP);
    if (origin_data && (rc = api_check_type(func, c->otype, c->ocount)) != MPI_SUCCESS) return rc;
    if (c->kind != RMA_PUT && c->kind != RMA_ACC &&
        (rc = api_check_type(func, c->rtype, c->rcount)) != MPI_SUCCESS)
        return rc;
    if ((rc = api_check_type(func, c->ttype, c->tcount)) != MPI_SUCCESS) return rc;
    if (!in_access_epoch(me, c->target))
        return win_error(func, win, me, MPI_ERR_RMA_SYNC,
                         "no access epoch to the target is open (fence, lock or start)");
    int64_t tbytes = dt_size(c->ttype) * c->tcount;
    if (origin_data && dt_size(c->otype) * c->ocount != tbytes)
        return win_error(func, win, me, MPI_ERR_ARG,
                         "the origin and target buffers hold different numbers of bytes");
    if (c->kind != RMA_PUT && c->kind != RMA_ACC && dt_size(c->rtype) * c->rcount != tbytes)
        return win_error(func, win, me, MPI_ERR_ARG,
                         "the result and target buffers hold different numbers of bytes");
    if ((c->kind == RMA_ACC || c->kind == RMA_GET_ACC) && !op_valid(c->op))
        return win_error(func, win, me, MPI_ERR_OP, "invalid operation");
    if ((c->kind == RMA_ACC || c->kind == RMA_GET_ACC) && op_is_user(c->op))
        return win_error(func, win, me, MPI_ERR_OP,
                         "one-sided accumulates take predefined operations only");
    int64_t per;
    if ((c->kind == RMA_ACC || c->kind == RMA_GET_ACC) && !op_fits(c->op, dt_basic(c->ttype, &per)))
        return win_error(func, win, me, MPI_ERR_TYPE,
                         "the operation does not apply to the datatype");
    return MPI_SUCCESS;
}

/* Issues the operation's transfers (the origin's side); returns the one a
 * request-based operation's request stands for (the data's arrival at the
 * origin for operations with a result, else at the target). */
static struct request *issue_transfers(struct win_member *me, const struct rma_call *c,
                                       struct simpi_request *wrap) {
    struct sim *s = simpi_rt->sim;
    int32_t world = runtime_rank();
    int64_t tbytes = dt_size(c->ttype) * c->tcount;
    bool to_target = c->kind != RMA_GET && !(c->kind == RMA_GET_ACC && c->op == MPI_NO_OP);
    bool from_target = c->kind != RMA_PUT && c->kind != RMA_ACC;
    struct request *last = NULL;
    if (to_target) {
        struct rma_op *o = op_add(me, c->target, from_target ? NULL : wrap);
        last = sim_rma_origin(s, world, me->comm, c->target, tbytes, SIM_RMA_PUT, NULL, -1);
        if (!o->wrap) o->r = last;
    }
    if (from_target) {
        struct rma_op *o = op_add(me, c->target, wrap);
        o->staging = xmalloc(tbytes > 0 ? (size_t)tbytes : 1);
        o->rbuf = c->rbuf;
        o->rcount = c->rcount;
        o->rtype = c->rtype;
        dt_retain(c->rtype);
        o->tgt = (struct sim_recv_target){.buf = o->staging, .capacity = tbytes, .owner = world};
        last = sim_rma_origin(s, world, me->comm, c->target, tbytes,
                              to_target ? SIM_RMA_FETCH : SIM_RMA_GET, &o->tgt, -1);
        if (!wrap) o->r = last;
    }
    return last;
}

/* Sends the operation to its target, where it takes effect on arrival
 * (rma_land_op): the target type's blocks and the origin's data go with it. */
static void send_operation(struct window *w, struct win_member *me, const struct rma_call *c,
                           bool check_there) {
    struct land_head h = {.kind = LAND_OP, .op_kind = (uint8_t)c->kind, .check = check_there};
    h.op = c->op;
    h.from = my_index(w, me);
    h.to = c->target;
    h.disp = c->disp;
    h.tcount = c->tcount;
    h.extent = dt_extent(c->ttype);
    h.tbytes = dt_size(c->ttype) * c->tcount;
    h.basic = dt_basic(c->ttype, &h.per);
    type_span(c->ttype, c->tcount, &h.lo, &h.hi);
    struct dt_block one;
    const struct dt_block *b = dt_blocks(c->ttype, &h.nblocks, &one);
    bool origin_data = c->kind != RMA_GET && !(c->kind == RMA_GET_ACC && c->op == MPI_NO_OP);
    h.cbytes = c->kind == RMA_CAS ? h.tbytes : 0;
    /* one block, the origin's data packed straight into it: a single copy
     * on the way (a second, allocated beside it, made the C library give
     * the memory back and fault it in again at every 4 MiB put) */
    size_t blocks = sizeof *b * (size_t)h.nblocks, data = origin_data ? (size_t)h.tbytes : 0;
    size_t len = sizeof h + blocks + data + (size_t)h.cbytes;
    char *msg = xmalloc(len);
    if (blocks) memcpy(msg + sizeof h, b, blocks); /* a type of no block: b may be NULL */
    if (origin_data) dt_pack(c->otype, c->obuf, c->ocount, msg + sizeof h + blocks);
    if (h.cbytes) dt_pack(c->ttype, c->cbuf, 1, msg + sizeof h + blocks + data);
    bool needs_operand = (c->kind == RMA_GET_ACC && c->op != MPI_NO_OP) || c->kind == RMA_CAS;
    if (needs_operand) { /* the operand's receive first, alone */
        struct land_head first = h;
        first.part = LAND_OPERAND;
        char *head = xmalloc(sizeof first);
        land_send_owned(w, &first, head, sizeof first);
        h.part = LAND_ACT;
    }
    land_send_owned(w, &h, msg, len);
}

/* The fields of struct rma_call, by buffer */
#define ORIGIN(buf, count, type) .obuf = (buf), .ocount = (count), .otype = (type)
#define RESULT(buf, count, type) .rbuf = (buf), .rcount = (count), .rtype = (type)
#define TARGET(rank, displ, count, type)                                                           \
    .target = (rank), .disp = (displ), .tcount = (count), .ttype = (type)

static int rma_call(const char *func, const struct rma_call *c, MPI_Win win, MPI_Request *request) {
    WIN_OR_FAIL(func, win, w, me);
    if (request) *request = MPI_REQUEST_NULL;
    int rc = check_call(func, win, w, me, c);
    if (rc != MPI_SUCCESS || c->target == MPI_PROC_NULL || c->tcount == 0) return rc;
    /* the target's window is known here (its size from the creation),
     * unless it is a dynamic window of another worker's rank, whose node
     * then checks the range when the operation arrives */
    const struct win_member *t = &w->m[c->target];
    bool known = w->flavor != MPI_WIN_FLAVOR_DYNAMIC || t->joined;
    int64_t lo, hi;
    type_span(c->ttype, c->tcount, &lo, &hi);
    if (known && !target_inside(w->flavor, t, c->disp, lo, hi))
        return win_error(func, win, me, MPI_ERR_RMA_RANGE,
                         "the target memory is outside the target's window");
    struct simpi_request *q = request ? api_request_new() : NULL;
    struct request *r = issue_transfers(me, c, q);
    send_operation(w, me, c, !known);
    if (q) {
        q->r = r;
        q->active = true;
        *request = q;
    }
    return MPI_SUCCESS;
}

/* --- what arrives at a member (in the engine, not in its rank) --- */

static const char *const op_names[] = {"MPI_Put", "MPI_Get", "MPI_Accumulate", "MPI_Get_accumulate",
                                       "MPI_Compare_and_swap"};

/* An operation arrives at its target t: the data move, the result goes
 * back, and the transfers' target sides are posted. */
static void rma_land_op(struct window *w, struct win_member *t, const struct land_head *h,
                        const char *body) {
    struct sim *s = simpi_rt->sim;
    const struct dt_block *b = (const void *)body;
    const char *data = body + sizeof *b * (size_t)h->nblocks;
    bool origin_data = h->op_kind != RMA_GET && !(h->op_kind == RMA_GET_ACC && h->op == MPI_NO_OP);
    const char *cmp = data + (origin_data ? h->tbytes : 0);
    if (!target_inside(w->flavor, t, h->disp, h->lo, h->hi)) {
        runtime_fail_rank(w->m[h->from].world,
                          "%s to rank %d: the target memory is outside the "
                          "target's window (MPI_ERR_RMA_RANGE)",
                          op_names[h->op_kind], h->to);
        return;
    }
    char *addr = translate(t->world, target_address(w->flavor, t, h->disp));
    if (origin_data &&
        h->part != LAND_ACT) /* its data's transfer: received on the target's behalf */
        sim_rma_target(s, t->world, t->comm, h->from, h->tbytes, true, NULL);
    if (h->part == LAND_OPERAND) return; /* the operation itself lands later */
    if (h->op_kind == RMA_PUT) {
        dt_unpack_blocks(b, h->nblocks, h->extent, data, h->tcount, addr);
        return;
    }
    char *old = xmalloc(h->tbytes > 0 ? (size_t)h->tbytes : 1); /* the target's data before */
    dt_pack_blocks(b, h->nblocks, h->extent, addr, h->tcount, old);
    if (h->op_kind != RMA_ACC) sim_rma_target(s, t->world, t->comm, h->from, h->tbytes, false, old);
    if (h->op_kind == RMA_CAS && !memcmp(old, cmp, (size_t)h->cbytes)) {
        dt_unpack_blocks(b, h->nblocks, h->extent, data, h->tcount, addr);
    } else if ((h->op_kind == RMA_ACC || h->op_kind == RMA_GET_ACC) && h->op != MPI_NO_OP) {
        if (h->op == MPI_REPLACE)
            memcpy(old, data, (size_t)h->tbytes);
        else
            op_apply(h->op, h->basic, data, old, h->per * h->tcount);
        dt_unpack_blocks(b, h->nblocks, h->extent, old, h->tcount, addr);
    }
    free(old);
}

void api_land(void *ctx, int32_t target, int32_t origin, const void *msg, uint32_t len) {
    if (len && *(const uint8_t *)msg >= IO_LAND_FETCH)
        api_io_land(target, msg, len);
    else
        api_rma_land(ctx, target, origin, msg, len);
}

void api_rma_land(void *ctx, int32_t target, int32_t origin, const void *msg, uint32_t len) {
    (void)ctx, (void)origin;
    struct land_head h;
    if (len < sizeof h) return;
    memcpy(&h, msg, sizeof h);
    struct window *w = win_by_key(h.key_ctx, h.key_seq); /* NULL: freed since */
    if (!w || h.to < 0 || h.to >= w->n || h.from < 0 || h.from >= w->n) return;
    struct win_member *m = &w->m[h.to];
    if (!m->joined || m->freed || m->world != target) return;
    switch (h.kind) {
    case LAND_OP:
        rma_land_op(w, m, &h, (const char *)msg + sizeof h);
        break;
    default: /* synchronisation travels in the MPI layer (sim_rma_lock...) */
        break;
    }
}

int PMPI_Put(const void *obuf, int ocount, MPI_Datatype otype, int target, MPI_Aint disp,
             int tcount, MPI_Datatype ttype, MPI_Win win) {
    API_ENTER("MPI_Put");
    struct rma_call c = {
        .kind = RMA_PUT, ORIGIN(obuf, ocount, otype), TARGET(target, disp, tcount, ttype)};
    API_RETURN(rma_call("MPI_Put", &c, win, NULL));
}

int PMPI_Rput(const void *obuf, int ocount, MPI_Datatype otype, int target, MPI_Aint disp,
              int tcount, MPI_Datatype ttype, MPI_Win win, MPI_Request *request) {
    API_ENTER("MPI_Rput");
    struct rma_call c = {
        .kind = RMA_PUT, ORIGIN(obuf, ocount, otype), TARGET(target, disp, tcount, ttype)};
    API_RETURN(rma_call("MPI_Rput", &c, win, request));
}

int PMPI_Get(void *obuf, int ocount, MPI_Datatype otype, int target, MPI_Aint disp, int tcount,
             MPI_Datatype ttype, MPI_Win win) {
    API_ENTER("MPI_Get");
    struct rma_call c = {
        .kind = RMA_GET, RESULT(obuf, ocount, otype), TARGET(target, disp, tcount, ttype)};
    API_RETURN(rma_call("MPI_Get", &c, win, NULL));
}

int PMPI_Rget(void *obuf, int ocount, MPI_Datatype otype, int target, MPI_Aint disp, int tcount,
              MPI_Datatype ttype, MPI_Win win, MPI_Request *request) {
    API_ENTER("MPI_Rget");
    struct rma_call c = {
        .kind = RMA_GET, RESULT(obuf, ocount, otype), TARGET(target, disp, tcount, ttype)};
    API_RETURN(rma_call("MPI_Rget", &c, win, request));
}

int PMPI_Accumulate(const void *obuf, int ocount, MPI_Datatype otype, int target, MPI_Aint disp,
                    int tcount, MPI_Datatype ttype, MPI_Op op, MPI_Win win) {
    API_ENTER("MPI_Accumulate");
    struct rma_call c = {.kind = RMA_ACC,
                         ORIGIN(obuf, ocount, otype),
                         TARGET(target, disp, tcount, ttype),
                         .op = op};
    API_RETURN(rma_call("MPI_Accumulate", &c, win, NULL));
}

int PMPI_Raccumulate(const void *obuf, int ocount, MPI_Datatype otype, int target, MPI_Aint disp,
                     int tcount, MPI_Datatype ttype, MPI_Op op, MPI_Win win, MPI_Request *request) {
    API_ENTER("MPI_Raccumulate");
    struct rma_call c = {.kind = RMA_ACC,
                         ORIGIN(obuf, ocount, otype),
                         TARGET(target, disp, tcount, ttype),
                         .op = op};
    API_RETURN(rma_call("MPI_Raccumulate", &c, win, request));
}

int PMPI_Get_accumulate(const void *obuf, int ocount, MPI_Datatype otype, void *rbuf, int rcount,
                        MPI_Datatype rtype, int target, MPI_Aint disp, int tcount,
                        MPI_Datatype ttype, MPI_Op op, MPI_Win win) {
    API_ENTER("MPI_Get_accumulate");
    struct rma_call c = {.kind = RMA_GET_ACC,
                         ORIGIN(obuf, ocount, otype),
                         RESULT(rbuf, rcount, rtype),
                         TARGET(target, disp, tcount, ttype),
                         .op = op};
    API_RETURN(rma_call("MPI_Get_accumulate", &c, win, NULL));
}

int PMPI_Rget_accumulate(const void *obuf, int ocount, MPI_Datatype otype, void *rbuf, int rcount,
                         MPI_Datatype rtype, int target, MPI_Aint disp, int tcount,
                         MPI_Datatype ttype, MPI_Op op, MPI_Win win, MPI_Request *request) {
    API_ENTER("MPI_Rget_accumulate");
    struct rma_call c = {.kind = RMA_GET_ACC,
                         ORIGIN(obuf, ocount, otype),
                         RESULT(rbuf, rcount, rtype),
                         TARGET(target, disp, tcount, ttype),
                         .op = op};
    API_RETURN(rma_call("MPI_Rget_accumulate", &c, win, request));
}

int PMPI_Fetch_and_op(const void *obuf, void *rbuf, MPI_Datatype type, int target, MPI_Aint disp,
                      MPI_Op op, MPI_Win win) {
    API_ENTER("MPI_Fetch_and_op");
    struct rma_call c = {.kind = RMA_GET_ACC,
                         ORIGIN(obuf, 1, type),
                         RESULT(rbuf, 1, type),
                         TARGET(target, disp, 1, type),
                         .op = op};
    API_RETURN(rma_call("MPI_Fetch_and_op", &c, win, NULL));
}

int PMPI_Compare_and_swap(const void *obuf, const void *cbuf, void *rbuf, MPI_Datatype type,
                          int target, MPI_Aint disp, MPI_Win win) {
    API_ENTER("MPI_Compare_and_swap");
    struct rma_call c = {.kind = RMA_CAS,
                         ORIGIN(obuf, 1, type),
                         RESULT(rbuf, 1, type),
                         TARGET(target, disp, 1, type),
                         .cbuf = cbuf};
    API_RETURN(rma_call("MPI_Compare_and_swap", &c, win, NULL));
}

/* --- dynamic windows, shared memory --- */

static int win_attach(MPI_Win win, void *base, MPI_Aint size) {
    WIN_OR_FAIL("MPI_Win_attach", win, w, me);
    if (w->flavor != MPI_WIN_FLAVOR_DYNAMIC)
        return win_error("MPI_Win_attach", win, me, MPI_ERR_RMA_FLAVOR,
                         "memory is attached to dynamic windows only");
    if (size < 0) return win_error("MPI_Win_attach", win, me, MPI_ERR_SIZE, "negative size");
    me->regions = xrealloc_or_die(me->regions, sizeof *me->regions * (size_t)(me->nregions + 1));
    me->regions[me->nregions++] = (struct region){base, size};
    return MPI_SUCCESS;
}

static int win_detach(MPI_Win win, const void *base) {
    WIN_OR_FAIL("MPI_Win_detach", win, w, me);
    for (int i = 0; i < me->nregions; i++)
        if (me->regions[i].base == base) {
            me->regions[i] = me->regions[--me->nregions];
            return MPI_SUCCESS;
        }
    (void)w;
    return win_error("MPI_Win_detach", win, me, MPI_ERR_RMA_ATTACH,
                     "no memory is attached at this address");
}

static int win_shared_query(MPI_Win win, int rank, MPI_Aint *size, int *disp_unit, void *baseptr) {
    WIN_OR_FAIL("MPI_Win_shared_query", win, w, me);
    if (w->flavor != MPI_WIN_FLAVOR_SHARED)
        return win_error("MPI_Win_shared_query", win, me, MPI_ERR_RMA_FLAVOR,
                         "the window was not made by MPI_Win_allocate_shared");
    if (rank == MPI_PROC_NULL) /* the first member with memory */
        for (rank = 0; rank < w->n - 1 && w->m[rank].size == 0; rank++)
            ;
    int rc = check_target("MPI_Win_shared_query", win, w, me, rank);
    if (rc != MPI_SUCCESS) return rc;
    *size = w->m[rank].size;
    *disp_unit = w->m[rank].disp_unit;
    *(void **)baseptr = w->m[rank].base;
    return MPI_SUCCESS;
}

/* --- names, groups, info, attributes, error handlers --- */

static int win_set_name(MPI_Win win, const char *name) {
    WIN_OR_FAIL("MPI_Win_set_name", win, w, me);
    (void)me;
    snprintf(w->name, sizeof w->name, "%s", name);
    return MPI_SUCCESS;
}

static int win_get_name(MPI_Win win, char *name, int *len) {
    WIN_OR_FAIL("MPI_Win_get_name", win, w, me);
    (void)me;
    *len = (int)strlen(w->name);
    memcpy(name, w->name, (size_t)*len + 1);
    return MPI_SUCCESS;
}

static int win_get_group(MPI_Win win, MPI_Group *group) {
    WIN_OR_FAIL("MPI_Win_get_group", win, w, me);
    (void)w;
    *group = api_comm_group(me->comm);
    return MPI_SUCCESS;
}

/* Window hints (MPI-3.1 11.2.1): simpi keeps the values of the hints the
 * standard defines, with their defaults, and returns them as the hints in
 * use; it acts on none of them. Others are ignored. */
static const char *const win_hint_keys[] = {"no_locks",  "accumulate_ordering", "accumulate_ops",
                                            "same_size", "same_disp_unit",      "alloc_shm"};
static const char *const win_hint_defaults[] = {"false", "rar,raw,war,waw", "same_op_no_op",
                                                "false", "false",           "false"};
#define WIN_HINTS (int)(sizeof win_hint_keys / sizeof win_hint_keys[0])

static void hints_take(struct win_member *me, MPI_Info info) {
    api_hints_take(info, win_hint_keys, WIN_HINTS, me->hints[0], sizeof me->hints[0]);
}

static int win_set_info(MPI_Win win, MPI_Info info) {
    WIN_OR_FAIL("MPI_Win_set_info", win, w, me);
    (void)w;
    hints_take(me, info);
    return MPI_SUCCESS;
}

static int win_get_info(MPI_Win win, MPI_Info *info) {
    WIN_OR_FAIL("MPI_Win_get_info", win, w, me);
    (void)w;
    return api_hints_info(info, win_hint_keys, WIN_HINTS, me->hints[0], sizeof me->hints[0],
                          win_hint_defaults);
}

static int win_get_attr(MPI_Win win, int keyval, void *value, int *flag) {
    WIN_OR_FAIL("MPI_Win_get_attr", win, w, me);
    void **out = value;
    *flag = 1;
    switch (keyval) {
    case MPI_WIN_BASE:
        *out = me->base;
        break;
    case MPI_WIN_SIZE:
        me->attr_size = me->size, *out = &me->attr_size;
        break;
    case MPI_WIN_DISP_UNIT:
        me->attr_disp_unit = me->disp_unit, *out = &me->attr_disp_unit;
        break;
    case MPI_WIN_CREATE_FLAVOR:
        me->attr_flavor = w->flavor, *out = &me->attr_flavor;
        break;
    case MPI_WIN_MODEL:
        me->attr_model = MPI_WIN_UNIFIED, *out = &me->attr_model;
        break;
    default:
        return api_win_get_user_attr(win, keyval, value, flag);
    }
    return MPI_SUCCESS;
}

static int win_set_errhandler(MPI_Win win, MPI_Errhandler handler) {
    WIN_OR_FAIL("MPI_Win_set_errhandler", win, w, me);
    (void)w;
    me->errhandler = handler;
    return MPI_SUCCESS;
}

static int win_get_errhandler(MPI_Win win, MPI_Errhandler *handler) {
    WIN_OR_FAIL("MPI_Win_get_errhandler", win, w, me);
    (void)w;
    *handler = me->errhandler;
    return MPI_SUCCESS;
}

static int win_call_errhandler(MPI_Win win, int code) {
    WIN_OR_FAIL("MPI_Win_call_errhandler", win, w, me);
    (void)w;
    win_error("MPI_Win_call_errhandler", win, me, code, "called by the program");
    return MPI_SUCCESS;
}

int PMPI_Win_create_errhandler(MPI_Win_errhandler_function *fn, MPI_Errhandler *errhandler) {
    return PMPI_Comm_create_errhandler((MPI_Comm_errhandler_function *)fn, errhandler);
}

MPI_Fint PMPI_Win_c2f(MPI_Win win) {
    return win;
}

MPI_Win PMPI_Win_f2c(MPI_Fint win) {
    return win;
}

/* --- entry points --- */

/* The profiling entry point of a window function: enter, call, leave. */
#define WIN_ENTRY(NAME, body, PARAMS, ARGS)                                                        \
    int P##NAME PARAMS {                                                                           \
        API_ENTER(#NAME);                                                                          \
        API_RETURN(body ARGS);                                                                     \
    }

WIN_ENTRY(MPI_Win_free, win_free, (MPI_Win * win), (win))

WIN_ENTRY(MPI_Win_fence, win_fence, (int assert, MPI_Win win), (assert, win))

WIN_ENTRY(MPI_Win_lock, win_lock, (int type, int target, int assert, MPI_Win win),
          (type, target, assert, win))

WIN_ENTRY(MPI_Win_unlock, win_unlock, (int target, MPI_Win win), (target, win))

WIN_ENTRY(MPI_Win_lock_all, win_lock_all, (int assert, MPI_Win win), (assert, win))

WIN_ENTRY(MPI_Win_unlock_all, win_unlock_all, (MPI_Win win), (win))

WIN_ENTRY(MPI_Win_flush, win_flush, (int target, MPI_Win win), (target, win))

WIN_ENTRY(MPI_Win_flush_local, win_flush_local, (int target, MPI_Win win), (target, win))

WIN_ENTRY(MPI_Win_flush_all, win_flush_all, (MPI_Win win), (win))

WIN_ENTRY(MPI_Win_flush_local_all, win_flush_local_all, (MPI_Win win), (win))

WIN_ENTRY(MPI_Win_sync, win_sync, (MPI_Win win), (win))

WIN_ENTRY(MPI_Win_post, win_post, (MPI_Group group, int assert, MPI_Win win), (group, assert, win))

WIN_ENTRY(MPI_Win_start, win_start, (MPI_Group group, int assert, MPI_Win win),
          (group, assert, win))

WIN_ENTRY(MPI_Win_complete, win_complete, (MPI_Win win), (win))

WIN_ENTRY(MPI_Win_wait, win_wait, (MPI_Win win), (win))

WIN_ENTRY(MPI_Win_test, win_test, (MPI_Win win, int *flag), (win, flag))

WIN_ENTRY(MPI_Win_attach, win_attach, (MPI_Win win, void *base, MPI_Aint size), (win, base, size))

WIN_ENTRY(MPI_Win_detach, win_detach, (MPI_Win win, const void *base), (win, base))

WIN_ENTRY(MPI_Win_shared_query, win_shared_query,
          (MPI_Win win, int rank, MPI_Aint *size, int *disp_unit, void *baseptr),
          (win, rank, size, disp_unit, baseptr))

WIN_ENTRY(MPI_Win_set_name, win_set_name, (MPI_Win win, const char *name), (win, name))

WIN_ENTRY(MPI_Win_get_name, win_get_name, (MPI_Win win, char *name, int *len), (win, name, len))

WIN_ENTRY(MPI_Win_get_group, win_get_group, (MPI_Win win, MPI_Group *group), (win, group))

WIN_ENTRY(MPI_Win_set_info, win_set_info, (MPI_Win win, MPI_Info info), (win, info))

WIN_ENTRY(MPI_Win_get_info, win_get_info, (MPI_Win win, MPI_Info *info), (win, info))

WIN_ENTRY(MPI_Win_get_attr, win_get_attr, (MPI_Win win, int keyval, void *value, int *flag),
          (win, keyval, value, flag))

WIN_ENTRY(MPI_Win_set_errhandler, win_set_errhandler, (MPI_Win win, MPI_Errhandler handler),
          (win, handler))

WIN_ENTRY(MPI_Win_get_errhandler, win_get_errhandler, (MPI_Win win, MPI_Errhandler *handler),
          (win, handler))

WIN_ENTRY(MPI_Win_call_errhandler, win_call_errhandler, (MPI_Win win, int code), (win, code))

#pragma weak MPI_Accumulate = PMPI_Accumulate
#pragma weak MPI_Compare_and_swap = PMPI_Compare_and_swap
#pragma weak MPI_Fetch_and_op = PMPI_Fetch_and_op
#pragma weak MPI_Get = PMPI_Get
#pragma weak MPI_Get_accumulate = PMPI_Get_accumulate
#pragma weak MPI_Put = PMPI_Put
#pragma weak MPI_Raccumulate = PMPI_Raccumulate
#pragma weak MPI_Rget = PMPI_Rget
#pragma weak MPI_Rget_accumulate = PMPI_Rget_accumulate
#pragma weak MPI_Rput = PMPI_Rput
#pragma weak MPI_Win_allocate = PMPI_Win_allocate
#pragma weak MPI_Win_allocate_shared = PMPI_Win_allocate_shared
#pragma weak MPI_Win_attach = PMPI_Win_attach
#pragma weak MPI_Win_c2f = PMPI_Win_c2f
#pragma weak MPI_Win_call_errhandler = PMPI_Win_call_errhandler
#pragma weak MPI_Win_complete = PMPI_Win_complete
#pragma weak MPI_Win_create = PMPI_Win_create
#pragma weak MPI_Win_create_dynamic = PMPI_Win_create_dynamic
#pragma weak MPI_Win_create_errhandler = PMPI_Win_create_errhandler
#pragma weak MPI_Win_detach = PMPI_Win_detach
#pragma weak MPI_Win_f2c = PMPI_Win_f2c
#pragma weak MPI_Win_fence = PMPI_Win_fence
#pragma weak MPI_Win_flush = PMPI_Win_flush
#pragma weak MPI_Win_flush_all = PMPI_Win_flush_all
#pragma weak MPI_Win_flush_local = PMPI_Win_flush_local
#pragma weak MPI_Win_flush_local_all = PMPI_Win_flush_local_all
#pragma weak MPI_Win_free = PMPI_Win_free
#pragma weak MPI_Win_get_attr = PMPI_Win_get_attr
#pragma weak MPI_Win_get_errhandler = PMPI_Win_get_errhandler
#pragma weak MPI_Win_get_group = PMPI_Win_get_group
#pragma weak MPI_Win_get_info = PMPI_Win_get_info
#pragma weak MPI_Win_get_name = PMPI_Win_get_name
#pragma weak MPI_Win_lock = PMPI_Win_lock
#pragma weak MPI_Win_lock_all = PMPI_Win_lock_all
#pragma weak MPI_Win_post = PMPI_Win_post
#pragma weak MPI_Win_set_errhandler = PMPI_Win_set_errhandler
#pragma weak MPI_Win_set_info = PMPI_Win_set_info
#pragma weak MPI_Win_set_name = PMPI_Win_set_name
#pragma weak MPI_Win_shared_query = PMPI_Win_shared_query
#pragma weak MPI_Win_start = PMPI_Win_start
#pragma weak MPI_Win_sync = PMPI_Win_sync
#pragma weak MPI_Win_test = PMPI_Win_test
#pragma weak MPI_Win_unlock = PMPI_Win_unlock
#pragma weak MPI_Win_unlock_all = PMPI_Win_unlock_all
#pragma weak MPI_Win_wait = PMPI_Win_wait
