/* SPDX-License-Identifier: BSD-3-Clause */
/* A rank's records made comparable across scales (extrapolate_fold.h):
 * request ids renumbered lowest-free, and stepped loops folded. */
#include "replay/extrapolate_fold.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "core/alloc.h"
#include "replay/trace.h"

/* The live requests of a rank: each original id's slot. */
struct live {
    int32_t *orig, *slot, n, cap;
    bool *used;
    int32_t nused;
};

static int32_t live_find(const struct live *v, int32_t id) {
    for (int32_t i = v->n - 1; i >= 0; i--)
        if (v->orig[i] == id) return i;
    return -1;
}

static void live_drop(struct live *v, int32_t i) {
    v->used[v->slot[i]] = false;
    v->orig[i] = v->orig[v->n - 1];
    v->slot[i] = v->slot[v->n - 1];
    v->n--;
}

/* The lowest free slot, taken by id (a live id given again was complete). */
static int32_t live_start(struct live *v, int32_t id) {
    int32_t old = live_find(v, id);
    if (old >= 0) live_drop(v, old);
    int32_t s = 0;
    while (s < v->nused && v->used[s])
        s++;
    if (s == v->nused) {
        v->used = xrealloc_or_die(v->used, sizeof *v->used * (size_t)(v->nused + 1));
        v->used[v->nused++] = false;
    }
    if (v->n == v->cap) {
        v->cap = v->cap ? 2 * v->cap : 16;
        v->orig = xrealloc_or_die(v->orig, sizeof *v->orig * (size_t)v->cap);
        v->slot = xrealloc_or_die(v->slot, sizeof *v->slot * (size_t)v->cap);
    }
    v->used[s] = true;
    v->orig[v->n] = id;
    v->slot[v->n++] = s;
    return s;
}

static bool starts_request(const struct trace_rec *x) {
    return x->req >= 0 && (x->op == TOP_ISEND || x->op == TOP_IRECV || x->op == TOP_ICOLL ||
                           x->op == TOP_FILE_IO || x->op == TOP_RMA);
}

void renumber_requests(struct trace_rec *rec, int32_t n) {
    struct live v = {0};
    for (int32_t i = 0; i < n; i++) {
        struct trace_rec *x = &rec[i];
        bool frees = x->op == TOP_WAIT || x->op == TOP_WAITALL || x->op == TOP_FREE;
        bool waits = frees || x->op == TOP_WAITANY || x->op == TOP_TEST || x->op == TOP_CANCEL;
        if (starts_request(x)) x->req = live_start(&v, x->req);
        if (!waits) continue;
        if (x->op == TOP_WAITALL && x->nids == 0) {
            while (v.n)
                live_drop(&v, v.n - 1);
            continue;
        }
        for (int32_t k = 0; k < x->nids; k++) {
            int32_t at = live_find(&v, x->ids[k]);
            if (at < 0) continue; /* unknown: left as it is */
            x->ids[k] = v.slot[at];
            if (frees) live_drop(&v, at);
        }
    }
    free(v.orig);
    free(v.slot);
    free(v.used);
}

void wait_all_outstanding(struct trace_rec *rec, int32_t n) {
    struct live v = {0};
    for (int32_t i = 0; i < n; i++) {
        struct trace_rec *x = &rec[i];
        bool frees = x->op == TOP_WAIT || x->op == TOP_WAITALL || x->op == TOP_FREE;
        if (starts_request(x)) live_start(&v, x->req);
        if (x->op == TOP_WAITALL && x->nids == v.n && v.n > 0) {
            bool every = true; /* (ids distinct: a request is waited once) */
            for (int32_t k = 0; k < x->nids && every; k++)
                every = live_find(&v, x->ids[k]) >= 0;
            if (every) {
                free(x->ids);
                x->ids = NULL;
                x->nids = 0;
            }
        }
        if (x->op == TOP_WAITALL && x->nids == 0) {
            while (v.n)
                live_drop(&v, v.n - 1);
            continue;
        }
        for (int32_t k = 0; frees && k < x->nids; k++) {
            int32_t at = live_find(&v, x->ids[k]);
            if (at >= 0) live_drop(&v, at);
        }
    }
    free(v.orig);
    free(v.slot);
    free(v.used);
}

int xor_exponent(int32_t r, int32_t q) {
    if (r < 0 || q < 0 || r == q) return -1;
    uint32_t d = (uint32_t)(r ^ q);
    if (d & (d - 1)) return -1;
    int e = 0;
    while (d >>= 1)
        e++;
    return e;
}

