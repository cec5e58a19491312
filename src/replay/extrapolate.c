/* SPDX-License-Identifier: BSD-3-Clause */
/* Extrapolating a trace to a larger scale (extrapolate.h): the scales are
 * read whole (bursts joined, a 0 burst before every call), a grid layout
 * is found under which every rank of one position follows one template,
 * positions that do the same are joined in classes, each size is fitted
 * as a law of P or of the grid's extents, a rank's computation as the
 * program's typical law times its class's level, and each rank of the
 * target's grid is generated from its class's template, record by record
 * as it is asked for (extrapolator_next) or into a file. */
#include "replay/extrapolate.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "core/alloc.h"
#include "core/log.h"
#include "replay/extrapolate_align.h"
#include "replay/extrapolate_fold.h"
#include "replay/trace.h"
#include "replay/trace_write.h"

enum { MAX_SCALES = 16, MAX_DIMS = 3, OFFSET_BITS = 4, OFFSET_MAX = 7 };

/* One trace: each rank's records, copied out of the reader. */
struct scale {
    const char *path;
    int32_t n;
    struct trace_reader *t;
    struct trace_rec **rec; /* per rank */
    int32_t *count;
    int32_t **ord;      /* each record's number in the rank's trace (messages) */
    int32_t *recorded;  /* the records each rank's trace has */
    struct step **step; /* each record's loop (extrapolate_fold.h) */
    int folded;         /* ranks with a loop folded (-1: loops not folded) */
    /* sends whose sizes differ rank to rank, or repetition to repetition,
     * taken as their mean (receives then take any size); the farthest
     * repetition's relative distance from its loop's mean, and where */
    bool banded;
    double size_spread;
    int32_t size_worst_rank, size_worst_ord;
};

/* How ranks sit on the grid. */
struct layout {
    int ndims;
    bool reversed; /* dims in increasing order (the fast dimension the largest) */
    bool periodic;
    /* ranks laid out by recursive bisection (miniFE's box_partition): the
     * ranks' lower half takes the lower half of dimension 0, each half
     * then splits dimension 1, and so on round the dimensions; 2^k ranks
     * only, on the grid MPI_Dims_create gives (a Morton order) */
    bool bisected;
};

static void dims_create(int32_t n, int ndims, int32_t *dims) {
    for (int i = 0; i < ndims; i++)
        dims[i] = 1;
    int32_t primes[64], np = 0, rest = n;
    for (int32_t p = 2; rest > 1 && np < 64;) {
        if (rest % p == 0) {
            primes[np++] = p;
            rest /= p;
        } else {
            p = (int64_t)p * p > rest ? rest : p + 1;
        }
    }
    for (int k = np - 1; k >= 0; k--) { /* largest first, to the smallest dimension */
        int small = 0;
        for (int i = 1; i < ndims; i++)
            if (dims[i] < dims[small]) small = i;
        dims[small] *= primes[k];
    }
    for (int i = 0; i < ndims; i++) /* non-increasing, as MPI_Dims_create */
        for (int j = i + 1; j < ndims; j++)
            if (dims[j] > dims[i]) {
                int32_t t = dims[i];
                dims[i] = dims[j];
                dims[j] = t;
            }
}

static void layout_dims(const struct layout *l, int32_t n, int32_t *dims) {
    dims_create(n, l->ndims, dims);
    if (l->reversed)
        for (int i = 0; i < l->ndims / 2; i++) {
            int32_t t = dims[i];
            dims[i] = dims[l->ndims - 1 - i];
            dims[l->ndims - 1 - i] = t;
        }
}

/* log2 of n's rank count, the bisections (the dims' product a power of 2). */
static int bisections(int ndims, const int32_t *dims) {
    int k = 0;
    for (int i = 0; i < ndims; i++)
        for (int32_t d = dims[i]; d > 1; d >>= 1)
            k++;
    return k;
}

/* Coordinates of r: row-major, the last dimension fastest
 * (MPI_Cart_create), or r's bits from the highest dealt round the
 * dimensions, each a coordinate's next bit (recursive bisection). */
static void coords_of(const struct layout *l, const int32_t *dims, int32_t r, int32_t *c) {
    if (l->bisected) {
        int k = bisections(l->ndims, dims), taken[MAX_DIMS] = {0};
        for (int i = 0; i < l->ndims; i++)
            c[i] = 0;
        for (int s = 0, i = 0; s < k; s++, i = (i + 1) % l->ndims) {
            while ((1 << taken[i]) >= dims[i])
                i = (i + 1) % l->ndims;
            c[i] = c[i] << 1 | ((r >> (k - 1 - s)) & 1);
            taken[i]++;
        }
        return;
    }
    for (int i = l->ndims - 1; i >= 0; i--) {
        c[i] = r % dims[i];
        r /= dims[i];
    }
}

static int32_t rank_at(const struct layout *l, const int32_t *dims, const int32_t *c) {
    int32_t r = 0;
    if (l->bisected) {
        int k = bisections(l->ndims, dims), taken[MAX_DIMS] = {0}, bits[MAX_DIMS];
        for (int i = 0; i < l->ndims; i++)
            bits[i] = bisections(1, &dims[i]);
        for (int s = 0, i = 0; s < k; s++, i = (i + 1) % l->ndims) {
            while (taken[i] >= bits[i])
                i = (i + 1) % l->ndims;
            r = r << 1 | ((c[i] >> (bits[i] - 1 - taken[i]++)) & 1);
        }
        return r;
    }
    for (int i = 0; i < l->ndims; i++)
        r = r * dims[i] + c[i];
    return r;
}

/* A peer as an offset on the grid: a code above 0 (negative peers, any
 * source, stay as they are); 0 if the offset is too far to be one. */
static int32_t peer_code(const struct layout *l, const int32_t *dims, int32_t r, int32_t q) {
    if (q < 0) return q;
    int32_t a[MAX_DIMS], b[MAX_DIMS], code = 0;
    coords_of(l, dims, r, a);
    coords_of(l, dims, q, b);
    for (int i = 0; i < l->ndims; i++) {
        int32_t o = b[i] - a[i];
        if (l->periodic && o > dims[i] / 2) o -= dims[i];
        if (l->periodic && o < -(dims[i] - 1) / 2) o += dims[i];
        if (o > OFFSET_MAX || o < -OFFSET_MAX) return 0;
        code |= (o + OFFSET_MAX + 1) << (OFFSET_BITS * i);
    }
    return code + 1;
}

/* The rank at the offset coded from r, or -1 off a grid that does not wrap. */
static int32_t peer_of(const struct layout *l, const int32_t *dims, int32_t r, int32_t code) {
    if (code < 0) return code;
    int32_t c[MAX_DIMS];
    coords_of(l, dims, r, c);
    code--;
    for (int i = 0; i < l->ndims; i++) {
        int32_t o = ((code >> (OFFSET_BITS * i)) & ((1 << OFFSET_BITS) - 1)) - OFFSET_MAX - 1;
        c[i] += o;
        if (l->periodic) c[i] = ((c[i] % dims[i]) + dims[i]) % dims[i];
        if (c[i] < 0 || c[i] >= dims[i]) return -1;
    }
    return rank_at(l, dims, c);
}

/* How a peer is a function of the rank: an offset on the grid, the rank
 * XOR a power of two (recursive halving and doubling; in a folded loop
 * the power steps), the transposed place on a 2-D grid (NPB CG), or a
 * rank of its own, counted from the first or the last (a master, rank 0;
 * in a folded loop the rank steps: a master's loop over the workers). A
 * record's peer follows the kinds that hold for every rank of its class
 * at every scale, the first of them chosen. */
enum {
    KIND_OFFSET = 1,
    KIND_XOR = 2,
    KIND_TRANSPOSE = 4,
    KIND_RANK = 8,
    KINDS_ALL = 15,
    NKINDS = 4
};
enum {
    CODE_XOR = 1 << 20,
    CODE_TRANSPOSE = 2 << 20,
    CODE_RANK = 3 << 20,
    CODE_FROM_END = 1 << 19,
    XOR_BIAS = 64
};

/* Rank v of n as a code: from the first rank or from the last, whichever
 * is nearer (0 is the first at every scale, n - 1 the last). */
static int32_t rank_code(int32_t v, int32_t n) {
    if (v < 0 || v >= n || n >= CODE_FROM_END) return 0;
    return v < n - 1 - v ? CODE_RANK | (v + 1) : CODE_RANK | CODE_FROM_END | (n - v);
}

static int32_t rank_of_code(int32_t code, int32_t n) {
    int32_t v = code & (CODE_FROM_END - 1);
    return code & CODE_FROM_END ? n - v : v - 1;
}

static int32_t grid_ranks(const struct layout *l, const int32_t *dims) {
    int32_t n = 1;
    for (int i = 0; i < l->ndims; i++)
        n *= dims[i];
    return n;
}

/* The place of r on a 2-D grid transposed (d0 x d1 with d1 = k d0: row
 * and column exchanged, k columns a block; d0 = k d1 the converse), -1
 * on any other grid. */
static int32_t transpose_of(const struct layout *l, const int32_t *dims, int32_t r) {
    if (l->ndims != 2) return -1;
    int32_t c[2], t[2];
    coords_of(l, dims, r, c);
    if (dims[1] % dims[0] == 0) {
        int32_t k = dims[1] / dims[0];
        t[0] = c[1] / k;
        t[1] = k * c[0] + c[1] % k;
    } else if (dims[0] % dims[1] == 0) {
        int32_t k = dims[0] / dims[1];
        t[0] = k * c[1] + c[0] % k;
        t[1] = c[0] / k;
    } else {
        return -1;
    }
    return rank_at(l, dims, t);
}

/* Peer q of rank r as a code of one kind (0: not of that kind); st and
 * field k: the record's loop, whose XOR exponent is coded as its base. */
static int32_t kind_code(const struct layout *l, const int32_t *dims, int32_t r, int32_t q,
                         unsigned kind, const struct step *st, int k) {
    if (q < 0) return q;
    int dir = st ? st->peer_dir[k] : 0;
    bool stepping = dir != 0, by_rank = dir == PEER_RANK_STEP || dir == -PEER_RANK_STEP;
    if (kind == KIND_OFFSET) return stepping ? 0 : peer_code(l, dims, r, q);
    if (kind == KIND_TRANSPOSE)
        return !stepping && q == transpose_of(l, dims, r) ? CODE_TRANSPOSE : 0;
    if (kind == KIND_RANK) /* (a loop's lowest rank, where it steps down) */
        return stepping && !by_rank
                   ? 0
                   : rank_code(q - (dir < 0 ? st->iters - 1 : 0), grid_ranks(l, dims));
    if (by_rank) return 0;
    int e = xor_exponent(r, q);
    if (e < 0) return 0;
    int32_t base = e - (st && st->peer_dir[k] < 0 ? st->iters - 1 : 0);
    return base + XOR_BIAS >= 0 && base < 32 ? CODE_XOR | (base + XOR_BIAS) : 0;
}

/* The rank a code of one kind names from r at iteration t of iters of its
 * loop (dir: its XOR exponent's step); -1 off the grid. */
static int32_t kind_peer(const struct layout *l, const int32_t *dims, int32_t n, int32_t r,
                         int32_t code, unsigned kind, int dir, int32_t t, int32_t iters) {
    if (code < 0) return code;
    if (kind == KIND_OFFSET) return peer_of(l, dims, r, code);
    if (kind == KIND_TRANSPOSE) return transpose_of(l, dims, r);
    if (kind == KIND_RANK) {
        int32_t q = stepped(rank_of_code(code, n), dir, t, iters);
        return q >= 0 && q < n ? q : -1;
    }
    int32_t e = stepped((code & (CODE_XOR - 1)) - XOR_BIAS, dir, t, iters);
    if (e < 0 || e > 30) return -1;
    int64_t q = (int64_t)r ^ ((int64_t)1 << e);
    return q < n ? (int32_t)q : -1;
}

/* A rank's position: for each dimension whether it is at the low end, at
 * the high end (both on a dimension of 1); one position on a torus. */
static int position_of(const struct layout *l, const int32_t *dims, int32_t r) {
    if (l->periodic) return 0;
    int32_t c[MAX_DIMS];
    coords_of(l, dims, r, c);
    int p = 0;
    for (int i = 0; i < l->ndims; i++)
        p |= ((c[i] == 0) | (c[i] == dims[i] - 1) << 1) << (2 * i);
    return p;
}

/* How many of a record's peer fields name a peer: peer, and peer2 for a
 * sendrecv (the others are not peers: a collective's root stays). */
static int peers_of(const struct trace_rec *r) {
    switch (r->op) {
    case TOP_SENDRECV:
        return 2;
    case TOP_SEND:
    case TOP_ISEND:
    case TOP_RECV:
    case TOP_IRECV:
    case TOP_ROUND_TRIP:
        return 1;
    default:
        return 0;
    }
}

/* Record r's peer field k as a code of one kind (the field as it is if
 * not a peer); st: its loop. */
static int32_t code_of(const struct layout *l, const int32_t *dims, int32_t rank,
                       const struct trace_rec *r, int k, unsigned kind, const struct step *st) {
    int32_t q = k ? r->peer2 : r->peer;
    return peers_of(r) > k ? kind_code(l, dims, rank, q, kind, st, k) : -1 - q - 1000000;
}

/* The kinds under which field k of records a (of rank ra on grid da) and
 * b (rb on db) name the same peer. */
static unsigned same_kinds(const struct layout *l, const int32_t *da, int32_t ra,
                           const struct trace_rec *a, const struct step *sa, const int32_t *db,
                           int32_t rb, const struct trace_rec *b, const struct step *sb, int k) {
    unsigned ok = 0;
    for (unsigned kind = 1; kind < 1u << NKINDS; kind <<= 1) {
        int32_t x = code_of(l, da, ra, a, k, kind, sa), y = code_of(l, db, rb, b, k, kind, sb);
        ok |= x == y && x != 0 ? kind : 0;
    }
    return ok;
}

/* Whether two records' loops are the same (their iterations may differ
 * across scales, where one is not a loop). */
static bool same_loop(const struct step *a, const struct step *b, bool same_scale) {
    if (same_scale && a->iters != b->iters) return false;
    if (a->iters < 2 || b->iters < 2) return true;
    return a->len == b->len && a->tag_dir == b->tag_dir && a->req_dir == b->req_dir &&
           a->peer_dir[0] == b->peer_dir[0] && a->peer_dir[1] == b->peer_dir[1];
}

/* What a split's color or key is, for the ranks of one position: a bit
 * per reading that holds for every one of them. */
enum { ATTR_LITERAL = 1, ATTR_RANK = 2, ATTR_COORD = 4 /* << dimension */ };

/* The readings of value v at rank r (lit: the literal seen first). */
static unsigned readings(const struct layout *l, const int32_t *dims, int32_t r, int32_t v,
                         int32_t lit) {
    int32_t c[MAX_DIMS];
    coords_of(l, dims, r, c);
    unsigned m = (v == lit ? ATTR_LITERAL : 0) | (v == r ? ATTR_RANK : 0);
    for (int i = 0; i < l->ndims; i++)
        m |= v == c[i] ? ATTR_COORD << i : 0;
    return m;
}

