/* SPDX-License-Identifier: BSD-3-Clause */
/* Rendezvous slots for collective data (see coll_data.h). */
#include "online/coll_data.h"

#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/alloc.h"
#include "mpi.h"
#include "mpi/sim.h"
#include "online/datatype/predefined.h"
#include "online/runtime.h"

struct member {
    void *in; /* copy of the input */
    int64_t in_len;
    int64_t *in_off, *in_len_to; /* copies */
    void *out;
    const int64_t *out_off, *out_len_from;
    int32_t owner; /* world rank, for privatized globals */
    int op, type;  /* its reduction operation and datatype (user ones are handles of its process) */
    int64_t out_len;
    uint8_t arrived, served;
    uint8_t local; /* a rank of this worker (always, unless the run is split) */
};

/* A slot's copies of its members' inputs come from chunks of its own, all
 * freed with it: no allocation per member and call. */
struct arena_chunk {
    struct arena_chunk *next;
    size_t used, cap;
    _Alignas(16) char data[];
};

#define ARENA_CHUNK ((size_t)64 << 10)

/* Chunks larger than ARENA_CHUNK (one member's large input: an alltoall of
 * NAS FT copies 64 MiB per rank and call) are kept for the next calls
 * rather than freed: freeing returns their pages to the kernel, and every
 * call would fault them in again (on the development machine 377,000
 * faults in a 2-rank FT class A run, 260,000 of them these copies'). */
#define SPARE_CHUNKS 4
static struct arena_chunk *spare[SPARE_CHUNKS];

/* A kept chunk of at least cap bytes (the smallest such), or NULL. */
static struct arena_chunk *take_spare(size_t cap) {
    int best = -1;
    for (int i = 0; i < SPARE_CHUNKS; i++)
        if (spare[i] && spare[i]->cap >= cap && (best < 0 || spare[i]->cap < spare[best]->cap))
            best = i;
    if (best < 0) return NULL;
    struct arena_chunk *c = spare[best];
    spare[best] = NULL;
    return c;
}

/* Keeps a large chunk in place of the smallest kept one (or an empty
 * place), freeing whichever is left over. */
static void keep_spare(struct arena_chunk *c) {
    int low = 0;
    for (int i = 0; i < SPARE_CHUNKS; i++)
        if (!spare[i] || (spare[low] && spare[i]->cap < spare[low]->cap)) low = i;
    if (spare[low] && spare[low]->cap >= c->cap) {
        free(c);
        return;
    }
    free(spare[low]);
    spare[low] = c;
}

struct slot {
    struct slot *next;
    struct arena_chunk *arena; /* the newest chunk first */
    uint32_t ctx, seq;
    int32_t n, arrived;
    int32_t first; /* the member whose call is s->call */
    bool failed;   /* a member's call differed: nothing is moved */
    char failure[512];
    struct coll_call call; /* kind, root, op, type, count of the first arrival */
    struct member *m;
    int32_t prefix;      /* scans: members 0 .. prefix-1 served */
    char *acc;           /* scans: their running reduction */
    int32_t first_local; /* the first member of this worker to arrive; -1: none yet */
    char func[48];       /* call.func's copy (it may come from another worker) */
};

static struct slot *slots;
static char why[512];
static struct sim *split_sim; /* a split run's simulation, else NULL */
static int32_t failed_owner;  /* arrive()'s error from another worker's member: whom it concerns */

const char *coll_data_error(void) {
    return why;
}

__attribute__((format(printf, 2, 3))) static int mismatch(int code, const char *fmt, ...) {
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(why, sizeof why, fmt, ap);
    va_end(ap);
    return code;
}

static bool rooted(enum coll_data_kind k) {
    return k == CD_BCAST || k == CD_SCATTER || k == CD_GATHER || k == CD_REDUCE;
}

static bool reduction(enum coll_data_kind k);

/* Member me's call against the first member's (what every member must
 * agree on), before it deposits anything. */