static int32_t peer_field(const struct trace_rec *x, int k) {
    return k ? x->peer2 : x->peer;
}

static int peer_fields(const struct trace_rec *x) {
    return x->op == TOP_SENDRECV                                                                ? 2
           : x->op == TOP_SEND || x->op == TOP_ISEND || x->op == TOP_RECV || x->op == TOP_IRECV ? 1
                                                                                                : 0;
}

enum { MAX_BODY = 63, MAX_SEGMENT_BODY = 8191 };

/* Whether b is a's iteration t later, steps as in s (t = 1 sets them;
 * by_rank: a peer that may step either way steps by rank, not by XOR
 * exponent). */
static bool steps_as(const struct trace_rec *a, const struct trace_rec *b, int32_t t, int32_t rank,
                     unsigned how, bool by_rank, struct step *s) {
    if (a->op == TOP_COMPUTE || b->op == TOP_COMPUTE) return a->op == b->op;
    bool sizes = a->size == b->size || ((how & FOLD_SEND_SIZES) && sends_size(a));
    int32_t dr = b->req - a->req; /* a request per iteration, with a master's loop */
    if (t == 1) s->req_dir = (int8_t)((how & FOLD_RANK_STEPS) && a->req >= 0 && dr == 1);
    if (dr != s->req_dir * t) return false;
    if (a->op != b->op || a->mode != b->mode || a->coll != b->coll || a->comm != b->comm ||
        a->root != b->root || !sizes || a->size2 != b->size2 || a->nids != b->nids ||
        has_counts(a) || a->op == TOP_COMM_SPLIT || a->op == TOP_COMM_DUP ||
        a->op == TOP_INTERVAL_BEGIN ||
        (a->nids && memcmp(a->ids, b->ids, sizeof *a->ids * (size_t)a->nids)))
        return false;
    int32_t dt = b->tag - a->tag; /* (and the receive tag of a sendrecv with it) */
    if (b->tag2 - a->tag2 != dt || (t == 1 && (dt < -1 || dt > 1))) return false;
    if (t == 1) s->tag_dir = (int8_t)dt;
    if (dt != s->tag_dir * t) return false;
    for (int k = 0; k < peer_fields(a); k++) {
        int32_t p = peer_field(a, k), q = peer_field(b, k);
        if (p == q) {
            if (t == 1) s->peer_dir[k] = 0;
            if (s->peer_dir[k] != 0) return false;
            continue;
        }
        int ea = xor_exponent(rank, p), eb = xor_exponent(rank, q);
        bool xor_step = ea >= 0 && eb >= 0 && (eb - ea == 1 || eb - ea == -1);
        bool rank_step = (how & FOLD_RANK_STEPS) && p >= 0 && q >= 0 && (q - p == 1 || q - p == -1);
        if (t == 1 && xor_step && !(by_rank && rank_step))
            s->peer_dir[k] = (int8_t)(eb - ea);
        else if (t == 1 && rank_step)
            s->peer_dir[k] = (int8_t)(PEER_RANK_STEP * (q - p));
        if (t == 1 && s->peer_dir[k] == 0) return false;
        int dir = s->peer_dir[k];
        if (dir == 1 || dir == -1 ? ea < 0 || eb < 0 || eb - ea != dir * t
                                  : q - p != dir / PEER_RANK_STEP * t)
            return false;
    }
    return true;
}

/* The repetitions of rec[i, i + len) that step as steps says, from the
 * second (by_rank as steps_as). */
static int32_t repetitions(const struct trace_rec *rec, int32_t n, int32_t i, int32_t len,
                           int32_t rank, unsigned how, bool by_rank, struct step *steps) {
    memset(steps, 0, sizeof *steps * (size_t)len);
    int32_t m = 1;
    for (;; m++) {
        int32_t at = i + m * (len + 1);
        if (at + len > n || rec[at - 1].op != TOP_COMPUTE) break;
        bool same = true;
        for (int32_t x = 0; x < len && same; x++)
            same = steps_as(&rec[i + x], &rec[at + x], m, rank, how, by_rank, &steps[x]);
        if (!same) break;
    }
    return m;
}

/* The iterations of a loop whose body is rec[i, i + len) (len odd: calls
 * at its ends, a burst between iterations), 1 if none; its steps. A peer
 * that steps by XOR exponent and by rank at once (0 to 1 then 2) steps by
 * XOR unless stepping by rank repeats longer (a master's 1, 2, 3 ...). */