/* The value of a reading at rank r. */
static int32_t reading_at(const struct layout *l, const int32_t *dims, int32_t r, unsigned m,
                          int32_t lit) {
    int32_t c[MAX_DIMS];
    coords_of(l, dims, r, c);
    for (int i = 0; i < l->ndims; i++) /* a coordinate first, then the rank, then the literal */
        if (m & (ATTR_COORD << i)) return c[i];
    return m & ATTR_RANK ? r : lit;
}

/* Whether two records are the same but for their peers and numbers. */
static bool same_shape(const struct trace_rec *a, const struct trace_rec *b) {
    if (a->op == TOP_COMPUTE && b->op == TOP_COMPUTE) return true; /* (its size: a burst) */
    if (a->op != b->op || a->mode != b->mode || a->coll != b->coll || a->tag != b->tag ||
        a->tag2 != b->tag2 || a->req != b->req || a->comm != b->comm || a->root != b->root ||
        a->nids != b->nids || (a->nids && memcmp(a->ids, b->ids, sizeof *a->ids * a->nids)))
        return false;
    return a->newcomm == b->newcomm; /* a split's color and key: split_attrs */
}

static const char *op_word(const struct trace_rec *r) {
    static const char *const words[] = {
        "compute",    "compute",    "send",           "isend",         "recv",
        "irecv",      "sendrecv",   "wait",           "waitall",       "waitany",
        "test",       "wait",       "test",           "buffer_attach", "buffer_detach",
        "collective", "collective", "comm_split",     "comm_dup",      "comm_self",
        "cancel",     "free",       "interval_begin", "interval_end",  "file_io",
        "round_trip", "rma",        "rma_sync"};
    return r->op < sizeof words / sizeof *words ? words[r->op] : "record";
}

/* Whether rank r of scale s follows rank ref's record for record (peers
 * of the kinds still in kinds, two a record, which keeps those that hold);
 * false with why. */
static bool same_template(const struct scale *s, const struct layout *l, const int32_t *dims,
                          int32_t ref, int32_t r, uint8_t *kinds, struct sim_error *err) {
    for (int32_t j = 0; s->count[r] != s->count[ref] && j < s->count[r] && j < s->count[ref]; j++)
        if (s->step[r][j].iters != s->step[ref][j].iters) {
            const struct trace_rec *b = &s->rec[r][j];
            return err_set(err,
                           "%s: rank %d, record %d (%s, line %d): runs %d time(s) a stepped "
                           "loop that rank %d, at the same position on a %d-D grid, runs %d "
                           "time(s)",
                           s->path, r, s->ord[r][j], op_word(b), b->line, s->step[r][j].iters, ref,
                           l->ndims, s->step[ref][j].iters);
        }
    if (s->count[r] != s->count[ref])
        return err_set(err,
                       "%s: rank %d has %d records where rank %d, at the same position on a "
                       "%d-D grid, has %d: no law gives both",
                       s->path, r, s->recorded[r], ref, l->ndims, s->recorded[ref]);
    for (int32_t j = 0; j < s->count[r]; j++) {
        const struct trace_rec *a = &s->rec[ref][j], *b = &s->rec[r][j];
        const struct step *sa = &s->step[ref][j], *sb = &s->step[r][j];
        bool peers = same_loop(sa, sb, true);
        for (int k = 0; k < peers_of(a) && peers; k++)
            peers =
                (kinds[2 * j + k] &= (uint8_t)same_kinds(l, dims, ref, a, sa, dims, r, b, sb, k));
        /* measured, or the data's: each rank's a little different */
        bool burst = a->op == TOP_COMPUTE || has_counts(a) || (s->banded && sends_size(a));
        if (!same_shape(a, b) || !peers ||
            (!burst && (a->size != b->size || a->size2 != b->size2 || a->flops != b->flops)))
            return err_set(err,
                           "%s: rank %d, record %d (%s, line %d): not what rank %d, at the same "
                           "position on a %d-D grid, does there (peers as offsets on the grid, "
                           "XOR partners, transposes or ranks of their own, sizes equal%s)",
                           s->path, r, s->ord[r][j], op_word(b), b->line, ref, l->ndims,
                           s->banded ? " but for a send's" : "");
    }
    return true;
}

/* The representative rank of each position of scale s (-1 none); false
 * with why when a rank does not follow its position's. */
static bool find_templates(const struct scale *s, const struct layout *l, int32_t *rep,
                           uint8_t **kinds, struct sim_error *err) {
    int32_t dims[MAX_DIMS];
    layout_dims(l, s->n, dims);
    for (int p = 0; p < 64; p++)
        rep[p] = -1;
    for (int32_t r = 0; r < s->n; r++) {
        int p = position_of(l, dims, r);
        if (rep[p] < 0)
            rep[p] = r;
        else if (!same_template(s, l, dims, rep[p], r, kinds[p], err))
            return false;
    }
    return true;
}

static bool world_like(const int32_t *worlds, int n, int32_t comm) {
    for (int i = 0; i < n; i++)
        if (worlds[i] == comm) return true;
    return false;
}

/* A place for one more record of rank r (its number in the trace: ord). */
static struct trace_rec *append(struct scale *s, int32_t r, int32_t *cap, int32_t ord) {
    if (s->count[r] == *cap) {
        *cap = *cap ? 2 * *cap : 64;
        s->rec[r] = xrealloc_or_die(s->rec[r], sizeof **s->rec * (size_t)*cap);
        s->ord[r] = xrealloc_or_die(s->ord[r], sizeof **s->ord * (size_t)*cap);
        s->step[r] = xrealloc_or_die(s->step[r], sizeof **s->step * (size_t)*cap);
    }
    s->step[r][s->count[r]] = (struct step){.iters = 1};
    s->ord[r][s->count[r]] = ord;
    return &s->rec[r][s->count[r]++];
}

/* Record i of rank r of scale s, a variable-count collective (x, as
 * read): its counts kept as their mean per peer, sent and received, and
 * the farthest one from its mean (relative). */
static void note_counts(struct scale *s, int32_t r, int32_t i, const struct trace_rec *x) {
    struct step *st = &s->step[r][i];
    for (int side = 0; side < 2; side++) {
        if (!(x->mode & (1 << side)) || x->ncounts <= 0) continue;
        const int64_t *c = x->counts + side * x->ncounts;
        double sum = 0, far = 0;
        for (int32_t q = 0; q < x->ncounts; q++)
            sum += (double)c[q];
        double mean = sum / x->ncounts;
        for (int32_t q = 0; q < x->ncounts && mean > 0; q++)
            far = fmax(far, fabs((double)c[q] - mean) / mean);
        *(side ? &st->received : &st->sent) = (float)mean;
        st->spread[side] = (float)far;
    }
}

/* A communicator split from a world-like one that may be the world again
 * (NPB BT's and SP's: every rank active, color 1, key its rank): it is
 * if every rank of the scale makes it with one color and keys that keep
 * the ranks' order. Checked rank after rank as the scale is loaded. */
struct world_split {
    int32_t id, color, last_key, members, parent; /* parent: a dup's (-1: none) */
    bool ok;
    int32_t use_rank, use_ord, use_line; /* the first point-to-point call on it */
    const char *use_op;
};

struct world_splits {
    struct world_split w[64];
    int n;
};

static struct world_split *world_split_of(struct world_splits *ws, int32_t id) {
    for (int i = 0; i < ws->n; i++)
        if (ws->w[i].id == id) return &ws->w[i];
    return NULL;
}

/* Notes rank r's record x in ws: a split of a world-like communicator,
 * a duplicate of one noted, a point-to-point call on one. */
static void note_world_split(struct world_splits *ws, const struct trace_rec *x, int32_t r,
                             int32_t ord, int32_t *worlds, int32_t *nworlds) {
    bool split = x->op == TOP_COMM_SPLIT && x->color != SIM_UNDEFINED;
    struct world_split *w =
        world_split_of(ws, split || x->op == TOP_COMM_DUP ? x->newcomm : x->comm);
    if ((split || (x->op == TOP_COMM_DUP && world_split_of(ws, x->comm))) &&
        world_like(worlds, *nworlds, x->comm) && *nworlds < 64) {
        worlds[(*nworlds)++] = x->newcomm;
        if (!w && ws->n < 64) {
            w = &ws->w[ws->n++];
            *w = (struct world_split){.id = x->newcomm,
                                      .color = x->color,
                                      .last_key = x->key,
                                      .ok = true,
                                      .parent = -1,
                                      .use_rank = -1};
            if (!split) w->parent = (int32_t)(world_split_of(ws, x->comm) - ws->w);
        }
        if (!w) return;
        w->members++;
        if (split) w->ok = w->ok && x->color == w->color && x->key >= w->last_key;
        if (split) w->last_key = x->key;
    } else if (w && peers_of(x) && w->use_rank < 0) {
        w->use_rank = r;
        w->use_ord = ord;
        w->use_line = x->line;
        w->use_op = op_word(x);
    }
}

/* The first point-to-point call on a split noted in ws that is not the
 * world after all (its ranks not every rank of n, in their order); false
 * with why. */
static bool world_splits_hold(const struct world_splits *ws, const char *path, int32_t n,
                              struct sim_error *err) {
    for (int i = 0; i < ws->n; i++) {
        const struct world_split *w = &ws->w[i];
        bool ok = w->ok && w->members == n;
        for (int32_t p = w->parent; ok && p >= 0; p = ws->w[p].parent)
            ok = ws->w[p].ok && ws->w[p].members == n;
        if (!ok && w->use_rank >= 0)
            return err_set(err,
                           "%s: rank %d, record %d (%s, line %d): point-to-point calls on a "
                           "communicator split from the world are not extrapolated yet (its "
                           "ranks are not all the world's in their order)",
                           path, w->use_rank, w->use_ord, w->use_op, w->use_line);
    }
    return true;
}

/* Why record x of rank r is not extended (NULL: it is); worlds: the
 * world, its duplicates and the splits that may be it (world_split). */
static const char *not_extended(const struct trace_rec *x, int32_t *worlds, int32_t *nworlds) {
    if (x->op == TOP_COMM_DUP && world_like(worlds, *nworlds, x->comm) && *nworlds < 64 &&
        !world_like(worlds, *nworlds, x->newcomm))
        worlds[(*nworlds)++] = x->newcomm;
    return x->op == TOP_RMA || x->op == TOP_RMA_SYNC ? "one-sided calls"
           : peers_of(x) && !world_like(worlds, *nworlds, x->comm)
               ? "point-to-point calls on a communicator split from the world"
               : NULL;
}

/* Loads the trace at path, each rank's records copied out: consecutive
 * bursts as one (the recording cuts a burst where a timer is read), and a
 * burst, 0 where none was recorded, before every other record and at the
 * end (one too short to measure on one rank or in one recording, not in
 * another). */
static bool load(struct scale *s, const char *path, bool banded, struct sim_error *err) {
    s->path = path;
    s->banded = banded;
    if (!(s->t = trace_open(path, err))) return false;
    s->n = trace_ranks(s->t);
    s->rec = xcalloc((size_t)s->n, sizeof *s->rec);
    s->ord = xcalloc((size_t)s->n, sizeof *s->ord);
    s->count = xcalloc((size_t)s->n, sizeof *s->count);
    s->recorded = xcalloc((size_t)s->n, sizeof *s->recorded);
    s->step = xcalloc((size_t)s->n, sizeof *s->step);
    struct world_splits *ws = xcalloc(1, sizeof *ws);
    bool ok = true;
    for (int32_t r = 0; r < s->n && ok; r++) {
        int32_t cap = 0, worlds[64] = {0}, nworlds = 1;
        struct trace_rec *x;
        while ((x = trace_next(s->t, r, err))) {
            int32_t ord = ++s->recorded[r];
            note_world_split(ws, x, r, ord, worlds, &nworlds);
            const char *why = not_extended(x, worlds, &nworlds);
            if (why) {
                err_set(err, "%s: rank %d, record %d (%s, line %d): %s are not extrapolated yet",
                        path, r, ord, op_word(x), x->line, why);
                trace_release(s->t, x);
                ok = false;
                break;
            }
            struct trace_rec *last = s->count[r] ? &s->rec[r][s->count[r] - 1] : NULL;
            if (x->op == TOP_COMPUTE && last && last->op == TOP_COMPUTE) {
                last->size += x->size;
                last->flops += x->flops;
                trace_release(s->t, x);
                continue;
            }
            if (x->op != TOP_COMPUTE && (!last || last->op != TOP_COMPUTE))
                *append(s, r, &cap, ord) =
                    (struct trace_rec){.op = TOP_COMPUTE, .rank = r, .line = x->line};
            struct trace_rec *c = append(s, r, &cap, ord);
            *c = *x;
            c->next = NULL;
            c->ids = x->nids ? xmalloc(sizeof *c->ids * (size_t)x->nids) : NULL;
            c->counts = NULL; /* kept as their means (note_counts) */
            if (x->counts) note_counts(s, r, s->count[r] - 1, x);
            if (banded && (x->op == TOP_RECV || x->op == TOP_IRECV)) c->size = -1; /* any */
            if (x->nids) memcpy(c->ids, x->ids, sizeof *c->ids * (size_t)x->nids);
            trace_release(s->t, x);
        }
        ok = ok && !err->set;
        if (!s->count[r] || s->rec[r][s->count[r] - 1].op != TOP_COMPUTE) /* and one last */
            *append(s, r, &cap, s->recorded[r]) =
                (struct trace_rec){.op = TOP_COMPUTE, .rank = r, .req = -1};
        renumber_requests(s->rec[r], s->count[r]);
    }
    ok = ok && world_splits_hold(ws, path, s->n, err);
    free(ws);
    return ok;
}

static void unload(struct scale *s) {
    for (int32_t r = 0; s->rec && r < s->n; r++) {
        for (int32_t j = 0; j < s->count[r]; j++)
            free(s->rec[r][j].ids);
        free(s->rec[r]);
        free(s->ord[r]);
        free(s->step[r]);
    }
    free(s->rec);
    free(s->ord);
    free(s->step);
    free(s->count);
    free(s->recorded);
    trace_close(s->t);
}

/* The laws a number may follow: a x P^e, or, on a grid of 2 or 3
 * dimensions, a x d1^e1 d2^e2 (d3^e3) in the extents of the grid (a halo
 * of a 4 x 2 grid's subdomain is not a power of P). */
static const double exponents[] = {0, -1, 1, -2, -0.5, 0.5, -1.0 / 3, -2.0 / 3, -1.5};
static const double extent_exponents[] = {0, -1, 1, -2, 2, -0.5, 0.5}; /* likeliest first */
enum {
    NLAWS = sizeof exponents / sizeof *exponents,
    NEXT = sizeof extent_exponents / sizeof *extent_exponents,
    MAX_LAWS = NLAWS + NEXT * NEXT * NEXT + 1
};

struct law {
    double e[1 + MAX_DIMS]; /* of P, then of each extent */
    bool log_p;             /* or ln P (a rank's overhead: a tree's depth) */
};