static int check_call(const struct slot *s, int32_t me, const struct coll_call *c) {
    const struct coll_call *f = &s->call;
    if (c->kind != f->kind)
        return mismatch(MPI_ERR_OTHER,
                        "rank %d of the communicator called %s where rank %d called %s (the same "
                        "collective call on the communicator)",
                        me, c->func, s->first, f->func);
    if (rooted(c->kind) && c->root != f->root)
        return mismatch(MPI_ERR_ROOT, "rank %d gives root %d where rank %d gives root %d", me,
                        c->root, s->first, f->root);
    if (!reduction(c->kind)) return MPI_SUCCESS;
    bool c_user = c->op_user || op_is_user(c->op), f_user = f->op_user || op_is_user(f->op);
    if (c->op != f->op && !c_user && !f_user)
        return mismatch(MPI_ERR_OP, "rank %d uses operation %d where rank %d uses operation %d", me,
                        c->op, s->first, f->op);
    if (c_user || f_user) { /* datatypes are each rank's own: bytes */
        if (c->count * c->esize == f->count * f->esize) return MPI_SUCCESS;
        return mismatch(MPI_ERR_COUNT, "rank %d reduces %lld bytes where rank %d reduces %lld", me,
                        (long long)(c->count * c->esize), s->first,
                        (long long)(f->count * f->esize));
    }
    if (c->type != f->type)
        return mismatch(MPI_ERR_TYPE, "rank %d reduces datatype %d where rank %d reduces %d", me,
                        c->type, s->first, f->type);
    if (c->count != f->count)
        return mismatch(MPI_ERR_COUNT,
                        "rank %d reduces %lld elements where rank %d reduces %lld (their "
                        "counts must agree)",
                        me, (long long)c->count, s->first, (long long)f->count);
    return MPI_SUCCESS;
}

/* Member to expects `want` bytes from member from, which sends `got`. */
static int check_piece(int32_t from, int32_t to, int64_t got, int64_t want) {
    if (got == want) return MPI_SUCCESS;
    return mismatch(got > want ? MPI_ERR_TRUNCATE : MPI_ERR_COUNT,
                    "rank %d sends %lld bytes to rank %d, which expects %lld (counts and "
                    "datatypes must give the same number of bytes on both sides)",
                    from, (long long)got, to, (long long)want);
}

static struct slot *find_slot(uint32_t ctx, uint32_t seq, int32_t n, const struct coll_call *c,
                              int32_t me) {
    for (struct slot *s = slots; s; s = s->next)
        if (s->ctx == ctx && s->seq == seq) return s;
    struct slot *s = xcalloc(1, sizeof *s);
    s->ctx = ctx;
    s->seq = seq;
    s->n = n;
    s->first = me;
    s->first_local = -1;
    s->call = *c;
    snprintf(s->func, sizeof s->func, "%s", c->func ? c->func : "a collective");
    s->call.func = s->func;
    s->m = xcalloc((size_t)n, sizeof *s->m);
    s->next = slots;
    slots = s;
    return s;
}

static void drop_slot(struct slot *s) {
    for (struct slot **p = &slots; *p; p = &(*p)->next)
        if (*p == s) {
            *p = s->next;
            break;
        }
    while (s->arena) {
        struct arena_chunk *c = s->arena;
        s->arena = c->next;
        if (c->cap > ARENA_CHUNK)
            keep_spare(c);
        else
            free(c);
    }
    free(s->m);
    free(s->acc);
    free(s);
}

/* A copy of n bytes at src in the slot's chunks (16-byte aligned). */
static void *slot_copy(struct slot *s, const void *src, size_t n) {
    size_t need = (n + 15) & ~(size_t)15;
    struct arena_chunk *c = s->arena;
    if (!c || c->cap - c->used < need) {
        size_t cap = need > ARENA_CHUNK ? need : ARENA_CHUNK;
        c = cap > ARENA_CHUNK ? take_spare(cap) : NULL;
        if (!c) {
            c = xmalloc(sizeof *c + cap);
            c->cap = cap;
        }
        c->used = 0;
        c->next = s->arena;
        s->arena = c;
    }
    void *at = c->data + c->used;
    c->used += need;
    return memcpy(at, src, n);
}