static int32_t iterations(const struct trace_rec *rec, int32_t n, int32_t i, int32_t len,
                          int32_t rank, unsigned how, struct step *steps) {
    int32_t m = repetitions(rec, n, i, len, rank, how, false, steps);
    bool by_xor = false;
    for (int32_t x = 0; x < len && m > 1; x++)
        by_xor = by_xor || abs(steps[x].peer_dir[0]) == 1 || abs(steps[x].peer_dir[1]) == 1;
    if (by_xor) {
        struct step *by_rank = xmalloc(sizeof *by_rank * (size_t)len);
        if (repetitions(rec, n, i, len, rank, how, true, by_rank) > m)
            m = repetitions(rec, n, i, len, rank, how, true, steps);
        free(by_rank);
    }
    if (m < 2) return 1;
    bool first_steps =
        steps[0].tag_dir || steps[0].peer_dir[0] || steps[0].peer_dir[1] || steps[0].req_dir;
    bool any_steps = false;
    for (int32_t x = 0; x < len; x++)
        any_steps = any_steps || steps[x].tag_dir || steps[x].peer_dir[0] || steps[x].peer_dir[1] ||
                    steps[x].req_dir;
    return first_steps || ((how & FOLD_ANY_BLOCK) && !any_steps) ? m : 1;
}

/* The shortest body of a stepped loop starting at rec[i] (its
 * iterations in *iters, its steps), 0 if none. */
/* The body of a loop of whole segments starting at rec[i] (up to and with
 * its first, second ... fourth blocking collective: a time step that ends
 * with an allreduce of its dt), repeated 3 times or more; 0 if none. */
static int32_t find_segment_loop(const struct trace_rec *rec, int32_t n, int32_t i, int32_t rank,
                                 unsigned how, int32_t *iters, struct step *steps) {
    for (int32_t e = i, j = 0; j < 4 && e < n; j++, e++) {
        while (e < n && rec[e].op != TOP_COLL)
            e++;
        int32_t len = e - i + 1;
        if (e >= n || len > MAX_SEGMENT_BODY || i + 2 * len + 1 > n) break;
        if (!(len & 1) || rec[i + len].op != TOP_COMPUTE || rec[i + len + 1].op != rec[i].op)
            continue;
        *iters = iterations(rec, n, i, len, rank, how, steps);
        if (*iters > 2) return len;
    }
    return 0;
}

static int32_t find_loop(const struct trace_rec *rec, int32_t n, int32_t i, int32_t rank,
                         unsigned how, int32_t *iters, struct step *steps) {
    if (rec[i].op == TOP_COMPUTE) return 0;
    int32_t whole = how & FOLD_SEGMENTS ? find_segment_loop(rec, n, i, rank, how, iters, steps) : 0;
    if (whole || !peer_fields(&rec[i])) return whole;
    for (int32_t len = 1; len <= MAX_BODY && i + 2 * len + 1 <= n; len += 2) {
        const struct trace_rec *a = &rec[i], *b = &rec[i + len + 1];
        bool moves = a->tag != b->tag || a->peer != b->peer || a->peer2 != b->peer2;
        if (a->op != b->op || (!moves && !(how & FOLD_ANY_BLOCK)) || rec[i + len].op != TOP_COMPUTE)
            continue;
        *iters = iterations(rec, n, i, len, rank, how, steps);
        if (*iters > 1) return len;
    }
    return 0;
}

/* A loop's record x (of m iterations from rec[i], len a body): the mean
 * of its sizes, the farthest one's relative distance from it into
 * *spread if larger (its record's number, from ord, into *worst). */
static int64_t mean_size(const struct trace_rec *rec, const int32_t *ord, int32_t i, int32_t len,
                         int32_t x, int32_t m, double *spread, int32_t *worst) {
    int64_t sum = 0;
    for (int32_t t = 0; t < m; t++)
        sum += rec[i + t * (len + 1) + x].size;
    int64_t mean = sum / m;
    for (int32_t t = 0; t < m && mean > 0 && rec[i + x].op != TOP_COMPUTE; t++) {
        int32_t at = i + t * (len + 1) + x;
        double d = fabs((double)(rec[at].size - mean)) / (double)mean;
        if (d > *spread) {
            *spread = d;
            *worst = ord[at];
        }
    }
    return mean;
}