/* The laws of layout l, P's first, the simplest first. */
static int laws_of(const struct layout *l, struct law *laws) {
    int n = 0;
    for (int e = 0; e < NLAWS; e++)
        laws[n++] = (struct law){.e = {exponents[e]}};
    if (l->ndims < 2) {
        laws[n++] = (struct law){.log_p = true}; /* the last tried */
        return n;
    }
    int first = n;
    int combos = l->ndims == 2 ? NEXT * NEXT : NEXT * NEXT * NEXT;
    for (int c = 1; c < combos; c++) {
        struct law w = {.e = {0}};
        for (int i = 0, rest = c; i < l->ndims; i++, rest /= NEXT)
            w.e[1 + i] = extent_exponents[rest % NEXT];
        laws[n++] = w;
    }
    /* the likeliest first: by the sum of the exponents' places in their
     * list (a subdomain's n/d before its square root), stable */
    int weight[MAX_LAWS];
    for (int c = first; c < n; c++) {
        weight[c] = 0;
        for (int i = 1; i <= l->ndims; i++)
            for (int k = 0; k < NEXT; k++)
                weight[c] += laws[c].e[i] == extent_exponents[k] ? k : 0;
    }
    for (int a = first + 1; a < n; a++)
        for (int b = a; b > first && weight[b] < weight[b - 1]; b--) {
            struct law t = laws[b];
            laws[b] = laws[b - 1];
            laws[b - 1] = t;
            int w = weight[b];
            weight[b] = weight[b - 1];
            weight[b - 1] = w;
        }
    laws[n++] = (struct law){.log_p = true}; /* the last tried */
    return n;
}

static double law_at(const struct law *w, const struct layout *l, int32_t n) {
    if (w->log_p) return log(n);
    int32_t dims[MAX_DIMS];
    layout_dims(l, n, dims);
    double v = pow(n, w->e[0]);
    for (int i = 0; i < l->ndims; i++)
        v *= pow(dims[i], w->e[1 + i]);
    return v;
}

static const char *exponent_word(double e) {
    static const double es[] = {-2, -1, -0.5, 0.5, 1, 2, -1.0 / 3, -2.0 / 3, -1.5};
    static const char *const words[] = {"^-2", "^-1",   "^-1/2", "^1/2", "",
                                        "^2",  "^-1/3", "^-2/3", "^-3/2"};
    for (size_t i = 0; i < sizeof es / sizeof *es; i++)
        if (e == es[i]) return words[i];
    return "^?";
}

/* "constant", "a P^-1", "a d1^-1 d2^-1/2" (d1 the slowest extent). */
static void law_name(const struct law *w, int ndims, char *buf, size_t size) {
    if (w->log_p) {
        snprintf(buf, size, "a ln P");
        return;
    }
    int at = snprintf(buf, size, "a");
    for (int i = 0; i <= ndims && at < (int)size; i++)
        if (w->e[i] != 0 && i == 0)
            at += snprintf(buf + at, size - (size_t)at, " P%s", exponent_word(w->e[i]));
        else if (w->e[i] != 0)
            at += snprintf(buf + at, size - (size_t)at, " d%d%s", i, exponent_word(w->e[i]));
    if (at == 1) snprintf(buf, size, "constant");
}

/* The laws' values at each scale and at the target, for a layout. */
struct basis {
    int nlaws;
    struct law law[MAX_LAWS];
    double at[MAX_LAWS][MAX_SCALES], target[MAX_LAWS];
};

/* Whether a measured burst may follow law w: a power of P, or a
 * subdomain's share (a / d1, a / d1 d2 ...): not the grid's other
 * products, among which the noise of a few scales would choose. */
static bool burst_law(const struct law *w) {
    if (w->log_p) return false;
    for (int i = 1; i <= MAX_DIMS; i++)
        if (w->e[i] != 0 && w->e[i] != -1) return false;
    return true;
}

/* Whether a rank's computation may follow w x a + c: the work shared
 * out, a/P, plus an overhead c >= 0 that is not; or an overhead growing
 * as a tree's depth, a ln P + c, a > 0. No other: three noisy scales fit
 * a P^e + c for some e, and the e they choose extends four times further
 * wildly (NPB LU 16 to 64 ranks, recorded three times: 2.5, 6.4 and 9.7
 * ms a rank at 256 so, where the recordings at 256 give 9.4 to 10.7). */
static bool overhead_law(const struct law *w, double a, double c) {
    bool shared = !w->log_p && w->e[0] == -1;
    for (int i = 1; i <= MAX_DIMS; i++)
        shared = shared && w->e[i] == 0;
    return (shared && a > 0 && c >= 0) || (w->log_p && a > 0);
}

/* Law e fitted to (v[k] at scales on[k]) as a f + c (c = 0 unless
 * affine: least squares); its largest relative residual. */
static double fit_law(const struct basis *b, int e, const int *on, const double *v, int m,
                      bool affine, double *a, double *c, double *rms) {
    *a = *c = 0;
    *rms = INFINITY;
    if (affine) {
        double sf = 0, sv = 0, sff = 0, sfv = 0;
        for (int k = 0; k < m; k++) {
            double f = b->at[e][on[k]];
            sf += f;
            sv += v[k];
            sff += f * f;
            sfv += f * v[k];
        }
        double den = m * sff - sf * sf;
        if (fabs(den) <= 1e-12 * (m * sff)) return INFINITY; /* a constant: no slope */
        *a = (m * sfv - sf * sv) / den;
        *c = (sv - *a * sf) / m;
    } else {
        for (int k = 0; k < m; k++)
            *a += v[k] / b->at[e][on[k]];
        *a /= m;
    }
    double worst = 0, squares = 0;
    for (int k = 0; k < m; k++) {
        double pred = *a * b->at[e][on[k]] + *c;
        double rel = v[k] ? fabs(pred - v[k]) / fabs(v[k]) : fabs(pred);
        if (rel > worst) worst = rel;
        squares += rel * rel;
    }
    *rms = sqrt(squares / m);
    return worst;
}

/* v[k] at scales on[k] as a P^e1 + b P^e2 exactly (two of the powers of
 * P; from 3 scales or more), the first pair that fits: NPB BT's faces,
 * 46080 (p - 1) / p^2 with p = sqrt P, a P^-1/2 - a P^-1. Its value at
 * the target in *at. */
static bool two_laws(const struct basis *b, const int *on, const double *v, int m, double *at) {
    for (int e1 = 0; e1 < NLAWS; e1++)
        for (int e2 = e1 + 1; e2 < NLAWS; e2++) {
            double s11 = 0, s12 = 0, s22 = 0, s1v = 0, s2v = 0;
            for (int k = 0; k < m; k++) {
                double f1 = b->at[e1][on[k]], f2 = b->at[e2][on[k]];
                s11 += f1 * f1;
                s12 += f1 * f2;
                s22 += f2 * f2;
                s1v += f1 * v[k];
                s2v += f2 * v[k];
            }
            double den = s11 * s22 - s12 * s12;
            if (fabs(den) <= 1e-12 * s11 * s22) continue;
            double a = (s1v * s22 - s2v * s12) / den, c = (s2v * s11 - s1v * s12) / den;
            bool exact = true;
            for (int k = 0; k < m && exact; k++) {
                double pred = a * b->at[e1][on[k]] + c * b->at[e2][on[k]];
                exact = fabs(pred - v[k]) <= 1e-9 * fmax(fabs(v[k]), 1);
            }
            if (exact) {
                *at = a * b->target[e1] + c * b->target[e2];
                return true;
            }
        }
    return false;
}

/* v[k] at scales on[k] as (a f + c)^q exactly, f one of the laws (from
 * 3 scales or more): a face or a block with its ghost layers, (n/p + 1)^2
 * (NPB BT's solves, 240 (24/p + 1)^2 bytes with p = sqrt P); its value at
 * the target in *at. */
static bool powered_law(const struct basis *b, const int *on, const double *v, int m, int q,
                        double *at) {
    double w[MAX_SCALES];
    for (int k = 0; k < m; k++) {
        if (v[k] < 0) return false;
        w[k] = pow(v[k], 1.0 / q);
    }
    for (int e = 1; e < b->nlaws; e++) {
        double a, c, rms;
        fit_law(b, e, on, w, m, true, &a, &c, &rms);
        bool exact = isfinite(a);
        for (int k = 0; k < m && exact; k++)
            exact = fabs(pow(a * b->at[e][on[k]] + c, q) - v[k]) <= 1e-9 * fmax(v[k], 1);
        if (exact) {
            *at = pow(a * b->target[e] + c, q);
            return true;
        }
    }
    return false;
}

/* What a fitted number is, which says the laws it may follow. */
enum fit_kind {
    FIT_EXACT, /* a size: a f exactly, or else a f + c (from 3 scales: a subdomain's
                * interior, n/d - 1, is one) */
    FIT_BURST, /* one burst: the a f of burst_law() closest to it */
    FIT_TOTAL  /* a rank's computation: as a burst, or a f + c (an overhead that does
                * not scale) where that halves the residual, from 3 scales or more */
};

/* The law that best fits (v[k] at scales on[k]) as kind says; its value
 * at the target, the law (negative: affine), its largest relative
 * residual and its coefficients (a f + c; a = 0 and c = the last value
 * when there is one scale only). */
static double fit_coef(const struct basis *b, const int *on, const double *v, int m,
                       enum fit_kind kind, int *law, double *residual, double *ca, double *cc) {
    /* chosen by the largest residual for a size (it must be exact), by
     * the root mean square for a measured number: with a scale recorded
     * several times, the largest is their noise, whatever the law */
    double best = INFINITY, worst_of_best = 0, at = v[m - 1];
    *law = 0;
    *residual = 0;
    *ca = 0;
    *cc = v[m - 1];
    if (m < 2) return at;
    bool constant = true; /* the first law, exactly: none does better */
    for (int k = 1; k < m; k++)
        constant = constant && v[k] == v[0];
    if (constant) {
        *cc = 0;
        *ca = b->at[0][on[0]] ? v[0] / b->at[0][on[0]] : 0;
        return *ca * b->target[0];
    }
    for (int e = 0; e < b->nlaws; e++) {
        if (kind != FIT_EXACT && !burst_law(&b->law[e])) continue;
        double a, c, rms, worst = fit_law(b, e, on, v, m, false, &a, &c, &rms);
        double score = kind == FIT_EXACT ? worst : rms;
        if (score < best - 1e-12) {
            best = score;
            worst_of_best = worst;
            *law = e;
            at = a * b->target[e];
            *ca = a;
            *cc = 0;
        }
    }
    int distinct = 0; /* scales of different sizes (a scale may be recorded twice) */
    for (int k = 0; k < m; k++) {
        bool again = false;
        for (int i = 0; i < k; i++)
            again = again || b->at[1][on[i]] == b->at[1][on[k]];
        distinct += !again;
    }
    bool affine = distinct >= 3 && (kind == FIT_EXACT ? best > 1e-9 : kind == FIT_TOTAL);
    bool shrinking = b->law[*law].e[0] < 0 || b->law[*law].e[1] < 0 || b->law[*law].e[2] < 0 ||
                     b->law[*law].e[3] < 0;
    double pure = best;
    for (int e = 1; affine && e < b->nlaws; e++) { /* (an affine constant is no law) */
        double a, c, rms, worst = fit_law(b, e, on, v, m, true, &a, &c, &rms);
        double score = kind == FIT_EXACT ? worst : rms, value = a * b->target[e] + c;
        /* a computation that shrinks with P takes Amdahl's a/P + c as soon
         * as it fits as well as the power law (that has c = 0); one
         * growing as ln P must halve the residual */
        bool amdahl = shrinking && !b->law[e].log_p && b->law[e].e[0] == -1;
        bool better = kind == FIT_EXACT ? score < best - 1e-12
                      : amdahl          ? score <= pure && value > 0
                                        : score < pure / 2 && score < best - 1e-12 && value > 0;
        if (better && (kind == FIT_EXACT || overhead_law(&b->law[e], a, c))) {
            best = score;
            worst_of_best = worst;
            *law = -e;
            at = value;
            *ca = a;
            *cc = c;
        }
    }
    if (kind == FIT_EXACT && best > 1e-9 && distinct >= 3 &&
        (two_laws(b, on, v, m, &at) || powered_law(b, on, v, m, 2, &at) ||
         powered_law(b, on, v, m, 3, &at)))
        worst_of_best = 0;
    *residual = worst_of_best;
    return at;
}

/* fit_coef without the coefficients. */
static double fit(const struct basis *b, const int *on, const double *v, int m, enum fit_kind kind,
                  int *law, double *residual) {
    double a, c;
    return fit_coef(b, on, v, m, kind, law, residual, &a, &c);
}

/* How a rank's records are folded (extrapolate_fold.h): not at all,
 * loops that step (the tag, an XOR distance), or those and blocks
 * repeated as they are, once the tags that only order messages are
 * dropped (NPB BT's sqrt P cells a rank, each its own tags). */
enum fold_mode { FOLD_NONE, FOLD_STEPPED, FOLD_REPEATED };
static const char *const fold_words[] = {
    "loops not folded", "stepped loops folded",
    "stepped and repeated blocks folded, tags that only order messages dropped"};

/* The pieces of one extrapolation. */
struct job {
    struct scale s[MAX_SCALES];
    int ns;
    struct layout l;
    int32_t rep[MAX_SCALES][64];
    int cls[64]; /* each position's class: the positions whose ranks do the same */
    /* each burst of a position's template: its mean over the position's
     * ranks, and their largest relative deviation from it */
    double *mean[MAX_SCALES][64], *spread[MAX_SCALES][64];
    /* a position's computation: the sum of its bursts' means, and how far
     * a rank's own sum is from it at most (relative) */
    double total[MAX_SCALES][64], total_spread[MAX_SCALES][64];
    double program[MAX_SCALES]; /* a rank's computation, the mean over all ranks */
    /* and the mean over the classes seen at every scale (the mix of
     * ranks changes with P: more of them inside), or program if none is */
    double typical[MAX_SCALES];
    int32_t members[MAX_SCALES][64]; /* each class's ranks */
    uint8_t *kinds[64];  /* each position's records' peer kinds that hold (two a record) */
    int32_t longest;     /* the most records a rank has at any scale */
    struct basis basis;  /* the laws, for the layout and the target */
    enum fold_mode mode; /* how the scales were folded */
    bool banded;         /* sends' sizes taken as their means (struct scale) */
    bool sorted;         /* runs of calls to neighbours sorted (sort_neighbour_runs) */
    /* each scale's segments brought to the largest scale's order
     * (extrapolate_align.h), and the most of a scale's left out or copied
     * (their share of its segments, and which scale) */
    bool aligned;
    /* wider readings, tried once the others fail: peers may be ranks of
     * their own (KIND_RANK) and loops step by rank; or a loop's body may
     * be whole segments (FOLD_SEGMENTS) and its count follow a law
     * roughly */
    bool rank_peers, segments;
    double aligned_share;
    char aligned_where[300];
    /* whether the last layout tried had every rank follow its position's
     * template, and the first why of a layout that did (it got furthest) */
    bool templates_ok;
    struct sim_error furthest;
};

/* Rank r's class: its position's (merge_positions). */
static int class_of(const struct job *j, const int32_t *dims, int32_t r) {
    return j->cls[position_of(&j->l, dims, r)];
}

/* Whether the ranks of one position at each scale (rep[k], -1: none)
 * name their peers alike across the scales under some kind still in
 * kinds (which keeps those that do); records compared to the largest
 * scale's where the counts agree (fit_position refuses them otherwise). */