static int64_t *copy_array(struct slot *s, const int64_t *a, int32_t n) {
    return a ? slot_copy(s, a, sizeof *a * (size_t)n) : NULL;
}

static void deposit(struct slot *s, struct member *m, const struct coll_call *c, int32_t n) {
    m->in_len = c->in && c->in_len > 0 ? c->in_len : 0;
    if (m->in_len) m->in = slot_copy(s, c->in, (size_t)m->in_len);
    m->in_off = copy_array(s, c->in_off, n);
    m->in_len_to = copy_array(s, c->in_len_to, n);
    m->out = c->out;
    m->owner = c->owner;
    m->op = c->op;
    m->type = c->type;
    m->out_len = c->out_len;
    m->out_off = c->out_off;
    m->out_len_from = c->out_len_from;
    m->arrived = 1;
}

static void copy_piece(void *dst, const void *src, int64_t len) {
    if (len > 0 && dst && src) memcpy(dst, src, (size_t)len);
}

/* Where member m's output really lives now (privatized globals). */
static char *out_of(const struct member *m) {
    return sim_address(simpi_rt->sim, m->owner, m->out);
}

/* The member whose operation and datatype fold member j's contribution:
 * j itself, or for a member of another worker this worker's first (user
 * operations and datatypes are handles of the process that made them). */
static const struct member *op_member(const struct slot *s, int32_t j) {
    return s->m[j].local || s->first_local < 0 ? &s->m[j] : &s->m[s->first_local];
}

/* acc = acc op x (left fold in rank order) with member j's operation; tmp
 * has room for the vector. */
static int fold(const struct slot *s, int32_t j, void *acc, const void *x, void *tmp,
                int64_t bytes) {
    const struct member *m = op_member(s, j);
    memcpy(tmp, x, (size_t)bytes);
    int rc = op_apply(m->op, m->type, acc, tmp, s->call.count);
    memcpy(acc, tmp, (size_t)bytes);
    return rc;
}

/* Whether a member of this worker gets an output (a split run computes
 * nothing for the others'). */
static bool any_local_output(const struct slot *s) {
    for (int32_t j = 0; j < s->n; j++)
        if (s->m[j].local && s->m[j].out) return true;
    return false;
}

/* Reductions, computed once everyone has arrived. */
static int serve_reductions(struct slot *s) {
    const struct coll_call *c = &s->call;
    int64_t bytes = c->count * c->esize;
    if (!any_local_output(s)) return 0;
    char *acc = xmalloc((size_t)bytes + 1), *tmp = xmalloc((size_t)bytes + 1);
    /* the root's operation for a reduce (the others may have left and freed
     * theirs); for the others, every member is still inside the call */
    int rc = 0, by = c->kind == CD_REDUCE ? c->root : s->n - 1;
    const int64_t *counts = NULL; /* reduce_scatter's (the same for every member) */
    for (int32_t j = 0; j < s->n && !counts; j++)
        counts = s->m[j].out_len_from;
    memcpy(acc, s->m[0].in, (size_t)bytes);
    for (int32_t j = 1; j < s->n && rc == 0; j++)
        rc = fold(s, by, acc, s->m[j].in, tmp, bytes);
    if (rc == 0) {
        int64_t esize = c->esize, at = 0;
        for (int32_t j = 0; j < s->n; j++) {
            struct member *m = &s->m[j];
            if (c->kind == CD_REDUCE_SCATTER) {
                const int64_t *cnt = m->out_len_from ? m->out_len_from : counts;
                int64_t len = cnt ? cnt[j] * esize : 0;
                copy_piece(out_of(m), acc + at, len);
                at += len;
            } else {
                copy_piece(out_of(m), acc, bytes);
            }
        }
    }
    free(acc);
    free(tmp);
    return rc;
}

/* Scans: serves every member whose prefix 0..j has arrived (a scan's rank j
 * may complete as soon as ranks 0..j have, before the others arrive). */