int32_t fold_step_loops(struct trace_rec *rec, int32_t *ord, struct step *step, int32_t n,
                        int32_t rank, unsigned how, double *spread, int32_t *worst) {
    struct step *steps =
        xmalloc(sizeof *steps * (size_t)(how & FOLD_SEGMENTS ? MAX_SEGMENT_BODY : MAX_BODY));
    int32_t out = 0;
    for (int32_t i = 0; i < n;) {
        int32_t m = 0, len = find_loop(rec, n, i, rank, how, &m, steps);
        if (!len) {
            step[out] = step[i];
            ord[out] = ord[i];
            rec[out++] = rec[i++];
            continue;
        }
        int64_t gap = 0;
        for (int32_t t = 1; t < m; t++)
            gap += rec[i + t * (len + 1) - 1].size;
        for (int32_t x = 0; x < len; x++) {
            struct trace_rec body = rec[i + x];
            if (body.op == TOP_COMPUTE || sends_size(&body))
                body.size = mean_size(rec, ord, i, len, x, m, spread, worst);
            if (steps[x].tag_dir < 0) {
                body.tag -= m - 1;
                body.tag2 -= m - 1;
            }
            step[out] = steps[x];
            step[out].iters = m;
            step[out].len = (int16_t)(x ? 0 : len);
            step[out].gap = x ? 0 : (float)gap / (float)(m - 1);
            ord[out] = ord[i + x];
            rec[out++] = body;
        }
        for (int32_t t = 1; t < m; t++) /* the later iterations' lists */
            for (int32_t x = 0; x < len; x++)
                free(rec[i + t * (len + 1) + x].ids);
        i += m * (len + 1) - 1;
    }
    free(steps);
    return out;
}

/* One end of a point-to-point message: its channel (comm, src, dst), the
 * side (0 send, 1 receive), its place in the rank's program, its tag. */
struct end {
    int32_t comm, src, dst, tag;
    int64_t seq;
    int side;
};

static int end_order(const void *pa, const void *pb) {
    const struct end *a = pa, *b = pb;
    if (a->comm != b->comm) return a->comm < b->comm ? -1 : 1;
    if (a->src != b->src) return a->src < b->src ? -1 : 1;
    if (a->dst != b->dst) return a->dst < b->dst ? -1 : 1;
    if (a->side != b->side) return a->side - b->side;
    return a->seq < b->seq ? -1 : a->seq > b->seq;
}

/* The comm's entry in the list (added, consistent, if new; NULL if full). */
static bool *comm_entry(struct fifo_comms *f, int32_t comm) {
    for (int i = 0; i < f->n; i++)
        if (f->comm[i] == comm) return &f->ok[i];
    if (f->n == FIFO_COMMS) return NULL;
    f->comm[f->n] = comm;
    f->ok[f->n] = true;
    return &f->ok[f->n++];
}

static void push_end(struct end **ends, int64_t *n, int64_t *cap, struct end e) {
    if (*n == *cap) {
        *cap = *cap ? 2 * *cap : 1024;
        *ends = xrealloc_or_die(*ends, sizeof **ends * (size_t)*cap);
    }
    (*ends)[(*n)++] = e;
}

/* Rank r's point-to-point ends into ends (a receive from any source is
 * on no channel, so the channels it takes from do not match). */
static void rank_ends(const struct trace_rec *rec, int32_t count, int32_t r, struct end **ends,
                      int64_t *n, int64_t *cap, struct fifo_comms *f) {
    for (int32_t i = 0; i < count; i++) {
        const struct trace_rec *x = &rec[i];
        bool sends = x->op == TOP_SEND || x->op == TOP_ISEND || x->op == TOP_SENDRECV;
        bool receives = x->op == TOP_RECV || x->op == TOP_IRECV || x->op == TOP_SENDRECV;
        if (!sends && !receives) continue;
        if (!comm_entry(f, x->comm)) continue;
        if (sends && x->peer >= 0)
            push_end(ends, n, cap, (struct end){x->comm, r, x->peer, x->tag, (int64_t)i * 2, 0});
        int32_t from = x->op == TOP_SENDRECV ? x->peer2 : x->peer;
        int32_t tag = x->op == TOP_SENDRECV ? x->tag2 : x->tag;
        if (receives && from >= 0)
            push_end(ends, n, cap, (struct end){x->comm, from, r, tag, (int64_t)i * 2 + 1, 1});
    }
}