static bool kinds_across(const struct job *j, const int32_t *rep, uint8_t *kinds) {
    int top = -1;
    for (int k = 0; k < j->ns; k++)
        if (rep[k] >= 0) top = k;
    if (top < 0) return true;
    const struct scale *ts = &j->s[top];
    int32_t tr = rep[top], tdims[MAX_DIMS], dims[MAX_DIMS];
    layout_dims(&j->l, ts->n, tdims);
    for (int k = 0; k < top; k++) {
        const struct scale *s = &j->s[k];
        int32_t q = rep[k];
        if (q < 0 || s->count[q] != ts->count[tr]) continue;
        layout_dims(&j->l, s->n, dims);
        for (int32_t i = 0; i < s->count[q]; i++)
            for (int c = 0; c < peers_of(&ts->rec[tr][i]) && c < peers_of(&s->rec[q][i]); c++)
                if (!(kinds[2 * i + c] &=
                      (uint8_t)same_kinds(&j->l, dims, q, &s->rec[q][i], &s->step[q][i], tdims, tr,
                                          &ts->rec[tr][i], &ts->step[tr][i], c)))
                    return false;
    }
    return true;
}

/* Puts positions whose ranks do the same, record for record, at every
 * scale where both are seen (and at one at least) in one class: their
 * bursts are averaged together, and a class is seen at every scale one
 * of its positions is (a 1-D grid's two ends, or a 2-D grid's inside
 * seen at one scale, join the others when they do the same). */
static void merge_positions(struct job *j) {
    for (int p = 0; p < 64; p++)
        j->cls[p] = p;
    for (int q = 1; q < 64; q++)
        for (int p = 0; p < q && j->cls[q] == q; p++) {
            if (j->cls[p] != p) continue;
            bool same = true, met = false;
            size_t size = 2 * (size_t)j->longest + 2;
            uint8_t *both = xmalloc(size);
            for (size_t i = 0; i < size; i++)
                both[i] = j->kinds[p][i] & j->kinds[q][i];
            for (int k = 0; k < j->ns && same; k++) {
                int32_t a = j->rep[k][p], b = j->rep[k][q], dims[MAX_DIMS];
                if (a < 0 || b < 0) continue;
                struct sim_error ignored = {0};
                layout_dims(&j->l, j->s[k].n, dims);
                same = same_template(&j->s[k], &j->l, dims, a, b, both, &ignored);
                met = true;
            }
            int32_t reps_p[MAX_SCALES], reps_q[MAX_SCALES];
            for (int k = 0; k < j->ns; k++) {
                reps_p[k] = j->rep[k][p];
                reps_q[k] = j->rep[k][q];
            }
            same = same && met && kinds_across(j, reps_p, both) && kinds_across(j, reps_q, both);
            if (same) memcpy(j->kinds[p], both, size);
            free(both);
            if (!same || !met) continue;
            j->cls[q] = p;
            for (int k = 0; k < j->ns; k++) {
                if (j->rep[k][p] < 0) j->rep[k][p] = j->rep[k][q];
                j->rep[k][q] = -1;
            }
        }
}

/* A rank's computation at each scale as the program's typical one times
 * its class's level (total[k][p] ~ typical[k] x level[p]), solved by
 * turns over every rank of every scale: the mean of all ranks is robust
 * but its mix of classes changes with P (more of them inside); a level
 * makes the mix not matter. The levels' mean over the largest scale's
 * ranks is 1. */
static void typical_computation(struct job *j) {
    double level[64];
    for (int p = 0; p < 64; p++)
        level[p] = 1;
    for (int turn = 0; turn < 20; turn++) {
        for (int k = 0; k < j->ns; k++) {
            double sum = 0, weight = 0;
            for (int p = 0; p < 64; p++)
                if (j->rep[k][p] >= 0) {
                    sum += j->members[k][p] * j->total[k][p];
                    weight += j->members[k][p] * level[p];
                }
            j->typical[k] = weight > 0 ? sum / weight : 0;
        }
        double norm = 0;
        int32_t n = 0;
        for (int p = 0; p < 64; p++) {
            double sum = 0;
            int seen = 0;
            for (int k = 0; k < j->ns; k++)
                if (j->rep[k][p] >= 0 && j->typical[k] > 0) {
                    sum += j->total[k][p] / j->typical[k];
                    seen++;
                }
            level[p] = seen ? sum / seen : 1;
            norm += j->members[j->ns - 1][p] * level[p];
            n += j->members[j->ns - 1][p];
        }
        for (int p = 0; p < 64 && norm > 0; p++)
            level[p] *= n / norm;
    }
}

static void basis_prepare(struct job *j, int32_t target) {
    struct basis *b = &j->basis;
    b->nlaws = laws_of(&j->l, b->law);
    for (int e = 0; e < b->nlaws; e++) {
        for (int k = 0; k < j->ns; k++)
            b->at[e][k] = law_at(&b->law[e], &j->l, j->s[k].n);
        b->target[e] = law_at(&b->law[e], &j->l, target);
    }
}

/* What record x (of size v: a burst's, or a class's mean of it) adds to
 * a rank's computation: a burst times its loop's iterations, and the
 * bursts between those on its first record. */
static double computation(const struct trace_rec *x, const struct step *st, double v) {
    return x->op == TOP_COMPUTE ? v * st->iters : (double)st->gap * (st->iters - 1);
}

/* The bursts' means and spreads of each position of each scale. */
static void burst_means(struct job *j) {
    for (int k = 0; k < j->ns; k++) {
        const struct scale *s = &j->s[k];
        int32_t dims[MAX_DIMS], *members = xcalloc(64, sizeof *members);
        layout_dims(&j->l, s->n, dims);
        for (int p = 0; p < 64; p++) {
            free(j->mean[k][p]);
            free(j->spread[k][p]);
            j->mean[k][p] = j->spread[k][p] = NULL;
            int32_t q = j->rep[k][p];
            if (q < 0) continue;
            j->mean[k][p] = xcalloc((size_t)s->count[q] + 1, sizeof(double));
            j->spread[k][p] = xcalloc((size_t)s->count[q] + 1, sizeof(double));
        }
        for (int32_t r = 0; r < s->n; r++) {
            int p = class_of(j, dims, r);
            members[p]++;
            for (int32_t i = 0; i < s->count[r]; i++)
                j->mean[k][p][i] += (double)s->rec[r][i].size;
        }
        for (int p = 0; p < 64; p++)
            for (int32_t i = 0; members[p] && i < s->count[j->rep[k][p]]; i++)
                j->mean[k][p][i] /= members[p];
        j->program[k] = 0;
        for (int p = 0; p < 64; p++) {
            j->total[k][p] = j->total_spread[k][p] = 0;
            int32_t q = j->rep[k][p];
            for (int32_t i = 0; q >= 0 && i < s->count[q]; i++)
                j->total[k][p] += computation(&s->rec[q][i], &s->step[q][i], j->mean[k][p][i]);
        }
        for (int32_t r = 0; r < s->n; r++) {
            int p = class_of(j, dims, r);
            double sum = 0;
            for (int32_t i = 0; i < s->count[r]; i++) {
                double m = j->mean[k][p][i], d = m ? fabs((double)s->rec[r][i].size - m) / m : 0;
                if (d > j->spread[k][p][i]) j->spread[k][p][i] = d;
                sum += computation(&s->rec[r][i], &s->step[r][i], (double)s->rec[r][i].size);
            }
            j->program[k] += sum / s->n;
            double t = j->total[k][p], d = t ? fabs(sum - t) / t : 0;
            if (d > j->total_spread[k][p]) j->total_spread[k][p] = d;
        }
        memcpy(j->members[k], members, sizeof j->members[k]);
        free(members);
    }
}

static bool power_of_two_scales(const struct job *j) {
    for (int k = 0; k < j->ns; k++)
        if (j->s[k].n & (j->s[k].n - 1)) return false;
    return true;
}

/* Tries layout l on every scale; false with why. */
static bool layout_fits(struct job *j, struct sim_error *err) {
    j->longest = 0;
    for (int k = 0; k < j->ns; k++)
        for (int32_t r = 0; r < j->s[k].n; r++)
            if (j->s[k].count[r] > j->longest) j->longest = j->s[k].count[r];
    for (int p = 0; p < 64; p++) {
        free(j->kinds[p]);
        j->kinds[p] = xmalloc(2 * (size_t)j->longest + 2);
        memset(j->kinds[p], j->rank_peers ? KINDS_ALL : KINDS_ALL & ~KIND_RANK,
               2 * (size_t)j->longest + 2);
    }
    if (j->l.bisected && !power_of_two_scales(j))
        return err_set(err, "recursive bisection is read for 2^k ranks only");
    for (int k = 0; k < j->ns; k++)
        if (!find_templates(&j->s[k], &j->l, j->rep[k], j->kinds, err)) return false;
    return true;
}

/* A position's template at the target: from the largest scale that has
 * it, its numbers at N, what its bursts add to the error band. */
struct fitted {
    bool done;
    int top;    /* the scale */
    int32_t tr; /* its rank there */
    int64_t *size, *size2;
    double *burst;                     /* each burst's own law at N (0: not a burst) */
    unsigned *color, *key;             /* a split's readings (readings()) */
    int32_t *color_lit, *key_lit;      /* and their literals */
    int32_t tdims[MAX_DIMS];           /* the grid of its scale */
    int32_t *codes, *code_rec, ncodes; /* its peers' codes, each with a record that has it */
    double deviation, computation;     /* summed over its bursts */
    uint8_t *kind;                     /* each peer field's kind (two a record) */
    int32_t *code;                     /* and its code at the template's rank */
    /* each record's loop at N: iterations, steps, len and gap on its
     * first, and the first record of the loop a record is in (-1: none);
     * NULL when the class has no loop (loop_at) */
    struct step *loop;
    int32_t *loop_of;
    double *sent, *received; /* a variable-count collective's count per peer at N (NULL: none) */
    int32_t *ncounts;        /* and its peers */
};

static const struct step no_loop = {.iters = 1};

/* Record i's loop in class f (iterations 1: none). */
static const struct step *loop_at(const struct fitted *f, int32_t i) {
    return f->loop ? &f->loop[i] : &no_loop;
}

/* The readings of record i's color and key (a split) that hold for every
 * rank of position p at every scale; false with why if none does. */
static bool split_readings(struct job *j, struct fitted *f, int p, int32_t i,
                           struct sim_error *err) {
    const struct scale *ts = &j->s[f->top];
    f->color[i] = f->key[i] = ~0u;
    f->color_lit[i] = ts->rec[f->tr][i].color;
    f->key_lit[i] = ts->rec[f->tr][i].key;
    for (int k = 0; k < j->ns; k++) {
        const struct scale *s = &j->s[k];
        int32_t dims[MAX_DIMS];
        layout_dims(&j->l, s->n, dims);
        for (int32_t r = 0; j->rep[k][p] >= 0 && r < s->n; r++) {
            if (class_of(j, dims, r) != p) continue;
            const struct trace_rec *x = &s->rec[r][i];
            f->color[i] &= readings(&j->l, dims, r, x->color, f->color_lit[i]);
            f->key[i] &= readings(&j->l, dims, r, x->key, f->key_lit[i]);
            if (!f->color[i] || !f->key[i])
                return err_set(err,
                               "%s: rank %d, record %d (%s, line %d): its %s follows none of: a "
                               "constant, the rank, a coordinate of the %d-D grid",
                               s->path, r, s->ord[r][i], op_word(x), x->line,
                               f->color[i] ? "key" : "color", j->l.ndims);
        }
    }
    return true;
}

/* Scales class p's bursts at N (f->burst, each its own law) so that
 * their sum, the rank's computation, is the program's law at N times the
 * class's level. The program's law is fitted on its typical computation
 * at each scale (typical_computation), as a burst is, or as Amdahl's a/P
 * + c or a ln P + c (fit_coef), from 3 scales or more; a class's level is
 * the mean over the scales where it is seen of its computation over the
 * law's value there (a corner does less than the inside). A burst is
 * noisy, one rank is, a class seen at two scales is: every rank of every
 * scale together is not. A folded loop's bursts count as many times as
 * it runs, and the bursts between its repetitions (each a law of its
 * own: loop_gap) as many times as they occur. The band: the law's
 * residual or the level's spread across the scales, the larger, plus the
 * spread of the class's ranks. */
/* Class p's bursts (f) shaped as at the largest scale that has it, their
 * class's means there (T x level then sets their sum): each burst's own
 * law, fitted to a few noisy points, would move computation from one
 * burst to another differently in each class, and a rank that waits at
 * each step for the slowest class would wait for a different one each
 * time (HPCG 8, 27, 64 -> 343: 75% more time between its collectives
 * than the same computation shaped as recorded). Returns their sum as
 * computation() counts it. */
static double shape_of_largest(const struct job *j, struct fitted *f, int p) {
    const struct scale *ts = &j->s[f->top];
    int32_t dims[MAX_DIMS];
    layout_dims(&j->l, ts->n, dims);
    double sum = 0;
    for (int32_t i = 0; i < ts->count[f->tr]; i++) {
        if (ts->rec[f->tr][i].op == TOP_COMPUTE) f->burst[i] = fmax(j->mean[f->top][p][i], 0);
        if (f->loop && f->loop[i].len > 0) { /* the bursts between its repetitions there */
            double gap = 0;
            int32_t n = 0;
            for (int32_t r = 0; r < ts->n; r++)
                if (class_of(j, dims, r) == p && ts->step[r][i].iters > 1) {
                    gap += ts->step[r][i].gap;
                    n++;
                }
            if (n) f->loop[i].gap = (float)(gap / n);
        }
        sum += computation(&ts->rec[f->tr][i], loop_at(f, i), f->burst[i]);
    }
    return sum;
}

static void scale_computation(struct job *j, struct fitted *f, int p, const double *own,
                              struct extrapolation *x) {
    const struct scale *ts = &j->s[f->top];
    double v[MAX_SCALES], sum = 0, a, c, res, level = 0, off = 0;
    int on[MAX_SCALES] = {0}, law, m = 0;
    for (int k = 0; k < j->ns; k++)
        on[k] = k;
    double total = fit_coef(&j->basis, on, j->typical, j->ns, FIT_TOTAL, &law, &res, &a, &c);
    int e = law < 0 ? -law : law;
    for (int k = 0; k < j->ns; k++) {
        double fitted = a * j->basis.at[e][k] + c;
        if (j->rep[k][p] >= 0 && fitted > 0) level += v[m++] = j->total[k][p] / fitted;
    }
    if (m) level /= m;
    for (int k = 0; k < m && level > 0; k++)
        off = fmax(off, fabs(v[k] - level) / level);
    for (int32_t i = 0; i < ts->count[f->tr]; i++)
        sum += computation(&ts->rec[f->tr][i], loop_at(f, i), f->burst[i]);
    total *= level;
    /* the class's bursts' own laws, summed at each scale (own), may fit
     * its computation there better than T x level: bursts that keep their
     * size in loops that run more times as P grows (BT's stages) */
    double t_sq = 0, own_sq = 0, own_worst = 0;
    int scales = 0;
    for (int k = 0; k < j->ns; k++) {
        double t = j->total[k][p];
        if (j->rep[k][p] < 0 || !(t > 0)) continue;
        bool again = false;
        for (int i = 0; i < k; i++)
            again = again || (j->s[i].n == j->s[k].n && j->rep[i][p] >= 0);
        scales += !again;
        double fitted = (a * j->basis.at[e][k] + c) * level, d = (own[k] - t) / t;
        t_sq += (fitted - t) * (fitted - t) / (t * t);
        own_sq += d * d;
        own_worst = fmax(own_worst, fabs(d));
    }
    /* each burst chooses its own law, so their sum fits what it is fitted
     * to more easily than T x level does: it must be seen at 3 scales or
     * more and halve the residual (LULESH's inside, seen at 27 and 64
     * ranks, is T's; NPB BT's stages, exact, are their own) */
    bool by_bursts = scales >= 3 && own_sq <= t_sq / 4;
    if (by_bursts)
        total = sum;
    else
        sum = shape_of_largest(j, f, p);
    if (!(sum > 0) || !(total > 0)) return;
    for (int32_t i = 0; i < ts->count[f->tr]; i++) {
        if (f->burst[i] > 0) f->size[i] = (int64_t)llround(f->burst[i] * total / sum);
        if (f->loop) f->loop[i].gap = (float)((double)f->loop[i].gap * total / sum);
    }
    double spread = j->total_spread[f->top][p], worst = by_bursts ? own_worst : fmax(res, off);
    f->deviation = (worst + spread) * total;
    f->computation = total;
    if (worst + spread > x->worst_share) {
        char name[80];
        if (by_bursts)
            snprintf(name, sizeof name, "its bursts' own laws, summed");
        else
            law_name(&j->basis.law[e], j->l.ndims, name, sizeof name);
        x->worst_share = worst + spread;
        snprintf(x->worst, sizeof x->worst,
                 "rank %d's computation (%s): %s%s, residual %.2g%%, its position's ranks within "
                 "%.2g%%",
                 f->tr, ts->path, name, law < 0 && !by_bursts ? " + c" : "", 100 * worst,
                 100 * spread);
    }
}