static int serve_prefixes(struct slot *s) {
    const struct coll_call *c = &s->call;
    int64_t bytes = c->count * c->esize;
    int rc = 0;
    if (!s->acc) s->acc = xmalloc((size_t)bytes + 1);
    char *tmp = xmalloc((size_t)bytes + 1);
    for (; s->prefix < s->n && s->m[s->prefix].arrived && rc == 0; s->prefix++) {
        int32_t j = s->prefix;
        if (!s->m[j].local && s->first_local < 0 && j > 0)
            break; /* folded with this worker's operation, once one of its members comes */
        if (j == 0) {
            memcpy(s->acc, s->m[0].in, (size_t)bytes);
        } else {
            if (c->kind == CD_EXSCAN) copy_piece(out_of(&s->m[j]), s->acc, bytes); /* 0..j-1 */
            rc = fold(s, j, s->acc, s->m[j].in, tmp, bytes); /* j still waits */
        }
        if (c->kind == CD_SCAN) copy_piece(out_of(&s->m[j]), s->acc, bytes);
    }
    free(tmp);
    return rc;
}

/* Writes member r's output for the data-moving collectives; a piece whose
 * sizes differ on the two sides is not moved (the error is returned). */
static int serve(struct slot *s, int32_t r) {
    struct member copy = s->m[r], *root = &s->m[s->call.root];
    s->m[r].served = 1;
    copy.out = out_of(&s->m[r]);
    struct member *m = &copy;
    int rc = MPI_SUCCESS, bad;
    if (!m->out) return rc;
    switch (s->call.kind) {
    case CD_BCAST:
        if (r == s->call.root) break;
        if (!(rc = check_piece(s->call.root, r, root->in_len, m->out_len)))
            copy_piece(m->out, root->in, root->in_len);
        break;
    case CD_SCATTER:
        if (!root->in_off) break;
        if (!(rc = check_piece(s->call.root, r, root->in_len_to[r], m->out_len)))
            copy_piece(m->out, (char *)root->in + root->in_off[r], root->in_len_to[r]);
        break;
    case CD_GATHER:
    case CD_ALLGATHER:
        for (int32_t j = 0; j < s->n; j++) {
            if ((bad = check_piece(j, r, s->m[j].in_len, m->out_len_from[j]))) {
                rc = rc ? rc : bad;
                continue;
            }
            copy_piece((char *)m->out + m->out_off[j], s->m[j].in, s->m[j].in_len);
        }
        break;
    case CD_ALLTOALL:
        for (int32_t j = 0; j < s->n; j++) {
            int64_t len = s->m[j].in_len_to[r];
            if ((bad = check_piece(j, r, len, m->out_len_from[j]))) {
                rc = rc ? rc : bad;
                continue;
            }
            copy_piece((char *)m->out + m->out_off[j], (char *)s->m[j].in + s->m[j].in_off[r], len);
        }
        break;
    default:
        break;
    }
    return rc;
}

static bool root_only(enum coll_data_kind k) {
    return k == CD_BCAST || k == CD_SCATTER;
}
static bool reduction(enum coll_data_kind k) {
    return k == CD_REDUCE || k == CD_ALLREDUCE || k == CD_SCAN || k == CD_EXSCAN ||
           k == CD_REDUCE_SCATTER;
}

/* Member me's call (of this worker, or another's: local false) on slot
 * (ctx, seq): checked, deposited, and every output that becomes computable
 * written. Returns an MPI error class. */