void fifo_check(struct trace_rec *const *rec, const int32_t *count, int32_t n,
                struct fifo_comms *f) {
    struct end *ends = NULL;
    int64_t m = 0, cap = 0;
    struct fifo_comms here = {0};
    for (int32_t r = 0; r < n; r++)
        rank_ends(rec[r], count[r], r, &ends, &m, &cap, &here);
    if (m) qsort(ends, (size_t)m, sizeof *ends, end_order);
    for (int64_t a = 0; a < m;) { /* a channel: its sends, then its receives */
        int64_t s = a, v;
        while (s < m && ends[s].side == 0 && ends[s].comm == ends[a].comm &&
               ends[s].src == ends[a].src && ends[s].dst == ends[a].dst)
            s++;
        v = s;
        while (v < m && ends[v].side == 1 && ends[v].comm == ends[a].comm &&
               ends[v].src == ends[a].src && ends[v].dst == ends[a].dst)
            v++;
        bool same = s - a == v - s;
        for (int64_t k = 0; same && k < s - a; k++)
            same = ends[s + k].tag < 0 || ends[s + k].tag == ends[a + k].tag;
        if (!same) *comm_entry(&here, ends[a].comm) = false;
        a = v;
    }
    free(ends);
    for (int i = 0; i < here.n; i++) {
        bool *ok = comm_entry(f, here.comm[i]);
        if (ok) *ok = *ok && here.ok[i];
    }
}

void drop_tags(struct trace_rec **rec, const int32_t *count, int32_t n,
               const struct fifo_comms *f) {
    for (int32_t r = 0; r < n; r++)
        for (int32_t i = 0; i < count[r]; i++) {
            struct trace_rec *x = &rec[r][i];
            if (!peer_fields(x)) continue;
            for (int c = 0; c < f->n; c++)
                if (f->comm[c] == x->comm && f->ok[c]) {
                    if (x->tag >= 0) x->tag = 0;
                    if (x->tag2 >= 0) x->tag2 = 0;
                }
        }
}

/* The records a unit of a neighbour run at rec[i] spans: 1 (a send or
 * receive to one peer), 3 (an isend, a burst, the wait of that request:
 * a blocking send as recorded), 0 if none starts there. */
static int32_t unit_len(const struct trace_rec *rec, int32_t n, int32_t i) {
    const struct trace_rec *x = &rec[i];
    bool p2p = x->op == TOP_IRECV || x->op == TOP_ISEND || x->op == TOP_SEND || x->op == TOP_RECV;
    if (!p2p || x->peer < 0) return 0;
    if (x->op == TOP_ISEND && i + 2 < n && rec[i + 1].op == TOP_COMPUTE &&
        rec[i + 2].op == TOP_WAIT && rec[i + 2].nids == 1 && rec[i + 2].ids[0] == x->req)
        return 3;
    return 1;
}

/* Whether b may stand in a run with a (to another peer, or, for waits,
 * another request), both out of any loop's steps. */
static bool runs_with(const struct trace_rec *a, const struct trace_rec *b, const struct step *sa,
                      const struct step *sb) {
    bool plain = sa->len == 0 && sb->len == 0 && sa->iters == sb->iters && !sa->tag_dir &&
                 !sb->tag_dir && !sa->peer_dir[0] && !sb->peer_dir[0];
    if (a->op == TOP_WAIT) return plain && b->op == TOP_WAIT && a->nids == 1 && b->nids == 1;
    return plain && a->op == b->op && a->comm == b->comm && a->tag == b->tag && a->mode == b->mode;
}

/* Whether the wait at rec[i] ends a blocking send (unit_len's 3). */
static bool ends_send(const struct trace_rec *rec, int32_t i) {
    return i >= 2 && rec[i - 2].op == TOP_ISEND && rec[i - 1].op == TOP_COMPUTE &&
           rec[i].nids == 1 && rec[i].ids[0] == rec[i - 2].req;
}

struct unit {
    int32_t key, at; /* its peer's code (a wait: its request), its first record */
};

static int unit_order(const void *pa, const void *pb) {
    const struct unit *a = pa, *b = pb;
    if (a->key != b->key) return a->key < b->key ? -1 : 1;
    return a->at < b->at ? -1 : a->at > b->at;
}

/* Renames requests from rec[i] on as map says (from[k] -> to[k], m of
 * them) until each is freed. */