/* A loop's iterations at n from c[k] at scales on[k]: a constant, or a
 * log2 x + b for x = P or an extent of the grid (NPB CG's reductions take
 * log2 of its columns' steps), or one of a size's laws (a P^e + c: NPB
 * BT's stages, sqrt P - 1), exact at every scale and whole at n; -1 if
 * none. */
/* Iterations that follow no law exactly (a time step run as many times
 * as the physics needs: LULESH's, cbrt P times under weak scaling): the
 * least squares a f + c of f = log2 P, P^1/3, P^1/2 or P whose root mean
 * square relative residual is least, if its largest is within
 * COUNT_RESIDUAL_PERCENT and its root mean square a quarter of the
 * counts' own spread at most (a trend: 30, 31, 30 iterations are the
 * data's, not P's), rounded at n (1 at least); -1 if none. *band: its
 * largest residual. */
enum { COUNT_RESIDUAL_PERCENT = 5 };
static int32_t fit_count_roughly(const struct job *j, const int *on, const int32_t *c, int m,
                                 int32_t n, double *band) {
    static const double power[] = {0, 1.0 / 3, 0.5, 1}; /* (0: log2) */
    double best = INFINITY, at = -1, mean = 0, spread = 0;
    for (int k = 0; k < m; k++)
        mean += (double)c[k] / m;
    for (int k = 0; k < m; k++)
        spread += ((double)c[k] - mean) * ((double)c[k] - mean) / m;
    spread = sqrt(spread) / mean; /* a trend, not the data's noise, must be there */
    for (size_t e = 0; e < sizeof power / sizeof *power; e++) {
        double f[MAX_SCALES], sf = 0, sc = 0, sff = 0, sfc = 0;
        for (int k = 0; k < m; k++) {
            double p = j->s[on[k]].n;
            f[k] = e ? pow(p, power[e]) : log2(p);
            sf += f[k];
            sc += c[k];
            sff += f[k] * f[k];
            sfc += f[k] * c[k];
        }
        double den = m * sff - sf * sf;
        if (fabs(den) <= 1e-12 * m * sff) continue;
        double a = (m * sfc - sf * sc) / den, b = (sc - a * sf) / m, squares = 0, worst = 0;
        for (int k = 0; k < m; k++) {
            double rel = fabs(a * f[k] + b - c[k]) / c[k];
            squares += rel * rel;
            worst = fmax(worst, rel);
        }
        if (sqrt(squares / m) < best && worst <= COUNT_RESIDUAL_PERCENT / 100.0 &&
            sqrt(squares / m) <= spread / 4) {
            best = sqrt(squares / m);
            at = a * (e ? pow(n, power[e]) : log2(n)) + b;
            *band = worst;
        }
    }
    return at < 0 ? -1 : (int32_t)fmax(1, llround(at));
}

static int32_t fit_count(const struct job *j, const int *on, const int32_t *c, int m, int32_t n) {
    int32_t dims[MAX_DIMS], tdims[MAX_DIMS];
    layout_dims(&j->l, n, tdims);
    for (int x = -1; x <= j->l.ndims; x++) {
        double f[MAX_SCALES], sf = 0, sc = 0, sff = 0, sfc = 0;
        for (int k = 0; k < m; k++) {
            layout_dims(&j->l, j->s[on[k]].n, dims);
            f[k] = x < 0 ? 0 : log2(x == 0 ? j->s[on[k]].n : dims[x - 1]);
            sf += f[k];
            sc += c[k];
            sff += f[k] * f[k];
            sfc += f[k] * c[k];
        }
        double den = m * sff - sf * sf;
        double a = fabs(den) > 1e-12 ? (m * sfc - sf * sc) / den : 0, b = (sc - a * sf) / m;
        bool exact = true;
        for (int k = 0; k < m; k++)
            exact = exact && fabs(a * f[k] + b - c[k]) < 1e-9;
        double at = a * (x < 0 ? 0 : log2(x == 0 ? n : tdims[x - 1])) + b;
        if (exact && fabs(at - round(at)) < 1e-9 && at > -0.5) return (int32_t)round(at);
    }
    double v[MAX_SCALES], res; /* a size's laws: sqrt P - 1 cells (NPB BT's) */
    int law;
    for (int k = 0; k < m; k++)
        v[k] = c[k];
    double at = fit(&j->basis, on, v, m, FIT_EXACT, &law, &res);
    if (res < 1e-9 && fabs(at - round(at)) < 1e-6 && at > -0.5) return (int32_t)round(at);
    return -1;
}

/* The burst between the repetitions of class p's loop at record i at the
 * target: the class's mean at each scale where it repeats, fitted as a
 * burst is (NPB BT's cell solves between its stages: a cell's volume,
 * not the largest scale's). */
static double loop_gap(struct job *j, int p, int32_t i, double *own) {
    double v[MAX_SCALES], res, a, c;
    int on[MAX_SCALES], m = 0, law;
    int32_t iters[MAX_SCALES];
    for (int k = 0; k < j->ns; k++) {
        const struct scale *s = &j->s[k];
        int32_t dims[MAX_DIMS], n = 0;
        double sum = 0;
        layout_dims(&j->l, s->n, dims);
        for (int32_t r = 0; j->rep[k][p] >= 0 && r < s->n; r++)
            if (class_of(j, dims, r) == p && s->step[r][i].iters > 1) {
                sum += s->step[r][i].gap;
                n++;
            }
        if (!n) continue;
        iters[m] = s->step[j->rep[k][p]][i].iters;
        on[m] = k;
        v[m++] = sum / n;
    }
    if (!m) return 0;
    double at = fmax(fit_coef(&j->basis, on, v, m, FIT_BURST, &law, &res, &a, &c), 0);
    for (int k = 0; k < m; k++) /* what the law gives at the scales where it repeats */
        own[on[k]] += (a * j->basis.at[law < 0 ? -law : law][on[k]] + c) * (iters[k] - 1);
    return at;
}

/* Class p's loops at n (f->loop, f->loop_of): each loop seen at a scale
 * with its iterations there, fitted (fit_count), its steps from a scale
 * where it runs twice or more; false with why. */
/* Whether the loop body rec[i, i + len) calls a collective on the world
 * (then every rank runs it as many times). */
static bool loop_calls_world(const struct trace_rec *rec, int32_t i, int32_t len) {
    for (int32_t k = i; k < i + len; k++)
        if (rec[k].op == TOP_COLL && rec[k].comm == 0) return true;
    return false;
}

/* The ordinal of the loop at record i among rank q's loops that call a
 * collective on the world (-1: it does not); o >= 0: the iterations of
 * that loop of rank q instead (-1: none). */
static int32_t world_loop(const struct scale *s, int32_t q, int32_t i, int32_t o) {
    int32_t seen = 0;
    for (int32_t k = 0; k < s->count[q]; k++) {
        const struct step *st = &s->step[q][k];
        if (st->len <= 0 || !loop_calls_world(s->rec[q], k, st->len)) continue;
        if (o < 0 && k == i) return seen;
        if (o >= 0 && seen == o) return st->iters;
        seen++;
        k += st->len - 1;
    }
    return -1;
}

/* Loop counts of class p's loop at record i that calls a collective on
 * the world taken from rank 0 of every scale (the count is the world's:
 * a class seen at two scales gets the laws of all); false if some scale
 * has no such loop. */
static bool world_counts(const struct job *j, int p, int32_t i, int *on, int32_t *c, int *m) {
    int k0 = -1;
    for (int k = 0; k < j->ns && k0 < 0; k++)
        if (j->rep[k][p] >= 0 && j->s[k].step[j->rep[k][p]][i].len > 0) k0 = k;
    if (k0 < 0) return false;
    int32_t o = world_loop(&j->s[k0], j->rep[k0][p], i, -1);
    if (o < 0) return false;
    for (int k = 0; k < j->ns; k++) { /* (and rank 0's the class's own where it has one) */
        on[k] = k;
        int32_t q = j->rep[k][p];
        if ((c[k] = world_loop(&j->s[k], 0, 0, o)) < 1 ||
            (q >= 0 && j->s[k].step[q][i].len > 0 && j->s[k].step[q][i].iters != c[k]))
            return false;
    }
    *m = j->ns;
    return true;
}

static bool fit_loops(struct job *j, struct fitted *f, int p, int32_t n, double *own,
                      struct extrapolation *x, struct sim_error *err) {
    const struct scale *ts = &j->s[f->top];
    int32_t count = ts->count[f->tr];
    for (int32_t i = 0; i < count; i++) {
        const struct step *seen = NULL;
        int32_t c[MAX_SCALES];
        int on[MAX_SCALES], m = 0, most = 0;
        for (int k = 0; k < j->ns; k++) {
            int32_t q = j->rep[k][p];
            if (q < 0) continue;
            const struct step *st = &j->s[k].step[q][i];
            if (st->len > 0 && st->iters > most) {
                seen = st;
                most = st->iters;
            }
            on[m] = k;
            c[m++] = st->iters;
        }
        if (!seen) continue;
        int32_t iters = fit_count(j, on, c, m, n);
        if (iters < 0 && j->segments && world_counts(j, p, i, on, c, &m))
            iters = fit_count(j, on, c, m, n);
        const struct scale *s = &j->s[on[m - 1]];
        int32_t q = j->rep[on[m - 1]][p];
        double band = 0;
        int distinct = 0;
        for (int k = 0; k < m; k++)
            distinct += k == 0 || j->s[on[k]].n != j->s[on[k - 1]].n;
        if (iters < 0 && j->segments && distinct >= 3 &&
            (iters = fit_count_roughly(j, on, c, m, n, &band)) > 0 && band > x->iters_band) {
            x->iters_band = band;
            snprintf(x->iters_worst, sizeof x->iters_worst,
                     "record %d (%s, line %d) of %s's rank %d, %d times there, %d at %d",
                     s->ord[q][i], op_word(&s->rec[q][i]), s->rec[q][i].line, s->path, q,
                     s->step[q][i].iters, iters, n);
        }
        if (iters < 0)
            return err_set(err,
                           "%s: rank %d, record %d (%s, line %d): a loop whose iterations (%d "
                           "here) follow no law: a constant, a log2 of P or of the grid's "
                           "extents, or a size's law (a P^e + c ...) across the scales, nor "
                           "within %d%% a f + c of f = log2 P, P^1/3, P^1/2 or P (from 3 "
                           "scales)",
                           s->path, q, s->ord[q][i], op_word(&s->rec[q][i]), s->rec[q][i].line,
                           s->step[q][i].iters, COUNT_RESIDUAL_PERCENT);
        if (!f->loop) { /* the class's first loop */
            f->loop = xmalloc(sizeof *f->loop * (size_t)(count + 1));
            f->loop_of = xmalloc(sizeof *f->loop_of * (size_t)(count + 1));
            for (int32_t x = 0; x <= count; x++) {
                f->loop[x] = (struct step){.iters = 1};
                f->loop_of[x] = -1;
            }
        }
        for (int32_t x = i; x < i + seen->len && x < count; x++) {
            const struct step *st = seen + (x - i);
            f->loop[x] = (struct step){.iters = iters,
                                       .tag_dir = st->tag_dir,
                                       .req_dir = st->req_dir,
                                       .peer_dir = {st->peer_dir[0], st->peer_dir[1]}};
            f->loop_of[x] = i;
        }
        f->loop[i].len = seen->len;
        f->loop[i].gap = (float)loop_gap(j, p, i, own);
        i += seen->len - 1;
    }
    return true;
}

/* Record i of class p, a variable-count collective seen at scales on[k]:
 * its peers fitted exactly (the communicator's size), its mean counts per
 * peer sent and received as a burst is (the class's mean at each scale:
 * they depend on the data), and how far a count of the top scale is from
 * that mean said in x; false with why. */
static bool fit_counts(struct job *j, struct fitted *f, int p, int32_t i, const int *on, int m,
                       struct extrapolation *x, struct sim_error *err) {
    double sent[MAX_SCALES], received[MAX_SCALES], peers[MAX_SCALES], res;
    int law;
    for (int k = 0; k < m; k++) {
        const struct scale *s = &j->s[on[k]];
        int32_t dims[MAX_DIMS], n = 0;
        layout_dims(&j->l, s->n, dims);
        sent[k] = received[k] = 0;
        for (int32_t r = 0; r < s->n; r++)
            if (class_of(j, dims, r) == p) {
                sent[k] += s->step[r][i].sent;
                received[k] += s->step[r][i].received;
                n++;
            }
        sent[k] /= n ? n : 1;
        received[k] /= n ? n : 1;
        peers[k] = s->rec[j->rep[on[k]][p]][i].ncounts;
    }
    const struct scale *ts = &j->s[f->top];
    const struct trace_rec *rec = &ts->rec[f->tr][i];
    if (!f->sent) { /* the first of the class's */
        f->sent = xcalloc((size_t)ts->count[f->tr] + 1, sizeof *f->sent);
        f->received = xcalloc((size_t)ts->count[f->tr] + 1, sizeof *f->received);
        f->ncounts = xcalloc((size_t)ts->count[f->tr] + 1, sizeof *f->ncounts);
    }
    double ncounts = fit(&j->basis, on, peers, m, FIT_EXACT, &law, &res);
    if (res > 1e-9 || ncounts < 0.5)
        return err_set(err,
                       "%s: rank %d, record %d (%s, line %d): its communicator's size follows no "
                       "law across the scales",
                       ts->path, f->tr, ts->ord[f->tr][i], op_word(rec), rec->line);
    f->ncounts[i] = (int32_t)llround(ncounts);
    f->sent[i] = fmax(fit(&j->basis, on, sent, m, FIT_BURST, &law, &res), 0);
    f->received[i] = fmax(fit(&j->basis, on, received, m, FIT_BURST, &law, &res), 0);
    double top_sent = sent[m - 1], top_received = received[m - 1];
    int32_t dims[MAX_DIMS];
    layout_dims(&j->l, ts->n, dims);
    for (int32_t r = 0; r < ts->n; r++) {
        if (class_of(j, dims, r) != p) continue;
        const struct step *st = &ts->step[r][i];
        double off = fmax(st->spread[0], st->spread[1]);
        if (top_sent > 0) off = fmax(off, st->spread[0] + fabs(st->sent - top_sent) / top_sent);
        if (top_received > 0)
            off = fmax(off, st->spread[1] + fabs(st->received - top_received) / top_received);
        if (off > x->counts_spread || !x->counts_worst[0]) {
            x->counts_spread = fmax(off, x->counts_spread);
            snprintf(x->counts_worst, sizeof x->counts_worst,
                     "rank %d, record %d (%s, line %d) of %s: a count %.2g%% from its class's "
                     "mean",
                     r, ts->ord[r][i], op_word(&ts->rec[r][i]), ts->rec[r][i].line, ts->path,
                     100 * off);
        }
    }
    return true;
}

