/* Rendezvous slots for collective data (see coll_data.h). */
#include "online/coll_data.h"

#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/pool.h"
#include "mpi.h"
#include "mpi/sim.h"
#include "online/datatype/predefined.h"

struct member {
    void *in; /* copy of the input */
    int64_t in_len;
    int64_t *in_off, *in_len_to; /* copies */
    void *out;
    const int64_t *out_off, *out_len_from;
    int32_t owner; /* world rank, for privatized globals */
    int op;        /* its reduction operation (user operations are per rank) */
    int64_t out_len;
    uint8_t arrived, served;
};

struct slot {
    struct slot *next;
    uint32_t ctx, seq;
    int32_t n, arrived;
    int32_t first; /* the member whose call is s->call */
    bool failed;   /* a member's call differed: nothing is moved */
    char failure[512];
    struct coll_call call; /* kind, root, op, type, count of the first arrival */
    struct member *m;
    int32_t prefix; /* scans: members 0 .. prefix-1 served */
    char *acc;      /* scans: their running reduction */
};

static struct slot *slots;
static char why[512];

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
    if (c->op != f->op && !op_is_user(c->op) && !op_is_user(f->op))
        return mismatch(MPI_ERR_OP, "rank %d uses operation %d where rank %d uses operation %d", me,
                        c->op, s->first, f->op);
    if (op_is_user(c->op) || op_is_user(f->op)) { /* datatypes are each rank's own: bytes */
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
    s->call = *c;
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
    for (int32_t i = 0; i < s->n; i++) {
        free(s->m[i].in);
        free(s->m[i].in_off);
        free(s->m[i].in_len_to);
    }
    free(s->m);
    free(s->acc);
    free(s);
}

static int64_t *copy_array(const int64_t *a, int32_t n) {
    if (!a) return NULL;
    int64_t *c = xmalloc(sizeof *c * (size_t)n);
    memcpy(c, a, sizeof *c * (size_t)n);
    return c;
}

static void deposit(struct member *m, const struct coll_call *c, int32_t n) {
    m->in_len = c->in && c->in_len > 0 ? c->in_len : 0;
    if (m->in_len) {
        m->in = xmalloc((size_t)m->in_len);
        memcpy(m->in, c->in, (size_t)m->in_len);
    }
    m->in_off = copy_array(c->in_off, n);
    m->in_len_to = copy_array(c->in_len_to, n);
    m->out = c->out;
    m->owner = c->owner;
    m->op = c->op;
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
    return sim_address_hook && m->out ? sim_address_hook(m->owner, m->out) : m->out;
}

/* acc = acc op x (left fold in rank order); tmp has room for the vector. */
static int fold(const struct coll_call *c, int op, void *acc, const void *x, void *tmp,
                int64_t bytes) {
    memcpy(tmp, x, (size_t)bytes);
    int rc = op_apply(op, c->type, acc, tmp, c->count);
    memcpy(acc, tmp, (size_t)bytes);
    return rc;
}

/* Reductions, computed once everyone has arrived. */
static int serve_reductions(struct slot *s) {
    const struct coll_call *c = &s->call;
    int64_t bytes = c->count * c->esize;
    char *acc = xmalloc((size_t)bytes + 1), *tmp = xmalloc((size_t)bytes + 1);
    /* the root's operation for a reduce (the others may have left and freed
     * theirs); for the others, every member is still inside the call */
    int rc = 0, op = c->kind == CD_REDUCE ? s->m[c->root].op : s->m[s->n - 1].op;
    memcpy(acc, s->m[0].in, (size_t)bytes);
    for (int32_t j = 1; j < s->n && rc == 0; j++)
        rc = fold(c, op, acc, s->m[j].in, tmp, bytes);
    if (rc == 0) {
        int64_t esize = c->esize, at = 0;
        for (int32_t j = 0; j < s->n; j++) {
            struct member *m = &s->m[j];
            if (c->kind == CD_REDUCE_SCATTER) {
                int64_t len = m->out_len_from ? m->out_len_from[j] * esize : 0;
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
        if (j == 0) {
            memcpy(s->acc, s->m[0].in, (size_t)bytes);
        } else {
            if (c->kind == CD_EXSCAN) copy_piece(out_of(&s->m[j]), s->acc, bytes); /* 0..j-1 */
            rc = fold(c, s->m[j].op, s->acc, s->m[j].in, tmp, bytes); /* j still waits */
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

int coll_data_arrive(uint32_t ctx, uint32_t seq, int32_t n, int32_t me, const struct coll_call *c) {
    why[0] = 0;
    struct slot *s = find_slot(ctx, seq, n, c, me);
    int rc = s->failed ? mismatch(MPI_ERR_OTHER, "%s", s->failure) : check_call(s, me, c);
    if (rc) { /* counted as arrived, so that the slot goes when the others have come */
        if (!s->failed)
            snprintf(s->failure, sizeof s->failure, "the members' calls differ: %.480s", why);
        s->failed = true;
        s->m[me].arrived = 1;
        if (++s->arrived == n) drop_slot(s);
        return rc;
    }
    deposit(&s->m[me], c, n);
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
    if (s->arrived == n) drop_slot(s);
    return rc;
}