static void rename_requests(struct trace_rec *rec, int32_t n, int32_t i, const int32_t *from,
                            const int32_t *to, int32_t m) {
    bool *live = xcalloc((size_t)m, sizeof *live);
    int32_t left = m;
    for (int32_t k = 0; k < m; k++)
        live[k] = true;
    for (; i < n && left; i++) {
        struct trace_rec *x = &rec[i];
        bool frees = x->op == TOP_WAIT || x->op == TOP_WAITALL || x->op == TOP_FREE;
        if (x->op == TOP_WAITALL && x->nids == 0) break;
        for (int32_t c = 0; c < x->nids; c++)
            for (int32_t k = 0; k < m; k++)
                if (live[k] && x->ids[c] == from[k]) {
                    x->ids[c] = to[k];
                    if (frees) {
                        live[k] = false;
                        left--;
                    }
                    break;
                }
    }
    free(live);
}

/* Sorts the run of k units of len records each from rec[i] (a burst
 * between them) by key; false (left as it is) if two keys are equal. */
static bool sort_run(struct trace_rec *rec, int32_t *ord, struct step *step, int32_t n, int32_t i,
                     int32_t k, int32_t len, struct unit *u) {
    qsort(u, (size_t)k, sizeof *u, unit_order);
    for (int32_t v = 1; v < k; v++)
        if (u[v].key == u[v - 1].key) return false;
    size_t span = (size_t)k * (size_t)len;
    struct trace_rec *r = xmalloc(sizeof *r * span);
    int32_t *o = xmalloc(sizeof *o * span), *from = xmalloc(sizeof *from * (size_t)k),
            *to = xmalloc(sizeof *to * (size_t)k);
    struct step *s = xmalloc(sizeof *s * span);
    int32_t starts = 0;
    for (int32_t v = 0; v < k; v++) {
        memcpy(&r[v * len], &rec[u[v].at], sizeof *r * (size_t)len);
        memcpy(&o[v * len], &ord[u[v].at], sizeof *o * (size_t)len);
        memcpy(&s[v * len], &step[u[v].at], sizeof *s * (size_t)len);
    }
    for (int32_t v = 0; v < k; v++) {
        int32_t at = i + v * (len + 1);
        bool starts_one =
            len == 1 && rec[at].req >= 0 && (rec[at].op == TOP_IRECV || rec[at].op == TOP_ISEND);
        if (starts_one) { /* the request ids stay in the order posted */
            from[starts] = r[v * len].req;
            to[starts++] = rec[at].req;
        }
        memcpy(&rec[at], &r[v * len], sizeof *r * (size_t)len);
        memcpy(&ord[at], &o[v * len], sizeof *o * (size_t)len);
        memcpy(&step[at], &s[v * len], sizeof *s * (size_t)len);
        if (starts_one) rec[at].req = to[starts - 1];
    }
    if (starts) rename_requests(rec, n, i + k * (len + 1) - 1, from, to, starts);
    free(r);
    free(o);
    free(s);
    free(from);
    free(to);
    return true;
}

int32_t sort_neighbour_runs(struct trace_rec *rec, int32_t *ord, struct step *step, int32_t n,
                            int32_t rank,
                            int32_t (*code)(const void *ctx, int32_t rank, int32_t peer),
                            const void *ctx) {
    int32_t sorted = 0;
    struct unit *u = NULL;
    int32_t cap = 0;
    for (int32_t i = 0; i < n; i++) {
        bool wait = rec[i].op == TOP_WAIT && rec[i].nids == 1 && !ends_send(rec, i);
        int32_t len = wait ? 1 : unit_len(rec, n, i), k = 0;
        if (!len) continue;
        for (int32_t at = i; at + len <= n; at += len + 1) {
            if (at > i && (at - 1 >= n || rec[at - 1].op != TOP_COMPUTE)) break;
            if (!wait && unit_len(rec, n, at) != len) break;
            if (!runs_with(&rec[i], &rec[at], &step[i], &step[at]) || (wait && ends_send(rec, at)))
                break;
            int32_t key = wait ? rec[at].ids[0] : code(ctx, rank, rec[at].peer);
            if (key <= 0 && !wait) break;
            if (k == cap) u = xrealloc_or_die(u, sizeof *u * (size_t)(cap = cap ? 2 * cap : 32));
            u[k++] = (struct unit){key, at};
        }
        if (k >= 2 && sort_run(rec, ord, step, n, i, k, len, u)) sorted++;
        if (k >= 2) i += k * (len + 1) - 2;
    }
    free(u);
    return sorted;
}