/* Record i of position p, a send whose sizes differ from rank to rank
 * (their means v at scales on, which no law gives exactly): the law
 * that fits them best (*size, its value at the target), if its residual
 * is within how far the ranks' sizes are from their means or within
 * SIZE_RESIDUAL_MAX (a domain of n + 1 points split in halves, miniFE's:
 * the low end's extent n/d + 1, the others' n/d, a face the product of
 * two; a size far from every law is refused); the band said. */
enum { SIZE_RESIDUAL_PERCENT = 5 };
#define SIZE_RESIDUAL_MAX (SIZE_RESIDUAL_PERCENT / 100.0)
static bool fit_mean_size(struct job *j, const struct fitted *f, int p, int32_t i, const int *on,
                          const double *v, int m, struct extrapolation *x, double *size,
                          struct sim_error *err) {
    const struct scale *ts = &j->s[f->top];
    const struct trace_rec *rec = &ts->rec[f->tr][i];
    int law;
    double res, spread = 0;
    *size = fit(&j->basis, on, v, m, FIT_BURST, &law, &res);
    for (int k = 0; k < m; k++) /* (a rank's repetitions' too) */
        spread = fmax(spread, fmax(j->spread[on[k]][p][i], j->s[on[k]].size_spread));
    if ((res > spread + 1e-9 && res > SIZE_RESIDUAL_MAX) || *size <= 0)
        return err_set(err,
                       "%s: rank %d, record %d (%s, line %d): the mean of its size over the ranks "
                       "at its position follows none of the laws across the scales (%.2g%% off, "
                       "farther than its ranks are from it, %.2g%%, and than %.2g%%)",
                       ts->path, f->tr, ts->ord[f->tr][i], op_word(rec), rec->line, 100 * res,
                       100 * spread, 100 * SIZE_RESIDUAL_MAX);
    double band = j->spread[f->top][p][i] + res;
    if (band > x->sizes_spread || !x->sizes_worst[0]) {
        x->sizes_spread = fmax(band, x->sizes_spread);
        snprintf(x->sizes_worst, sizeof x->sizes_worst,
                 "record %d (%s, line %d) of %s's rank %d and its position's, %.2g%% from their "
                 "mean, whose law is %.2g%% off",
                 ts->ord[f->tr][i], op_word(rec), rec->line, ts->path, f->tr,
                 100 * j->spread[f->top][p][i], 100 * res);
    }
    return true;
}

/* Where rank a of scale sa and rank b of sb, whose records differ in
 * number, first do different calls (their kinds, collectives' kinds and
 * peers' counts aside), as "; they part at ..." into out. */
static void parting(const struct scale *sa, int32_t a, const struct scale *sb, int32_t b, char *out,
                    size_t len) {
    int32_t i = 0, na = sa->count[a], nb = sb->count[b];
    while (i < na && i < nb && sa->rec[a][i].op == sb->rec[b][i].op &&
           sa->rec[a][i].coll == sb->rec[b][i].coll && sa->step[a][i].iters == sb->step[b][i].iters)
        i++;
    const struct trace_rec *x = i < na ? &sa->rec[a][i] : NULL, *y = i < nb ? &sb->rec[b][i] : NULL;
    int32_t at = i < na ? sa->ord[a][i] : sa->recorded[a] + 1;
    if (x && y && x->op == y->op && x->coll == y->coll)
        snprintf(out, len,
                 "; they part at its record %d (%s, line %d): a loop that runs %d time(s) there "
                 "and %d in the other",
                 at, op_word(x), x->line, sa->step[a][i].iters, sb->step[b][i].iters);
    else
        snprintf(out, len, "; they part at its record %d (%s, line %d), where the other has %s", at,
                 x ? op_word(x) : "its end", x ? x->line : 0, y ? op_word(y) : "its end");
}

/* Fits position p's numbers at n (once); false with why. */
static bool fit_position(struct job *j, struct fitted *f, int p, int32_t n, struct extrapolation *x,
                         struct sim_error *err) {
    double own[MAX_SCALES] = {0}; /* its bursts' own laws summed at each scale */
    f->top = -1;
    for (int k = 0; k < j->ns; k++)
        if (j->rep[k][p] >= 0 && (f->top < 0 || j->s[k].n > j->s[f->top].n)) f->top = k;
    if (f->top < 0)
        return err_set(err,
                       "a position on the %d-D grid of %d ranks that no rank of the traces has: "
                       "record the program at a scale where it has one (a grid of at least 3 in "
                       "each dimension)",
                       j->l.ndims, n);
    const struct scale *ts = &j->s[f->top];
    int32_t tr = f->tr = j->rep[f->top][p], tdims[MAX_DIMS];
    int seen = 0;
    for (int k = 0; k < j->ns; k++)
        seen += j->rep[k][p] >= 0;
    if (seen < x->thinnest) x->thinnest = seen;
    int distinct = 0; /* (a scale given twice is one) */
    for (int k = 0, last = 0; k < j->ns; k++)
        if (j->rep[k][p] >= 0 && j->s[k].n != last) {
            distinct++;
            last = j->s[k].n;
        }
    if (distinct == 1 && j->s[0].n != j->s[j->ns - 1].n && !x->one_scale[0])
        snprintf(x->one_scale, sizeof x->one_scale, "%s's rank %d", ts->path, tr);
    layout_dims(&j->l, ts->n, tdims);
    f->size = xcalloc((size_t)ts->count[tr] + 1, sizeof *f->size);
    f->size2 = xcalloc((size_t)ts->count[tr] + 1, sizeof *f->size2);
    f->color = xcalloc((size_t)ts->count[tr] + 1, sizeof *f->color);
    f->key = xcalloc((size_t)ts->count[tr] + 1, sizeof *f->key);
    f->color_lit = xcalloc((size_t)ts->count[tr] + 1, sizeof *f->color_lit);
    f->key_lit = xcalloc((size_t)ts->count[tr] + 1, sizeof *f->key_lit);
    f->done = true;
    f->burst = xcalloc((size_t)ts->count[tr] + 1, sizeof *f->burst);
    f->kind = xcalloc(2 * (size_t)ts->count[tr] + 2, sizeof *f->kind);
    f->code = xcalloc(2 * (size_t)ts->count[tr] + 2, sizeof *f->code);
    for (int k = 0; k < j->ns; k++) { /* as many records at every scale */
        int32_t q = j->rep[k][p];
        if (q >= 0 && j->s[k].count[q] != ts->count[tr] && j->s[k].recorded[q] == ts->recorded[tr])
            return err_set(err,
                           "%s: rank %d's %d records fold into %d where %s's rank %d, at the same "
                           "position on the %d-D grid, has its %d fold into %d: loops folded at "
                           "one scale are not at the other",
                           j->s[k].path, q, j->s[k].recorded[q], j->s[k].count[q], ts->path, tr,
                           j->l.ndims, ts->recorded[tr], ts->count[tr]);
        if (q >= 0 && j->s[k].count[q] != ts->count[tr]) {
            char where[200];
            parting(&j->s[k], q, ts, tr, where, sizeof where);
            return err_set(err,
                           "%s: rank %d has %d records where %s's rank %d, at the same position "
                           "on the %d-D grid, has %d: a count of records that changes with the "
                           "scale (iterations that depend on it) is not extended%s",
                           j->s[k].path, q, j->s[k].recorded[q], ts->path, tr, j->l.ndims,
                           ts->recorded[tr], where);
        }
    }
    for (int32_t i = 0; i < ts->count[tr]; i++) {
        const struct trace_rec *rec = &ts->rec[tr][i];
        if (rec->op == TOP_COMM_SPLIT && !split_readings(j, f, p, i, err)) return false;
        double v1[MAX_SCALES], v2[MAX_SCALES];
        int m = 0, on[MAX_SCALES];
        for (int k = 0; k < j->ns; k++) { /* the same record at every scale with this position */
            const struct scale *s = &j->s[k];
            int32_t q = j->rep[k][p], qdims[MAX_DIMS];
            if (q < 0) continue;
            layout_dims(&j->l, s->n, qdims);
            const struct step *sq = &s->step[q][i], *st = &ts->step[tr][i];
            bool same = s->count[q] == ts->count[tr] && same_shape(&s->rec[q][i], rec) &&
                        same_loop(sq, st, false);
            for (int c = 0; c < peers_of(rec) && same; c++)
                same = (j->kinds[p][2 * i + c] &= (uint8_t)same_kinds(
                            &j->l, qdims, q, &s->rec[q][i], sq, tdims, tr, rec, st, c));
            if (!same)
                return err_set(
                    err,
                    "%s: rank %d, record %d (%s, line %d): the pattern of its position changes "
                    "with the scale (%s's rank %d does %s there): no law extends it",
                    s->path, q, i < s->count[q] ? s->ord[q][i] : s->recorded[q] + 1,
                    i < s->count[q] ? op_word(&s->rec[q][i]) : "its end",
                    i < s->count[q] ? s->rec[q][i].line : 0, ts->path, tr, op_word(rec));
            on[m] = k;
            v1[m] = rec->op == TOP_COMPUTE || has_counts(rec) || (j->banded && sends_size(rec))
                        ? j->mean[k][p][i]
                        : (double)s->rec[q][i].size;
            v2[m++] = (double)s->rec[q][i].size2;
        }
        int law;
        bool burst = rec->op == TOP_COMPUTE, varied = has_counts(rec);
        double res, ca, cc,
            size = fit_coef(&j->basis, on, v1, m, burst || varied ? FIT_BURST : FIT_EXACT, &law,
                            &res, &ca, &cc);
        for (int k = 0; k < m && burst; k++) /* its law at each scale, as often as it runs */
            own[on[k]] += (ca * j->basis.at[law < 0 ? -law : law][on[k]] + cc) *
                          j->s[on[k]].step[j->rep[on[k]][p]][i].iters;
        if (varied && !fit_counts(j, f, p, i, on, m, x, err)) return false;
        if (!burst && !varied && res > 1e-9 && j->banded && sends_size(rec) &&
            !fit_mean_size(j, f, p, i, on, v1, m, x, &size, err))
            return false;
        if (!burst && !varied && res > 1e-9 && !(j->banded && sends_size(rec)))
            return err_set(
                err,
                "%s: rank %d, record %d (%s, line %d): its size follows none of the "
                "laws a x P^e (e = 0, +-1, -2, +-1/2, -1/3, -2/3, -3/2), nor a product of "
                "the grid's extents' powers (0, +-1/2, +-1, +-2), across the scales%s",
                ts->path, tr, ts->ord[tr][i], op_word(rec), rec->line,
                m < 3 ? " (its position is on the grid of two of them only: record "
                        "the program where the grid has three ranks or more in each "
                        "dimension)"
                      : "");
        f->burst[i] = burst ? fmax(size, 0) : 0;
        f->size[i] = size > 0 ? (int64_t)llround(size) : 0;
        if (rec->size < 0 && (rec->op == TOP_RECV || rec->op == TOP_IRECV)) f->size[i] = -1;
        double size2 = fit(&j->basis, on, v2, m, true, &law, &res);
        f->size2[i] = size2 > 0 ? (int64_t)llround(size2) : rec->size2;
        x->fields += m > 1;
        for (int c = 0; c < 2; c++) { /* the first kind that holds */
            unsigned kind = j->kinds[p][2 * i + c];
            kind &= -kind;
            f->kind[2 * i + c] = (uint8_t)kind;
            f->code[2 * i + c] = code_of(&j->l, tdims, tr, rec, c, kind, &ts->step[tr][i]);
        }
    }
    if (!fit_loops(j, f, p, n, own, x, err)) return false;
    scale_computation(j, f, p, own, x);
    return true;
}

/* Record i of rank r of the target of n ranks (its class fitted as f),
 * at iteration t of its loop, into rec, its lists copied
 * (trace_rec_clear frees them). */
static void fill_record(const struct job *j, const struct fitted *f, int32_t r, int32_t i,
                        int32_t t, int32_t n, const int32_t *dims, struct trace_rec *rec) {
    const struct scale *ts = &j->s[f->top];
    *rec = ts->rec[f->tr][i];
    rec->next = NULL;
    rec->size = f->size[i];
    rec->size2 = f->size2[i];
    rec->rank = r;
    if (rec->op == TOP_COMM_SPLIT && rec->color != SIM_UNDEFINED) {
        rec->color = reading_at(&j->l, dims, r, f->color[i], f->color_lit[i]);
        rec->key = reading_at(&j->l, dims, r, f->key[i], f->key_lit[i]);
    }
    const struct step *st = loop_at(f, i);
    rec->tag = stepped(rec->tag, st->tag_dir, t, st->iters);
    rec->req = stepped(rec->req, st->req_dir, t, st->iters);
    rec->tag2 = stepped(rec->tag2, st->tag_dir, t, st->iters);
    for (int k = 0; k < peers_of(rec); k++) {
        int32_t q = kind_peer(&j->l, dims, n, r, f->code[2 * i + k], f->kind[2 * i + k],
                              st->peer_dir[k], t, st->iters);
        *(k ? &rec->peer2 : &rec->peer) = q;
    }
    if (has_counts(rec)) {
        rec->ncounts = f->ncounts[i];
        rec->counts = xcalloc(2 * (size_t)rec->ncounts, sizeof *rec->counts);
        for (int32_t q = 0; q < rec->ncounts; q++) {
            rec->counts[q] = rec->mode & 1 ? (int64_t)llround(f->sent[i]) : 0;
            rec->counts[rec->ncounts + q] = rec->mode & 2 ? (int64_t)llround(f->received[i]) : 0;
        }
    }
    if (rec->nids) {
        rec->ids = xmalloc(sizeof *rec->ids * (size_t)rec->nids);
        memcpy(rec->ids, ts->rec[f->tr][i].ids, sizeof *rec->ids * (size_t)rec->nids);
    }
}

static void fitted_free(struct fitted *f) {
    free(f->size);
    free(f->size2);
    free(f->burst);
    free(f->color);
    free(f->key);
    free(f->color_lit);
    free(f->key_lit);
    free(f->codes);
    free(f->code_rec);
    free(f->kind);
    free(f->code);
    free(f->loop);
    free(f->loop_of);
    free(f->sent);
    free(f->received);
    free(f->ncounts);
}