static int arrive(uint32_t ctx, uint32_t seq, int32_t n, int32_t me, const struct coll_call *c,
                  bool local) {
    why[0] = 0;
    struct slot *s = find_slot(ctx, seq, n, c, me);
    if (me < 0 || me >= s->n || s->m[me].arrived) /* a garbled or repeated arrival */
        return mismatch(MPI_ERR_OTHER, "a split run lost track of collective %u", seq);
    int rc = s->failed ? mismatch(MPI_ERR_OTHER, "%s", s->failure) : check_call(s, me, c);
    if (rc) { /* counted as arrived, so that the slot goes when the others have come */
        if (!s->failed)
            snprintf(s->failure, sizeof s->failure, "%.500s", why); /* as the first reported it */
        s->failed = true;
        s->m[me].arrived = 1;
        /* a member of this worker that came before has left the call already */
        failed_owner = s->first_local >= 0 ? s->m[s->first_local].owner : -1;
        if (++s->arrived == n) drop_slot(s);
        return rc;
    }
    deposit(s, &s->m[me], c, n);
    s->m[me].local = local;
    if (local && s->first_local < 0) s->first_local = me;
    s->arrived++;
    if (s->call.kind == CD_SCAN || s->call.kind == CD_EXSCAN) {
        rc = serve_prefixes(s);
    } else if (root_only(s->call.kind)) {
        if (me == s->call.root) {
            for (int32_t j = 0; j < n; j++)
                if (s->m[j].arrived && !s->m[j].served) {
                    int bad = serve(s, j);
                    rc = rc ? rc : bad;
                }
        } else if (s->m[s->call.root].arrived) {
            rc = serve(s, me);
        }
    } else if (s->arrived == n) {
        if (reduction(s->call.kind))
            rc = serve_reductions(s);
        else
            for (int32_t j = 0; j < n; j++) {
                int bad = serve(s, j);
                rc = rc ? rc : bad;
            }
    }
    failed_owner = rc && s->first_local >= 0 ? s->m[s->first_local].owner : -1;
    if (s->arrived == n) drop_slot(s);
    return rc;
}

/* --- split runs --- */

/* A member's arrival as it crosses to another worker: this header, then
 * (has_in) its input padded to 8, then (has_arrays) its pieces' offsets and
 * lengths, n each. */
struct crossing {
    uint32_t ctx, seq;
    int32_t n, me;
    int32_t kind, root, op, type;
    int64_t count, esize, in_len;
    uint8_t has_in, has_arrays, op_user, pad[5];
    char func[48];
};

/* Whether worker `to` needs member me's input: a broadcast's or scatter's
 * from the root only, a gather's or reduce's at the root's worker only. */
static bool needs_input(const struct coll_call *c, int32_t me, int to, int root_worker) {
    switch (c->kind) {
    case CD_NONE:
        return false;
    case CD_BCAST:
    case CD_SCATTER:
        return me == c->root;
    case CD_GATHER:
    case CD_REDUCE:
        return to == root_worker;
    default:
        return true;
    }
}

/* A scatter's or all-to-all's input as worker `to` needs it: only the
 * pieces of its members (member[j]: member j's worker), packed in member
 * order (*off: their offsets in the packed input, the others' 0). Returns
 * the packed bytes' count. */
static int64_t pack_pieces(const struct coll_call *c, const int *member, int to, int32_t n,
                           char **packed, int64_t *off) {
    int64_t len = 0;
    for (int32_t j = 0; j < n; j++)
        if (member[j] == to) len += c->in_len_to[j];
    *packed = xmalloc((size_t)len + 1);
    int64_t at = 0;
    for (int32_t j = 0; j < n; j++) {
        off[j] = 0;
        if (member[j] != to || c->in_len_to[j] <= 0) continue;
        off[j] = at;
        memcpy(*packed + at, (const char *)c->in + c->in_off[j], (size_t)c->in_len_to[j]);
        at += c->in_len_to[j];
    }
    return len;
}

/* The worker of member j of the caller's communicator. */
static int member_worker(const struct coll_call *c, int32_t j) {
    int32_t world = sim_comm_member(split_sim, c->owner, c->comm, j);
    return world >= 0 ? sim_worker_of(split_sim, world) : -1;
}