/* The peer fields of class f's template, one for each code, kind and
 * loop, with the record that has it (a rank's peers fall off the grid or
 * not by these): codes holds 2 i + k. */
static void note_codes(const struct job *j, struct fitted *f) {
    const struct scale *ts = &j->s[f->top];
    for (int32_t i = 0; i < ts->count[f->tr]; i++) {
        const struct trace_rec *rec = &ts->rec[f->tr][i];
        for (int k = 0; k < peers_of(rec); k++) {
            int32_t c = 2 * i + k;
            bool known = f->code[c] < 0;
            for (int32_t q = 0; q < f->ncodes && !known; q++) {
                int32_t o = f->codes[q];
                known = f->code[o] == f->code[c] && f->kind[o] == f->kind[c] &&
                        loop_at(f, o / 2)->iters == loop_at(f, i)->iters &&
                        loop_at(f, o / 2)->peer_dir[o % 2] == loop_at(f, i)->peer_dir[k];
            }
            if (known) continue;
            f->codes = xrealloc_or_die(f->codes, sizeof *f->codes * (size_t)(f->ncodes + 1));
            f->code_rec =
                xrealloc_or_die(f->code_rec, sizeof *f->code_rec * (size_t)(f->ncodes + 1));
            f->codes[f->ncodes] = c;
            f->code_rec[f->ncodes++] = i;
        }
    }
}

/* Whether peer field c (2 i + k) of class f names a rank of the target's
 * grid from rank r at every iteration of its loop. */
static bool peers_on_grid(const struct job *j, const struct fitted *f, int32_t n,
                          const int32_t *dims, int32_t r, int32_t c) {
    const struct step *st = loop_at(f, c / 2);
    for (int32_t t = 0; t < st->iters; t++) {
        if (kind_peer(&j->l, dims, n, r, f->code[c], f->kind[c], st->peer_dir[c % 2], t,
                      st->iters) < 0)
            return false;
        if (!st->peer_dir[c % 2]) break; /* the same at every iteration */
    }
    return true;
}

/* A target being generated: the job, the classes fitted at it, each
 * rank's class and next record. */
struct extrapolator {
    struct job *j;
    int32_t target, dims[MAX_DIMS];
    struct fitted fit_of[64];
    uint8_t *cls;
    int32_t *next, *iter; /* each rank's next record, and its loop's iteration */
};

/* Fits every class of the target and checks that no rank's peer falls off
 * its grid; false with why. */
static int scales_seen(const struct job *j, int p) {
    int seen = 0;
    for (int k = 0; k < j->ns; k++)
        seen += j->rep[k][p] >= 0;
    return seen;
}

/* The distinct rank counts of the scales class p is seen at (a scale
 * recorded several times counts once). */
static int distinct_scales_seen(const struct job *j, int p) {
    int seen = 0;
    int32_t last = -1;
    for (int k = 0; k < j->ns; k++) /* (sorted by their rank counts) */
        if (j->rep[k][p] >= 0 && j->s[k].n != last) {
            seen++;
            last = j->s[k].n;
        }
    return seen;
}

static bool plain_collective(const struct trace_rec *x) {
    return (x->op == TOP_COLL || x->op == TOP_ICOLL) && !has_counts(x);
}

/* Every rank calls a collective with the same count (MPI's rule): a
 * class seen at fewer scales than another (a 3-D grid's inside, at the
 * largest only) takes the sizes that class's laws give its collectives,
 * one by one in their order, where they are the same calls. */
static void collectives_alike(struct extrapolator *e) {
    const struct job *j = e->j;
    int ref = -1, most = 0;
    for (int p = 0; p < 64; p++)
        if (e->fit_of[p].done && scales_seen(j, p) > most) {
            most = scales_seen(j, p);
            ref = p;
        }
    if (ref < 0) return;
    const struct fitted *fr = &e->fit_of[ref];
    const struct scale *rs = &j->s[fr->top];
    for (int p = 0; p < 64; p++) {
        struct fitted *f = &e->fit_of[p];
        if (!f->done || p == ref || scales_seen(j, p) >= most || j->rep[f->top][ref] < 0) continue;
        const struct scale *ts = &j->s[f->top];
        const struct trace_rec *there = ts->rec[j->rep[f->top][ref]]; /* ref's, at f's scale */
        int32_t a = 0, b = 0, na = rs->count[fr->tr], nb = ts->count[f->tr];
        for (;;) {
            while (a < na && !plain_collective(&rs->rec[fr->tr][a]))
                a++;
            while (b < nb && !plain_collective(&ts->rec[f->tr][b]))
                b++;
            if (a == na || b == nb) break;
            const struct trace_rec *x = &rs->rec[fr->tr][a], *y = &ts->rec[f->tr][b];
            if (x->op != y->op || x->coll != y->coll || x->comm != y->comm ||
                there[a].size != y->size || loop_at(fr, a)->iters != loop_at(f, b)->iters)
                break; /* (the same at the scale f comes from: the calls match) */
            f->size[b] = fr->size[a];
            f->size2[b] = fr->size2[a];
            a++;
            b++;
        }
    }
}

/* Whether record a of class fa and record b of class fb carry one
 * message: the same call to the same neighbour (its kind of peer and
 * code), run as many times, with the same size at the scale b comes from
 * (there: fa's class's records at that scale). */
static bool same_message(const struct fitted *fa, int32_t a, const struct trace_rec *x,
                         const struct trace_rec *there, const struct fitted *fb, int32_t b,
                         const struct trace_rec *y) {
    bool same = x->op == y->op && x->comm == y->comm && there[a].size == y->size &&
                there[a].size2 == y->size2 && loop_at(fa, a)->iters == loop_at(fb, b)->iters;
    for (int c = 0; c < peers_of(y) && same; c++)
        same = fa->kind[2 * a + c] == fb->kind[2 * b + c] &&
               fa->code[2 * a + c] == fb->code[2 * b + c];
    return same;
}

/* A class seen at one scale only (a 3-D grid's inside at the largest)
 * has no law of its own: each of its point-to-point calls that a class
 * seen at several scales makes too, to the same neighbour with the same
 * size there (a face of the same extents), takes that class's size at
 * the target (the most scales first); the others keep theirs. */
static void messages_alike(struct extrapolator *e) {
    const struct job *j = e->j;
    for (int p = 0; p < 64; p++) {
        struct fitted *f = &e->fit_of[p];
        if (!f->done || distinct_scales_seen(j, p) != 1 || j->s[0].n == j->s[j->ns - 1].n) continue;
        const struct scale *ts = &j->s[f->top];
        for (int32_t b = 0; b < ts->count[f->tr]; b++) {
            const struct trace_rec *y = &ts->rec[f->tr][b];
            if (!peers_of(y) || y->op == TOP_COMPUTE) continue;
            int most = 1;
            for (int q = 0; q < 64; q++) {
                const struct fitted *fq = &e->fit_of[q];
                int seen = distinct_scales_seen(j, q);
                if (!fq->done || seen <= most || j->rep[f->top][q] < 0) continue;
                const struct scale *qs = &j->s[fq->top];
                const struct trace_rec *there = ts->rec[j->rep[f->top][q]];
                int32_t nq = ts->count[j->rep[f->top][q]];
                for (int32_t a = 0; a < qs->count[fq->tr] && a < nq; a++)
                    if (same_message(fq, a, &qs->rec[fq->tr][a], there, f, b, y)) {
                        f->size[b] = fq->size[a];
                        f->size2[b] = fq->size2[a];
                        most = seen;
                        break;
                    }
            }
        }
    }
}

/* Says in x a dimension of the grid whose extent the scales do not
 * change and the target does (sizes that depend on it alone cannot be
 * told from constants). */
static void note_unseen_dims(const struct job *j, const int32_t *target_dims, int32_t target,
                             struct extrapolation *x) {
    int32_t first[MAX_DIMS];
    layout_dims(&j->l, j->s[0].n, first);
    for (int i = 0; i < j->l.ndims && j->l.ndims > 1; i++) {
        bool same = true;
        for (int k = 1; k < j->ns && same; k++) {
            int32_t d[MAX_DIMS];
            layout_dims(&j->l, j->s[k].n, d);
            same = d[i] == first[i];
        }
        if (same && target_dims[i] != first[i]) {
            snprintf(x->unseen_dim, sizeof x->unseen_dim,
                     "dimension %d of the grid is %d at every scale and %d at %d ranks", i + 1,
                     first[i], target_dims[i], target);
            return;
        }
    }
}

static bool prepare_target(struct extrapolator *e, struct extrapolation *x, struct sim_error *err) {
    struct job *j = e->j;
    if (j->l.bisected && (e->target & (e->target - 1)))
        return err_set(err,
                       "ranks laid out by recursive bisection extend to 2^k ranks only, not %d",
                       e->target);
    layout_dims(&j->l, e->target, e->dims);
    x->ndims = j->l.ndims;
    x->periodic = j->l.periodic;
    x->bisected = j->l.bisected;
    x->thinnest = MAX_SCALES + 1;
    x->worst_share = -1; /* the worst class named, even at 0% */
    int64_t members[64] = {0};
    for (int32_t r = 0; r < e->target; r++) {
        struct fitted *f = &e->fit_of[e->cls[r] = (uint8_t)class_of(j, e->dims, r)];
        members[e->cls[r]]++;
        if (f->done) continue;
        x->classes++;
        if (!fit_position(j, f, e->cls[r], e->target, x, err)) return false;
        layout_dims(&j->l, j->s[f->top].n, f->tdims);
        note_codes(j, f);
    }
    collectives_alike(e);
    messages_alike(e);
    note_unseen_dims(j, e->dims, e->target, x);
    for (int p = 0; p < 64; p++) {
        x->deviation += (double)members[p] * e->fit_of[p].deviation;
        x->computation += (double)members[p] * e->fit_of[p].computation;
    }
    x->worst_error = x->computation > 0 ? x->deviation / x->computation : 0;
    const struct scale *top = &j->s[j->ns - 1];
    if (j->banded && top->size_spread > x->sizes_spread) {
        x->sizes_spread = top->size_spread;
        snprintf(x->sizes_worst, sizeof x->sizes_worst,
                 "record %d of %s's rank %d, %.2g%% from its mean over its loop's repetitions",
                 top->size_worst_ord, top->path, top->size_worst_rank, 100 * top->size_spread);
    }
    for (int32_t r = 0; r < e->target; r++) {
        const struct fitted *f = &e->fit_of[e->cls[r]];
        for (int32_t q = 0; q < f->ncodes; q++)
            if (!peers_on_grid(j, f, e->target, e->dims, r, f->codes[q])) {
                const struct scale *ts = &j->s[f->top];
                int32_t i = f->code_rec[q];
                return err_set(err,
                               "rank %d of %d, record %d (%s): its peer falls off the grid, where "
                               "%s's rank %d has one",
                               r, e->target, ts->ord[f->tr][i], op_word(&ts->rec[f->tr][i]),
                               ts->path, f->tr);
            }
    }
    return true;
}

static void extrapolator_free(struct extrapolator *e) {
    if (!e) return;
    for (int p = 0; p < 64; p++)
        fitted_free(&e->fit_of[p]);
    free(e->cls);
    free(e->next);
    free(e->iter);
    free(e);
}

static void job_free(struct job *j) {
    for (int p = 0; p < 64; p++)
        free(j->kinds[p]);
    for (int k = 0; k < j->ns; k++) {
        unload(&j->s[k]);
        for (int p = 0; p < 64; p++) {
            free(j->mean[k][p]);
            free(j->spread[k][p]);
        }
    }
    free(j);
}

struct grid_of_scale {
    const struct layout *l;
    int32_t dims[MAX_DIMS];
};

static int32_t code_on_grid(const void *ctx, int32_t rank, int32_t peer) {
    const struct grid_of_scale *g = ctx;
    return peer_code(g->l, g->dims, rank, peer);
}

/* Sorts each rank's runs of calls to its neighbours by their offsets on
 * layout l (a program that orders them by their ranks, on a layout where
 * that order differs from rank to rank). */
static void sort_runs(struct job *j, const struct layout *l) {
    for (int k = 0; k < j->ns; k++) {
        struct scale *s = &j->s[k];
        struct grid_of_scale g = {.l = l};
        layout_dims(l, s->n, g.dims);
        int64_t runs = 0;
        for (int32_t r = 0; r < s->n; r++)
            runs += sort_neighbour_runs(s->rec[r], s->ord[r], s->step[r], s->count[r], r,
                                        code_on_grid, &g);
        SIMPI_LOG(LOG_TRACE, SIMTIME_NEVER, "extrapolate: %s: %lld runs of calls sorted", s->path,
                  (long long)runs);
    }
}

/* Tries layout l with the job: fitted for the target and checked (e
 * prepared), or false with why. */
static bool try_layout(struct job *j, const struct layout *l, struct extrapolator *e,
                       struct extrapolation *x, struct sim_error *err) {
    j->l = *l;
    for (int p = 0; p < 64; p++)
        fitted_free(&e->fit_of[p]);
    memset(e->fit_of, 0, sizeof e->fit_of);
    *x = (struct extrapolation){0};
    if (j->sorted && !(l->bisected && !power_of_two_scales(j))) sort_runs(j, l);
    j->templates_ok = false;
    if (!layout_fits(j, err)) return false;
    j->templates_ok = true;
    merge_positions(j);
    burst_means(j);
    typical_computation(j);
    basis_prepare(j, e->target);
    return prepare_target(e, x, err);
}

static const struct layout layouts[] = {
    {2, false, false, false}, {2, true, false, false}, {1, false, false, false},
    {3, false, false, false}, {3, true, false, false}, {1, false, true, false},
    {2, false, true, false},  {2, true, true, false},  {3, false, true, false},
    {3, true, true, false},   {3, false, false, true}, {2, false, false, true}};
enum { NLAYOUTS = sizeof layouts / sizeof *layouts };

/* Of the layouts every scale follows and that extend to the target, the
 * one whose thinnest class is on the most scales (the laws of a class
 * seen at one scale are no laws: with no peers to tell, a 1-D grid's
 * three positions beat a 2-D grid's inside seen once), the first of
 * those; -1 with the first layout's why if none. */
static int choose_layout(struct job *j, struct extrapolator *e, struct sim_error *err) {
    int best = -1, best_thinnest = 0;
    for (int i = 0; i < NLAYOUTS && best_thinnest < j->ns; i++) {
        struct sim_error why = {0};
        struct extrapolation dry;
        bool fits = try_layout(j, &layouts[i], e, &dry, &why);
        SIMPI_LOG(LOG_TRACE, SIMTIME_NEVER,
                  "extrapolate: layout %d-D%s%s%s, %s: %s (its thinnest class on %d scales)",
                  j->l.ndims, j->l.reversed ? " reversed" : "", j->l.periodic ? " periodic" : "",
                  j->l.bisected ? " bisected" : "", fold_words[j->mode], fits ? "fits" : why.msg,
                  fits ? dry.thinnest : 0);
        if (!fits && !err->set) *err = why;
        if (!fits && j->templates_ok && !j->furthest.set) j->furthest = why;
        if (fits && dry.thinnest > best_thinnest) {
            best = i;
            best_thinnest = dry.thinnest;
        }
    }
    return best;
}

/* Scale k's segments brought to the order of the largest scale's
 * (extrapolate_align.h), noted in j; false with why where they cannot. */
static bool align_scale(struct job *j, int k, struct sim_error *err) {
    struct scale *s = &j->s[k];
    const struct scale *ref = &j->s[j->ns - 1];
    struct align_ranks a = {s->rec, s->ord, s->step, s->count, s->n};
    int32_t edits, segments;
    if (!align_segments(&a, ref->rec[0], ref->count[0], &edits, &segments))
        return err_set(err,
                       "%s and %s differ in their collectives in a way no law of P explains, "
                       "and too much (or in calls that cannot be left out) to follow the "
                       "largest scale's order",
                       s->path, ref->path);
    double share = segments ? (double)edits / segments : 0;
    if (edits && share >= j->aligned_share) {
        j->aligned_share = share;
        snprintf(j->aligned_where, sizeof j->aligned_where,
                 "%s: %d of %d segments left out, moved or repeated to follow %s", s->path, edits,
                 segments, ref->path);
    }
    return true;
}

/* Loads the scales, folded as mode says, smallest first; false with why. */
static bool load_scales(struct job *j, char *const *paths, int npaths, enum fold_mode mode,
                        struct sim_error *err) {
    for (int k = 0; k < j->ns; k++)
        unload(&j->s[k]);
    memset(j->s, 0, sizeof j->s);
    j->ns = 0;
    bool ok = true;
    for (int k = 0; k < npaths && ok; k++, j->ns++)
        ok = load(&j->s[k], paths[k], j->banded, err);
    for (int a = 0; ok && a < j->ns; a++)
        for (int b = a + 1; b < j->ns; b++)
            if (j->s[b].n < j->s[a].n) {
                struct scale t = j->s[a];
                j->s[a] = j->s[b];
                j->s[b] = t;
            }
    j->aligned_share = 0;
    j->aligned_where[0] = '\0';
    for (int k = 0; ok && j->aligned && k < j->ns - 1; k++)
        ok = align_scale(j, k, err);
    struct fifo_comms fifo = {0};
    for (int k = 0; ok && mode == FOLD_REPEATED && k < j->ns; k++)
        fifo_check(j->s[k].rec, j->s[k].count, j->s[k].n, &fifo);
    for (int k = 0; ok && k < j->ns; k++) {
        struct scale *s = &j->s[k];
        if (mode == FOLD_REPEATED) drop_tags(s->rec, s->count, s->n, &fifo);
        s->folded = mode == FOLD_NONE ? -1 : 0;
        for (int32_t r = 0; mode != FOLD_NONE && r < s->n; r++) {
            int32_t before = s->count[r];
            unsigned how = (mode == FOLD_REPEATED ? FOLD_ANY_BLOCK : 0u) |
                           (j->banded ? FOLD_SEND_SIZES : 0u) |
                           (j->rank_peers ? FOLD_RANK_STEPS : 0u) |
                           (j->segments && mode == FOLD_REPEATED ? FOLD_SEGMENTS : 0u);
            double spread = s->size_spread;
            int32_t worst = 0;
            if (j->rank_peers) wait_all_outstanding(s->rec[r], s->count[r]);
            s->count[r] = fold_step_loops(s->rec[r], s->ord[r], s->step[r], s->count[r], r, how,
                                          &s->size_spread, &worst);
            if (s->size_spread > spread) {
                s->size_worst_rank = r;
                s->size_worst_ord = worst;
            }
            s->folded += s->count[r] < before;
        }
        SIMPI_LOG(LOG_TRACE, SIMTIME_NEVER,
                  "extrapolate: %s: %s, rank 0 has %d records, %d ranks a loop folded", s->path,
                  fold_words[mode], s->n ? s->count[0] : 0, s->folded);
    }
    j->mode = mode;
    return ok;
}

/* The ways of reading the scales tried in turn (the layouts for each),
 * the exact ones first; the layout chosen, or -1 with why in err;
 * *loaded false if a scale could not be read again. */
static int try_every_way(struct job *j, struct extrapolator *e, char *const *paths, int npaths,
                         bool *loaded, struct sim_error *err) {
    int folded = 0;
    for (int k = 0; k < j->ns; k++)
        folded += j->s[k].folded;
    struct sim_error with_loops = {0}, plain = {0}, repeated = {0};
    int best = choose_layout(j, e, &with_loops);
    /* a sequence that steps at a small scale by chance (a 2 x 2 grid's
     * neighbours are rank XOR 1 and XOR 2) is no loop if the records
     * unfolded extend */
    *loaded = true;
    if (best < 0 && folded && (*loaded = load_scales(j, paths, npaths, FOLD_NONE, err)))
        best = choose_layout(j, e, &plain);
    /* then blocks repeated a number of times that grows with P, which
     * folding every repetition would find in any program (LU's planes,
     * their bursts then averaged): tried last */
    if (best < 0 && *loaded && (*loaded = load_scales(j, paths, npaths, FOLD_REPEATED, err)))
        best = choose_layout(j, e, &repeated);
    /* last, sends whose sizes differ from rank to rank (a cell's extents
     * at the domain's edge, NPB SP's) as their class's mean, said */
    /* and with each rank's calls to its neighbours in the order of their
     * places on the grid, not of their ranks (miniFE's), sizes exact,
     * then as their means */
    static const struct {
        bool banded, sorted;
        enum fold_mode mode;
    } fallbacks[] = {{true, false, FOLD_STEPPED},  {true, false, FOLD_NONE},
                     {true, false, FOLD_REPEATED}, {false, true, FOLD_STEPPED},
                     {false, true, FOLD_NONE},     {true, true, FOLD_STEPPED},
                     {true, true, FOLD_NONE}};
    for (size_t k = 0; k < sizeof fallbacks / sizeof *fallbacks && best < 0 && *loaded; k++) {
        struct sim_error ignored = {0};
        j->banded = fallbacks[k].banded;
        j->sorted = fallbacks[k].sorted;
        if ((*loaded = load_scales(j, paths, npaths, fallbacks[k].mode, err)))
            best = choose_layout(j, e, &ignored);
    }
    if (best < 0 && j->furthest.set)
        *err = j->furthest; /* where a layout that fits every scale's ranks broke */
    else if (best < 0 && plain.set)
        err_set(err, "%s (its stepped loops not folded: %s)", with_loops.msg, plain.msg);
    else if (best < 0)
        *err = with_loops;
    return best;
}

struct extrapolator *extrapolator_open(char *const *paths, int npaths, int32_t target,
                                       struct extrapolation *x, struct sim_error *err) {
    *x = (struct extrapolation){0};
    if (npaths < 1 || npaths > MAX_SCALES) {
        err_set(err,
                "give the traces of 2 to %d scales of one program (3 or more: the laws are "
                "checked)",
                MAX_SCALES);
        return NULL;
    }
    struct job *j = xcalloc(1, sizeof *j);
    if (!load_scales(j, paths, npaths, FOLD_STEPPED, err)) {
        job_free(j);
        return NULL;
    }
    if (j->s[0].n == j->s[j->ns - 1].n && j->s[0].n != target) {
        /* one scale (a trace, or recordings of it): no law, its own N only */
        err_set(err,
                "the traces are of %d ranks each: give 2 scales or more to extend them (3 or "
                "more: the laws are checked); at their own %d ranks, each burst is its class's "
                "mean",
                j->s[0].n, j->s[0].n);
        job_free(j);
        return NULL;
    }
    struct extrapolator *e = xcalloc(1, sizeof *e);
    e->j = j;
    e->target = target;
    e->cls = xmalloc((size_t)target);
    e->next = xcalloc((size_t)target, sizeof *e->next);
    e->iter = xcalloc((size_t)target, sizeof *e->iter);
    bool loaded;
    int best = try_every_way(j, e, paths, npaths, &loaded, err);
    struct sim_error first = *err;
    /* then peers that are ranks of their own (a master and its workers) */
    if (best < 0 && loaded) {
        struct sim_error second = {0};
        j->rank_peers = true;
        j->banded = j->sorted = false;
        j->furthest = (struct sim_error){0};
        if (load_scales(j, paths, npaths, FOLD_STEPPED, &second))
            best = try_every_way(j, e, paths, npaths, &loaded, &second);
        *err = best < 0 ? first : (struct sim_error){0};
        loaded = true;
    }
    /* then time steps whose count follows the physics, a law of P only
     * roughly (LULESH's run to its stop time): loops of whole segments */
    for (int banded = 0; best < 0 && loaded && banded < 2; banded++) {
        struct sim_error ignored = {0};
        j->rank_peers = j->sorted = false;
        j->segments = true;
        j->banded = banded;
        j->furthest = (struct sim_error){0};
        if (load_scales(j, paths, npaths, FOLD_REPEATED, &ignored))
            best = choose_layout(j, e, &ignored);
        *err = best < 0 ? first : (struct sim_error){0};
    }
    /* last of all, the scales' segments in the largest scale's order
     * where they differ by what no law explains (a solver's iterations
     * to a tolerance), said; the first why kept if that does not extend */
    if (best < 0 && loaded && j->ns > 1) {
        struct sim_error second = {0};
        j->segments = false;
        j->rank_peers = true;
        j->aligned = true;
        j->banded = j->sorted = false;
        j->furthest = (struct sim_error){0};
        if (load_scales(j, paths, npaths, FOLD_STEPPED, &second) && j->aligned_where[0])
            best =
                try_every_way(j, e, paths, npaths, &loaded, &second); /* (none moved: as before) */
        *err = best < 0 ? first : (struct sim_error){0};
        loaded = true;
    }
    if (!loaded) {
        extrapolator_close(e);
        return NULL;
    }
    if (best < 0 || !try_layout(j, &layouts[best], e, x, err)) {
        extrapolator_close(e);
        return NULL;
    }
    x->aligned_share = j->aligned_share;
    snprintf(x->aligned, sizeof x->aligned, "%s", j->aligned_where);
    return e;
}

int extrapolator_next(struct extrapolator *e, int32_t rank, struct trace_rec *r,
                      const struct trace_reader **names) {
    if (rank < 0 || rank >= e->target) return 0;
    const struct fitted *f = &e->fit_of[e->cls[rank]];
    const struct scale *ts = &e->j->s[f->top];
    for (;;) {
        int32_t i = e->next[rank], s = i > 0 && f->loop_of ? f->loop_of[i - 1] : -1;
        if (s >= 0 && i == s + f->loop[s].len) { /* an iteration done */
            if (++e->iter[rank] < f->loop[s].iters) {
                e->next[rank] = s;
                int64_t gap = (int64_t)llround(f->loop[s].gap);
                if (gap <= 0) continue;
                *r = (struct trace_rec){.op = TOP_COMPUTE, .size = gap, .rank = rank, .req = -1};
                *names = ts->t;
                return 1;
            }
            e->iter[rank] = 0;
        }
        if (i >= ts->count[f->tr]) return 0;
        if (f->loop && f->loop[i].len > 0 && f->loop[i].iters == 0) { /* none at this scale */
            e->next[rank] = i + f->loop[i].len;
            e->iter[rank] = -1;
            continue;
        }
        e->next[rank]++;
        const struct trace_rec *t = &ts->rec[f->tr][i];
        if (t->op == TOP_COMPUTE && f->size[i] == 0 && t->flops == 0) continue; /* none */
        fill_record(e->j, f, rank, i, e->iter[rank], e->target, e->dims, r);
        *names = ts->t;
        return 1;
    }
}

const char *extrapolation_grid_word(const struct extrapolation *x) {
    return x->periodic ? " periodic" : x->bisected ? " bisected" : "";
}

void extrapolation_say_counts(const struct extrapolation *x, FILE *f, const char *prefix) {
    if (x->unseen_dim[0])
        fprintf(f,
                "%swarning: %s: a size or burst that depends on it is taken as one that does "
                "not; record a scale where it changes\n",
                prefix, x->unseen_dim);
    if (x->one_scale[0])
        fprintf(f,
                "%swarning: ranks at a position of the grid that one scale only has (%s, and "
                "its like) take that scale's sizes and bursts as they are, with no law: "
                "collectives, and messages that another position sends to the same neighbour "
                "with the same size there, take that position's laws; record a larger scale "
                "that has them too\n",
                prefix, x->one_scale);
    if (x->iters_worst[0])
        fprintf(f,
                "%sloops whose iterations follow no law exactly extended by the nearest one: "
                "within %.2g%% of it at every scale (the farthest: %s)\n",
                prefix, 100 * x->iters_band, x->iters_worst);
    if (x->aligned[0])
        fprintf(f,
                "%swarning: the scales differ by what no law of P explains (iterations to a "
                "tolerance, a test taken at another iteration: the data's, not the scale's); "
                "the target follows the largest scale's order, %.2g%% of a scale's segments "
                "(records up to a collective) left out, moved or repeated (the most: %s)\n",
                prefix, 100 * x->aligned_share, x->aligned);
    if (x->sizes_worst[0])
        fprintf(f,
                "%ssends whose sizes differ from rank to rank or from one repetition to the next "
                "extended as their class's mean: a size of the largest scale is within %.2g%% of "
                "it (the farthest: %s)\n",
                prefix, 100 * x->sizes_spread, x->sizes_worst);
    if (!x->counts_worst[0]) return;
    fprintf(f,
            "%svariable counts (they depend on the data) extended as their mean per peer; a "
            "count of the largest scale is within %.2g%% of its class's (the farthest: %s)\n",
            prefix, 100 * x->counts_spread, x->counts_worst);
}

int32_t extrapolator_ranks(const struct extrapolator *e) {
    return e->target;
}

void extrapolator_close(struct extrapolator *e) {
    if (!e) return;
    job_free(e->j);
    extrapolator_free(e);
}

bool extrapolate(char *const *paths, int npaths, int32_t target, FILE *out, struct extrapolation *x,
                 struct sim_error *err) {
    struct extrapolator *e = extrapolator_open(paths, npaths, target, x, err);
    if (!e) return false;
    const struct job *j = e->j;
    fprintf(out,
            "simpi-trace 1\nranks %d\n# extrapolated by simpi from %d scales (%d to %d ranks) on a "
            "%d-D%s grid\n",
            target, j->ns, j->s[0].n, j->s[j->ns - 1].n, j->l.ndims, extrapolation_grid_word(x));
    /* interleaved by how far through its template each rank is (a corner,
     * with fewer messages, has fewer records an iteration): a replay reads
     * the ranks about abreast in time */
    int32_t longest = 0;
    for (int p = 0; p < 64; p++)
        if (e->fit_of[p].done && j->s[e->fit_of[p].top].count[e->fit_of[p].tr] > longest)
            longest = j->s[e->fit_of[p].top].count[e->fit_of[p].tr];
    for (int64_t t = 1; t <= longest; t++)
        for (int32_t r = 0; r < target; r++) {
            const struct fitted *f = &e->fit_of[e->cls[r]];
            int32_t upto = (int32_t)(t * j->s[f->top].count[f->tr] / longest);
            struct trace_rec rec;
            const struct trace_reader *names;
            while (e->next[r] < upto && extrapolator_next(e, r, &rec, &names) > 0) {
                trace_write_record(out, names, &rec);
                free(rec.ids);
                free(rec.counts);
            }
        }
    extrapolator_close(e);
    return true;
}