/* Member me's arrival, to every other worker with members. */
static void cross(uint32_t ctx, uint32_t seq, int32_t n, int32_t me, const struct coll_call *c) {
    static const char zeros[8];
    const int32_t *list;
    int count = sim_comm_workers(split_sim, c->owner, c->comm, &list);
    if (!count) return;
    int root_worker = c->root >= 0 && c->root < n ? member_worker(c, c->root) : -1;
    struct crossing h = {.ctx = ctx,
                         .seq = seq,
                         .n = n,
                         .me = me,
                         .kind = c->kind,
                         .root = c->root,
                         .op = c->op,
                         .type = c->type,
                         .count = c->count,
                         .esize = c->esize,
                         .op_user = reduction(c->kind) && op_is_user(c->op)};
    snprintf(h.func, sizeof h.func, "%s", c->func ? c->func : "a collective");
    int64_t in_len = c->in && c->in_len > 0 ? c->in_len : 0;
    bool pieces = c->in_off && c->in_len_to; /* a scatter's root, an all-to-all */
    int64_t *off = pieces ? xmalloc(sizeof *off * (size_t)n) : NULL;
    int *member = pieces ? xmalloc(sizeof *member * (size_t)n) : NULL;
    for (int32_t j = 0; pieces && j < n; j++)
        member[j] = member_worker(c, j);
    for (int i = 0; i < count; i++) {
        int to = list[i];
        char *packed = NULL;
        const void *in = c->in;
        h.in_len = 0;
        h.has_in = h.has_arrays = 0;
        bool needed = needs_input(c, me, to, root_worker);
        if (needed && pieces) { /* the pieces' lengths go even when all are empty */
            h.has_arrays = 1;
            h.in_len = pack_pieces(c, member, to, n, &packed, off);
            in = packed;
        } else if (needed) {
            h.in_len = in_len;
        }
        h.has_in = h.in_len > 0;
        size_t arrays = h.has_arrays ? sizeof(int64_t) * (size_t)n : 0;
        if (sizeof h + (size_t)h.in_len + 2 * arrays > UINT32_MAX - 64) {
            split_sim = NULL; /* not again */
            runtime_abort_status(1,
                                 "%s: a member's input of %lld bytes is over the 4 GiB a split "
                                 "run carries between workers; run without --procs",
                                 h.func, (long long)h.in_len);
        }
        struct sim_piece msg[] = {{&h, sizeof h},
                                  {in, h.has_in ? (size_t)h.in_len : 0},
                                  {zeros, (8 - (size_t)h.in_len % 8) % 8},
                                  {off, arrays},
                                  {c->in_len_to, arrays}};
        runtime_post_front(FRONT_COLL_DATA, to, msg, 5);
        free(packed);
    }
    free(off);
    free(member);
}

void coll_data_split(struct sim *s) {
    split_sim = s && sim_worker_count(s) > 1 ? s : NULL;
}

void coll_data_take(const void *msg, uint32_t len) {
    struct crossing h;
    if (len < sizeof h) return;
    memcpy(&h, msg, sizeof h);
    const char *at = (const char *)msg + sizeof h;
    size_t in_pad = h.has_in ? ((size_t)h.in_len + 7) & ~(size_t)7 : 0;
    size_t arrays = h.has_arrays ? 2 * sizeof(int64_t) * (size_t)h.n : 0;
    if (h.n <= 0 || h.in_len < 0 || sizeof h + in_pad + arrays > len) return;
    h.func[sizeof h.func - 1] = 0;
    int64_t *pieces = arrays ? xmalloc(arrays) : NULL; /* aligned copies */
    if (arrays) memcpy(pieces, at + in_pad, arrays);
    struct coll_call c = {.func = h.func,
                          .kind = (enum coll_data_kind)h.kind,
                          .root = h.root,
                          .op = h.op,
                          .type = h.type,
                          .count = h.count,
                          .esize = h.esize,
                          .in = h.has_in ? at : NULL,
                          .in_len = h.has_in ? h.in_len : 0,
                          .in_off = pieces,
                          .in_len_to = pieces ? pieces + h.n : NULL,
                          .owner = -1,
                          .op_user = h.op_user};
    /* the members' calls differ: reported here when a member of this worker
     * has its output moved by this arrival (else by the member's worker) */
    if (arrive(h.ctx, h.seq, h.n, h.me, &c, false) && failed_owner >= 0)
        runtime_fail_rank(failed_owner, "%s: %s (found as rank %d of the communicator arrived)",
                          h.func, why, h.me);
    free(pieces);
}

int coll_data_arrive(uint32_t ctx, uint32_t seq, int32_t n, int32_t me, const struct coll_call *c) {
    if (split_sim) cross(ctx, seq, n, me, c);
    return arrive(ctx, seq, n, me, c, true);
}
