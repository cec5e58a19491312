/* SPDX-License-Identifier: BSD-3-Clause */
/* Parsing of one native trace record line into a struct trace_rec, in one
 * pass over the line where it lies (the reader's mapping or buffer): the
 * line is split into fields (first byte, length) without being written,
 * the operation is found by a hash of its packed name compared as two
 * machine words, and ranks, sizes and durations are read digit by digit
 * with their unit. Uncommon spellings (decimals, exponents, rare units) go
 * through the general unit parser, so every form means what it always did. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "core/alloc.h"
#include "core/units.h"
#include "replay/trace.h"
#include "replay/trace_internal.h"

/* At most this many bytes of a field are quoted in a message. */
#define QUOTE 64
#define Q(f) (int)((f).n < QUOTE ? (f).n : QUOTE), (f).p

struct parse_ctx {
    const char *file;
    int line;
    int32_t nranks;
    struct sim_error *err;
    const struct field *f;
    int n;
};

#define FAIL(p, ...) err_at((p)->err, (p)->file, (p)->line, __VA_ARGS__)

/* Which bytes end a field: a blank (1) or a comment's '#' (2); a table,
 * one load a byte where the tests were four. */
static const uint8_t field_end[256] = {[' '] = 1, ['\t'] = 1, ['\r'] = 1, ['#'] = 2};

bool trace_next_field(const char **at, const char *end, struct field *f) {
    const char *s = *at;
    while (s < end && field_end[(uint8_t)*s] == 1)
        s++;
    if (s == end || *s == '#') return false;
    f->p = s;
    while (s < end && !field_end[(uint8_t)*s])
        s++;
    f->n = (int32_t)(s - f->p);
    *at = s;
    return true;
}

int trace_fields(const char *s, const char *end, struct field *f, int max) {
    int n = 0;
    struct field next;
    while (trace_next_field(&s, end, &next)) {
        if (n == max) return -1;
        f[n++] = next;
    }
    return n;
}

static bool field_is(struct field f, const char *word) {
    size_t len = strlen(word);
    return (size_t)f.n == len && memcmp(f.p, word, len) == 0;
}

/* A NUL-terminated copy of a field for the general parsers; false when the
 * field is too long to be a number. */
static bool field_copy(struct field f, char *buf, size_t cap) {
    if ((size_t)f.n >= cap) return false;
    memcpy(buf, f.p, (size_t)f.n);
    buf[f.n] = '\0';
    return true;
}

bool trace_field_int(struct field f, int32_t min, int32_t max, int32_t *out) {
    const char *d = f.p, *end = f.p + f.n;
    bool neg = d < end && *d == '-';
    d += neg;
    if (d == end) return false;
    int64_t v = 0;
    for (; d < end; d++) {
        if (*d < '0' || *d > '9' || v > INT32_MAX) return false;
        v = v * 10 + (*d - '0');
    }
    if (neg) v = -v;
    if (v < min || v > max) return false;
    *out = (int32_t)v;
    return true;
}

bool trace_parse_int(const char *s, int32_t min, int32_t max, int32_t *out) {
    return trace_field_int((struct field){s, (int32_t)strlen(s)}, min, max, out);
}

/* Leading digits of a field (at most 14, as the unit parser's own fast
 * path reads them); returns how many, 0 when the field does not start with
 * a digit or has more. */
static int leading_digits(struct field f, int64_t *v) {
    int i = 0;
    *v = 0;
    for (; i < f.n && f.p[i] >= '0' && f.p[i] <= '9'; i++) {
        if (i == 14) return 0;
        *v = *v * 10 + (f.p[i] - '0');
    }
    return i;
}

/* The multiplier of a common size unit spelt exactly as s (length n), or 0. */
static double size_unit(const char *s, int n) {
    if (n == 0) return 1.0;
    if (n == 1) return s[0] == 'B' ? 1.0 : 0;
    if (n == 3 && s[1] == 'i' && s[2] == 'B')
        return s[0] == 'K' ? 1024.0 : s[0] == 'M' ? 1048576.0 : s[0] == 'G' ? 1073741824.0 : 0;
    if (n == 2 && s[1] == 'B')
        return s[0] == 'k' || s[0] == 'K' ? 1e3 : s[0] == 'M' ? 1e6 : s[0] == 'G' ? 1e9 : 0;
    return 0;
}

/* A size in bytes, bare or with a unit, as units_parse_size reads it. */
static bool field_size(struct field f, int64_t *out) {
    int64_t v;
    int d = leading_digits(f, &v);
    double mult = d ? size_unit(f.p + d, f.n - d) : 0;
    if (mult > 0) {
        double bytes = (double)v * mult;
        if (bytes >= 9.2e18) return false;
        *out = (int64_t)llround(bytes);
        return true;
    }
    char buf[QUOTE];
    return field_copy(f, buf, sizeof buf) && units_parse_size(buf, true, false, out, NULL);
}

/* The multiplier of a time unit spelt exactly as s (length n), or 0. */
static double time_unit(const char *s, int n) {
    if (n == 1) return s[0] == 's' ? 1.0 : 0;
    if (n != 2 || s[1] != 's') return 0;
    return s[0] == 'm' ? 1e-3 : s[0] == 'u' ? 1e-6 : s[0] == 'n' ? 1e-9 : s[0] == 'p' ? 1e-12 : 0;
}

/* A duration in seconds, as units_parse_seconds reads it. */
static bool field_seconds(struct field f, double *out) {
    int64_t v;
    int d = leading_digits(f, &v);
    double mult = d ? time_unit(f.p + d, f.n - d) : 0;
    if (mult > 0) {
        *out = (double)v * mult;
        return true;
    }
    char buf[QUOTE];
    return field_copy(f, buf, sizeof buf) && units_parse_seconds(buf, out, NULL);
}

/* A rank field: 0..nranks-1, or "any" when any_ok. */
static bool parse_rank(struct parse_ctx *p, struct field f, const char *name, bool any_ok,
                       int32_t *out) {
    if (trace_field_int(f, 0, p->nranks - 1, out)) return true;
    if (any_ok && field_is(f, "any")) {
        *out = SIM_ANY_SOURCE;
        return true;
    }
    return FAIL(p, "field '%s': found '%.*s', expected a rank from 0 to %d%s", name, Q(f),
                p->nranks - 1, any_ok ? " or any" : "");
}

static bool parse_size(struct parse_ctx *p, struct field f, const char *name, int64_t *out) {
    if (field_size(f, out)) return true;
    return FAIL(p,
                "field '%s': found '%.*s', expected a size in bytes, optionally with unit B, "
                "KiB, MB... (e.g. 64KiB)",
                name, Q(f));
}

/* send=S0,S1,... or recv=R0,R1,... of a variable-count collective: one
 * size per member of the communicator; both lists must be as long. */
static bool parse_counts(struct parse_ctx *p, struct trace_rec *r, bool send, struct field v) {
    if (!(r->mode & 4))
        return FAIL(p, "'%.*s' takes no send= or recv= list (only the v collectives do)",
                    Q(p->f[1]));
    int32_t m = 1;
    for (int32_t i = 0; i < v.n; i++)
        m += v.p[i] == ',';
    if (r->counts && m != r->ncounts)
        return FAIL(p, "send= and recv= must list as many sizes (%d and %d)", r->ncounts, m);
    if (!r->counts) {
        r->counts = xcalloc(2 * (size_t)m, sizeof *r->counts);
        r->ncounts = m;
    }
    int64_t *out = r->counts + (send ? 0 : m);
    const char *s = v.p, *end = v.p + v.n;
    for (int32_t i = 0; i < m; i++) {
        const char *comma = memchr(s, ',', (size_t)(end - s));
        struct field item = {s, (int32_t)((comma ? comma : end) - s)};
        if (!parse_size(p, item, send ? "send" : "recv", &out[i])) return false;
        s = comma ? comma + 1 : end;
    }
    r->mode |= send ? 1 : 2;
    return true;
}

/* from=A,B,... of rma_start / rma_wait: members, into ids. */
static bool parse_members(struct parse_ctx *p, struct trace_rec *r, struct field v) {
    if (r->nids) return FAIL(p, "from= given twice");
    int32_t n = 1;
    for (int32_t i = 0; i < v.n; i++)
        n += v.p[i] == ',';
    r->ids = xmalloc(sizeof *r->ids * (size_t)n);
    for (const char *q = v.p, *end = v.p + v.n; q <= end && r->nids < n;) {
        const char *c = memchr(q, ',', (size_t)(end - q));
        struct field m = {q, (int32_t)((c ? c : end) - q)};
        if (!trace_field_int(m, 0, INT32_MAX, &r->ids[r->nids]))
            return FAIL(p, "from=: found '%.*s', expected a member's rank", Q(m));
        r->nids++;
        q = (c ? c : end) + 1;
    }
    return true;
}

/* Where an option's value goes: its field, bounds and special words. */
struct option_slot {
    int32_t *dst;
    int32_t lo;
    bool any_ok;
};

static struct option_slot option_slot(struct trace_rec *r, struct field key) {
    struct option_slot o = {NULL, 0, false};
    if (field_is(key, "req"))
        o.dst = &r->req;
    else if (field_is(key, "tag"))
        o.dst = &r->tag, o.any_ok = true;
    else if (field_is(key, "comm"))
        o.dst = &r->comm;
    else if (field_is(key, "root"))
        o.dst = &r->root;
    else if (field_is(key, "recvtag"))
        o.dst = &r->tag2, o.any_ok = true;
    else if (field_is(key, "color"))
        o.dst = &r->color;
    else if (field_is(key, "key"))
        o.dst = &r->key, o.lo = INT32_MIN;
    else if (field_is(key, "new"))
        o.dst = &r->newcomm, o.lo = 1;
    return o;
}

/* key=value options after the positional fields. */
static bool parse_option(struct parse_ctx *p, struct trace_rec *r, struct field f) {
    const char *eq = memchr(f.p, '=', (size_t)f.n);
    if (!eq) return FAIL(p, "unexpected field '%.*s' (options are key=value)", Q(f));
    struct field key = {f.p, (int32_t)(eq - f.p)}, v = {eq + 1, (int32_t)(f.n - key.n - 1)};
    if (field_is(key, "send") || field_is(key, "recv"))
        return parse_counts(p, r, key.p[0] == 's', v);
    if (field_is(key, "from") && r->op == TOP_RMA_SYNC) return parse_members(p, r, v);
    struct option_slot o = option_slot(r, key);
    if (!o.dst)
        return FAIL(p,
                    "unknown option '%.*s' (expected tag, recvtag, req, comm, root, color, key, "
                    "new, send or recv)",
                    Q(key));
    if (trace_field_int(v, o.lo, INT32_MAX, o.dst)) return true;
    if (o.any_ok && field_is(v, "any")) {
        *o.dst = SIM_ANY_TAG;
        return true;
    }
    if (o.dst == &r->color && field_is(v, "undefined")) {
        *o.dst = SIM_UNDEFINED;
        return true;
    }
    return FAIL(p, "option '%.*s': found '%.*s', expected %s", Q(key), Q(v),
                o.any_ok ? "a non-negative integer or any" : "an integer in range");
}

static bool need(struct parse_ctx *p, int n, const char *usage) {
    if (p->n >= n) return true;
    return FAIL(p, "too few fields for '%.*s' (expected: RANK %s)", Q(p->f[1]), usage);
}

static bool parse_instructions(struct parse_ctx *p, struct trace_rec *r, struct field f) {
    char buf[QUOTE];
    char *end;
    struct field v = {f.p + 13, f.n - 13};
    if (field_copy(v, buf, sizeof buf)) {
        r->flops = strtod(buf, &end);
        if (end != buf && !*end && r->flops >= 0 && r->flops <= 1e18) return true;
    }
    return FAIL(p, "field 'instructions': found '%.*s', expected a count of instructions", Q(v));
}

static bool parse_compute(struct parse_ctx *p, struct trace_rec *r) {
    if (!need(p, 3, "compute DURATION|FLOPS")) return false;
    struct field s = p->f[2];
    double sec;
    bool duration = field_seconds(s, &sec);
    if (p->n > 4 ||
        (p->n == 4 && (p->f[3].n < 13 || memcmp(p->f[3].p, "instructions=", 13) || !duration)))
        return FAIL(p,
                    "unexpected field '%.*s' after 'compute %.*s' (a duration may be followed "
                    "by instructions=COUNT)",
                    Q(p->f[3]), Q(s));
    if (p->n == 4 && !parse_instructions(p, r, p->f[3])) return false;
    if (duration) {
        r->op = TOP_COMPUTE;
        r->size = simtime_from_seconds(sec);
        return r->size != SIMTIME_NEVER ||
               FAIL(p,
                    "field 'duration': found '%.*s', longer than the largest simulated time (%s)",
                    Q(s), SIMTIME_LIMIT_TEXT);
    }
    char buf[QUOTE];
    if (field_copy(s, buf, sizeof buf) && units_parse_flops(buf, &r->flops, NULL)) {
        r->op = TOP_COMPUTE_FLOPS;
        return true;
    }
    return FAIL(
        p, "field 'duration': found '%.*s', expected a time (1.5ms) or a flop count (2.5Gf)", Q(s));
}

static bool parse_ids(struct parse_ctx *p, struct trace_rec *r, int first) {
    if (p->n > first) r->ids = xcalloc((size_t)(p->n - first), sizeof *r->ids);
    for (int i = first; i < p->n; i++) {
        struct field f = p->f[i];
        if (memchr(f.p, '=', (size_t)f.n)) return FAIL(p, "unexpected option '%.*s'", Q(f));
        if (!trace_field_int(f, 0, INT32_MAX, &r->ids[r->nids++]))
            return FAIL(p, "field 'request id': found '%.*s', expected a non-negative integer",
                        Q(f));
    }
    return true;
}

/* How an operation's fields are read. */
enum op_form {
    FORM_TABLE,      /* positional fields, then options */
    FORM_COMPUTE,    /* compute DURATION|FLOPS [instructions=N] */
    FORM_ONE_ID,     /* wait, test, cancel, free: one request id */
    FORM_IDS,        /* waitall [ID...] */
    FORM_SOME_IDS,   /* waitany ID... */
    FORM_INTERVAL,   /* interval_begin NAME */
    FORM_INCOMPLETE, /* the marker of a recording that ended early */
};

struct op_name {
    const char *name;
    uint8_t op, mode, coll;
    int8_t positional; /* fields after the op name */
    uint8_t form;
};

static const struct op_name ops[] = {
    {"send", TOP_SEND, SEND_STANDARD, 0, 2, FORM_TABLE},
    {"ssend", TOP_SEND, SEND_SYNC, 0, 2, FORM_TABLE},
    {"bsend", TOP_SEND, SEND_BUFFERED, 0, 2, FORM_TABLE},
    {"rsend", TOP_SEND, SEND_READY, 0, 2, FORM_TABLE},
    {"isend", TOP_ISEND, SEND_STANDARD, 0, 2, FORM_TABLE},
    {"issend", TOP_ISEND, SEND_SYNC, 0, 2, FORM_TABLE},
    {"ibsend", TOP_ISEND, SEND_BUFFERED, 0, 2, FORM_TABLE},
    {"irsend", TOP_ISEND, SEND_READY, 0, 2, FORM_TABLE},
    {"recv", TOP_RECV, 0, 0, 1, FORM_TABLE},
    {"irecv", TOP_IRECV, 0, 0, 1, FORM_TABLE},
    {"sendrecv", TOP_SENDRECV, 0, 0, 4, FORM_TABLE},
    {"barrier", TOP_COLL, 0, COLL_BARRIER, 0, FORM_TABLE},
    {"bcast", TOP_COLL, 0, COLL_BCAST, 1, FORM_TABLE},
    {"reduce", TOP_COLL, 0, COLL_REDUCE, 1, FORM_TABLE},
    {"allreduce", TOP_COLL, 0, COLL_ALLREDUCE, 1, FORM_TABLE},
    {"gather", TOP_COLL, 0, COLL_GATHER, 1, FORM_TABLE},
    {"scatter", TOP_COLL, 0, COLL_SCATTER, 1, FORM_TABLE},
    {"allgather", TOP_COLL, 0, COLL_ALLGATHER, 1, FORM_TABLE},
    {"alltoall", TOP_COLL, 0, COLL_ALLTOALL, 1, FORM_TABLE},
    {"ibarrier", TOP_ICOLL, 0, COLL_BARRIER, 0, FORM_TABLE},
    {"ibcast", TOP_ICOLL, 0, COLL_BCAST, 1, FORM_TABLE},
    {"ireduce", TOP_ICOLL, 0, COLL_REDUCE, 1, FORM_TABLE},
    {"iallreduce", TOP_ICOLL, 0, COLL_ALLREDUCE, 1, FORM_TABLE},
    {"igather", TOP_ICOLL, 0, COLL_GATHER, 1, FORM_TABLE},
    {"iscatter", TOP_ICOLL, 0, COLL_SCATTER, 1, FORM_TABLE},
    {"iallgather", TOP_ICOLL, 0, COLL_ALLGATHER, 1, FORM_TABLE},
    {"ialltoall", TOP_ICOLL, 0, COLL_ALLTOALL, 1, FORM_TABLE},
    {"reduce_scatter", TOP_COLL, 0, COLL_REDUCE_SCATTER, 1, FORM_TABLE},
    {"gatherv", TOP_COLL, 4, COLL_GATHER, 1, FORM_TABLE},
    {"scatterv", TOP_COLL, 4, COLL_SCATTER, 1, FORM_TABLE},
    {"allgatherv", TOP_COLL, 4, COLL_ALLGATHER, 1, FORM_TABLE},
    {"alltoallv", TOP_COLL, 4, COLL_ALLTOALL, 1, FORM_TABLE},
    {"reduce_scatterv", TOP_COLL, 4, COLL_REDUCE_SCATTER, 1, FORM_TABLE},
    {"igatherv", TOP_ICOLL, 4, COLL_GATHER, 1, FORM_TABLE},
    {"iscatterv", TOP_ICOLL, 4, COLL_SCATTER, 1, FORM_TABLE},
    {"iallgatherv", TOP_ICOLL, 4, COLL_ALLGATHER, 1, FORM_TABLE},
    {"ialltoallv", TOP_ICOLL, 4, COLL_ALLTOALL, 1, FORM_TABLE},
    {"ireduce_scatterv", TOP_ICOLL, 4, COLL_REDUCE_SCATTER, 1, FORM_TABLE},
    {"scan", TOP_COLL, 0, COLL_SCAN, 1, FORM_TABLE},
    {"exscan", TOP_COLL, 0, COLL_EXSCAN, 1, FORM_TABLE},
    {"ireduce_scatter", TOP_ICOLL, 0, COLL_REDUCE_SCATTER, 1, FORM_TABLE},
    {"iscan", TOP_ICOLL, 0, COLL_SCAN, 1, FORM_TABLE},
    {"iexscan", TOP_ICOLL, 0, COLL_EXSCAN, 1, FORM_TABLE},
    {"buffer_attach", TOP_BUFFER_ATTACH, 0, 0, 1, FORM_TABLE},
    {"file_io", TOP_FILE_IO, 0, 0, 1, FORM_TABLE},
    {"round_trip", TOP_ROUND_TRIP, 0, 0, 1, FORM_TABLE},
    {"rma_put", TOP_RMA, 1, 0, 2, FORM_TABLE},
    {"rma_get", TOP_RMA, 0, 0, 2, FORM_TABLE},
    {"rma_fetch", TOP_RMA, 2, 0, 2, FORM_TABLE},
    {"rma_lock", TOP_RMA_SYNC, 0, 0, 2, FORM_TABLE},
    {"rma_unlock", TOP_RMA_SYNC, 1, 0, 2, FORM_TABLE},
    {"rma_grants", TOP_RMA_SYNC, 2, 0, 0, FORM_TABLE},
    {"rma_post", TOP_RMA_SYNC, 3, 0, 1, FORM_TABLE},
    {"rma_complete", TOP_RMA_SYNC, 4, 0, 1, FORM_TABLE},
    {"rma_start", TOP_RMA_SYNC, 5, 0, 0, FORM_TABLE},
    {"rma_wait", TOP_RMA_SYNC, 6, 0, 0, FORM_TABLE},
    {"buffer_detach", TOP_BUFFER_DETACH, 0, 0, 0, FORM_TABLE},
    {"comm_split", TOP_COMM_SPLIT, 0, 0, 1, FORM_TABLE},
    {"comm_define", TOP_COMM_SPLIT, 1, 0, 1, FORM_TABLE},
    {"comm_dup", TOP_COMM_DUP, 0, 0, 1, FORM_TABLE},
    {"comm_self", TOP_COMM_SELF, 0, 0, 0, FORM_TABLE},
    {"interval_end", TOP_INTERVAL_END, 0, 0, 0, FORM_TABLE},
    {"compute", TOP_COMPUTE, 0, 0, 1, FORM_COMPUTE},
    {"wait", TOP_WAIT, 0, 0, 1, FORM_ONE_ID},
    {"test", TOP_TEST, 0, 0, 1, FORM_ONE_ID},
    {"cancel", TOP_CANCEL, 0, 0, 1, FORM_ONE_ID},
    {"free", TOP_FREE, 0, 0, 1, FORM_ONE_ID},
    {"waitall", TOP_WAITALL, 0, 0, 0, FORM_IDS},
    {"waitany", TOP_WAITANY, 0, 0, 1, FORM_SOME_IDS},
    {"interval_begin", TOP_INTERVAL_BEGIN, 0, 0, 1, FORM_INTERVAL},
    {"incomplete", 0, 0, 0, 0, FORM_INCOMPLETE},
};

/* An operation name packed into two words, its bytes in memory order and
 * zeros after them (names are at most 16 bytes): the table compares these
 * words, never the characters. */
struct packed_name {
    uint64_t w[2];
};

static bool pack_name(const char *s, int n, struct packed_name *k) {
    if (n < 1 || n > 16) return false;
    unsigned char b[16] = {0};
    memcpy(b, s, (size_t)n);
    memcpy(k->w, b, sizeof k->w);
    return true;
}

#define OP_HASH_BITS 8
#define OP_HASH_SIZE (1u << OP_HASH_BITS)

static unsigned op_hash(const struct packed_name *k) {
    uint64_t h = (k->w[0] ^ (k->w[1] * 0x9E3779B97F4A7C15ull)) * 0xD6E8FEB86659FD93ull;
    return (unsigned)(h >> (64 - OP_HASH_BITS));
}

struct op_slot {
    struct packed_name key;
    const struct op_name *op;
};

/* The table of operations by packed name (open addressing), built on
 * first use. */
static const struct op_name *lookup_op(struct field name) {
    static struct op_slot table[OP_HASH_SIZE];
    static bool built;
    if (!built) {
        for (size_t i = 0; i < sizeof ops / sizeof ops[0]; i++) {
            struct packed_name k;
            pack_name(ops[i].name, (int)strlen(ops[i].name), &k);
            unsigned h = op_hash(&k);
            while (table[h].op)
                h = (h + 1) & (OP_HASH_SIZE - 1);
            table[h] = (struct op_slot){k, &ops[i]};
        }
        built = true;
    }
    struct packed_name k;
    if (!pack_name(name.p, name.n, &k)) return NULL;
    for (unsigned h = op_hash(&k); table[h].op; h = (h + 1) & (OP_HASH_SIZE - 1))
        if (table[h].key.w[0] == k.w[0] && table[h].key.w[1] == k.w[1]) return table[h].op;
    return NULL;
}

/* Positional fields of the table-driven operations. */
static bool parse_positional(struct parse_ctx *p, struct trace_rec *r, const struct op_name *o) {
    const struct field *f = p->f;
    switch (o->op) {
    case TOP_SEND:
    case TOP_ISEND:
        return parse_rank(p, f[2], "destination", false, &r->peer) &&
               parse_size(p, f[3], "size", &r->size);
    case TOP_RECV:
    case TOP_IRECV:
        if (!parse_rank(p, f[2], "source", true, &r->peer)) return false;
        if (p->n > 3 && !memchr(f[3].p, '=', (size_t)f[3].n))
            return parse_size(p, f[3], "size", &r->size);
        r->size = -1;
        return true;
    case TOP_SENDRECV:
        return parse_rank(p, f[2], "destination", false, &r->peer) &&
               parse_size(p, f[3], "size", &r->size) &&
               parse_rank(p, f[4], "source", true, &r->peer2) &&
               parse_size(p, f[5], "receive size", &r->size2);
    case TOP_COLL:
    case TOP_ICOLL:
    case TOP_BUFFER_ATTACH:
    case TOP_FILE_IO:
        return o->positional == 0 || parse_size(p, f[2], "size", &r->size);
    case TOP_ROUND_TRIP:
        return parse_rank(p, f[2], "peer", false, &r->peer);
    case TOP_RMA:
        return parse_rank(p, f[2], "target", false, &r->peer) &&
               parse_size(p, f[3], "size", &r->size);
    case TOP_RMA_SYNC:
        if (o->positional == 0) return true;
        if (!parse_rank(p, f[2], "member", false, &r->peer)) return false;
        if (o->positional == 1) return true;
        if (field_is(f[3], "exclusive") || field_is(f[3], "shared")) {
            r->tag = field_is(f[3], "exclusive");
            return true;
        }
        return FAIL(p, "field 'lock type': found '%.*s', expected shared or exclusive", Q(f[3]));
    case TOP_COMM_SPLIT:
    case TOP_COMM_DUP:
        if (!trace_field_int(f[2], 0, INT32_MAX, &r->comm))
            return FAIL(p,
                        "field 'communicator': found '%.*s', expected a communicator id (0 = "
                        "world)",
                        Q(f[2]));
        return true;
    default:
        return true;
    }
}

static bool check_required(struct parse_ctx *p, struct trace_rec *r) {
    struct field name = p->f[1];
    bool nb = r->op == TOP_ISEND || r->op == TOP_IRECV || r->op == TOP_ICOLL ||
              r->op == TOP_FILE_IO || r->op == TOP_RMA;
    if (nb && r->req < 0) return FAIL(p, "'%.*s' needs req=ID", Q(name));
    if ((r->op == TOP_COMM_SPLIT || r->op == TOP_COMM_DUP || r->op == TOP_COMM_SELF) &&
        r->newcomm < 1)
        return FAIL(p, "'%.*s' needs new=ID (a communicator id >= 1)", Q(name));
    if (r->op == TOP_COMM_SPLIT && r->color == INT32_MIN)
        return FAIL(p, "'%.*s' needs color=C (or color=undefined)", Q(name));
    if (r->op != TOP_SENDRECV && r->tag == SIM_ANY_TAG && (r->op == TOP_SEND || r->op == TOP_ISEND))
        return FAIL(p, "'%.*s': a send cannot use tag=any", Q(name));
    return true;
}

static bool parse_table_op(struct parse_ctx *p, struct trace_rec *r, const struct op_name *o) {
    r->op = o->op;
    r->mode = o->mode;
    r->coll = o->coll;
    if (p->n < 2 + o->positional) {
        char usage[64];
        snprintf(usage, sizeof usage, "%s with %d fields", o->name, o->positional);
        return need(p, 2 + o->positional, usage);
    }
    if (!parse_positional(p, r, o)) return false;
    int first = 2 + o->positional;
    if ((o->op == TOP_RECV || o->op == TOP_IRECV) && r->size >= 0) first = 4;
    for (int i = first; i < p->n; i++)
        if (!parse_option(p, r, p->f[i])) return false;
    return check_required(p, r);
}

static bool parse_interval(struct parse_ctx *p, struct trace_reader *t, struct trace_rec *r) {
    r->op = TOP_INTERVAL_BEGIN;
    if (!need(p, 3, "interval_begin NAME")) return false;
    struct field f = p->f[2];
    char small[256], *name = f.n < 256 ? small : xmalloc((size_t)f.n + 1);
    memcpy(name, f.p, (size_t)f.n);
    name[f.n] = '\0';
    r->req = t ? trace_intern(t, name) : 0;
    if (name != small) free(name);
    return true;
}

static bool parse_op(struct parse_ctx *p, struct trace_reader *t, struct trace_rec *r) {
    struct field name = p->f[1];
    const struct op_name *o = lookup_op(name);
    if (!o)
        return FAIL(p,
                    "unknown operation '%.*s' (see docs/trace-format.md for the list of records)",
                    Q(name));
    switch (o->form) {
    case FORM_TABLE:
        return parse_table_op(p, r, o);
    case FORM_COMPUTE:
        return parse_compute(p, r);
    case FORM_ONE_ID:
        r->op = o->op;
        return need(p, 3, "wait ID") && parse_ids(p, r, 2) &&
               (r->nids == 1 || FAIL(p, "'%.*s' takes exactly one request id", Q(name)));
    case FORM_IDS:
    case FORM_SOME_IDS:
        r->op = o->op;
        if (!parse_ids(p, r, 2)) return false;
        return o->form == FORM_IDS || r->nids > 0 ||
               FAIL(p, "'waitany' needs the request ids to wait for");
    case FORM_INTERVAL:
        return parse_interval(p, t, r);
    default:
        return FAIL(p, "this rank's trace is marked incomplete: it is not the whole run (the "
                       "line's comment says why: the run ended early, or the tracer left calls "
                       "out), so its replay would be wrong; record it again");
    }
}

int trace_parse_span(struct trace_reader *t, const char *line, size_t len, int32_t nranks,
                     struct trace_rec *r, const char *file, int lineno, struct sim_error *err) {
    struct field f[MAX_TOKENS];
    struct parse_ctx p = {file, lineno, nranks, err, f, 0};
    p.n = trace_fields(line, line + len, f, MAX_TOKENS);
    if (p.n == 0) return 0;
    static const struct trace_rec blank = {.req = -1, .color = INT32_MIN, .tag2 = INT32_MIN};
    *r = blank; /* plain stores, where memset's string instruction costs more */
    r->line = lineno;
    bool ok;
    if (p.n < 0)
        ok = FAIL(&p, "too many fields on one line");
    else if (p.n < 2)
        ok = FAIL(&p, "expected 'RANK OPERATION ...'");
    else if (field_is(f[0], "ranks"))
        ok = FAIL(&p,
                  "a second 'ranks' line ('ranks %.*s'); the header declares the rank count once",
                  Q(f[1]));
    else
        ok = parse_rank(&p, f[0], "rank", false, &r->rank);
    if (!ok) return -1;
    if (!parse_op(&p, t, r)) {
        trace_rec_clear(r);
        return -1;
    }
    if (r->tag2 == INT32_MIN) r->tag2 = r->tag;
    return 1;
}

bool trace_parse_line(struct trace_reader *t, char *line, int32_t nranks, struct trace_rec *r,
                      const char *file, int lineno, struct sim_error *err) {
    int got = trace_parse_span(t, line, strlen(line), nranks, r, file, lineno, err);
    if (got == 0) err_at(err, file, lineno, "expected 'RANK OPERATION ...'");
    return got == 1;
}

int trace_tokenize(char *line, char **tok, int max) {
    int n = 0;
    const char *s = line, *end = line + strlen(line);
    struct field f;
    while (trace_next_field(&s, end, &f)) {
        if (n == max) return -1;
        tok[n++] = line + (f.p - line);
        if (s == end) break;
        bool comment = *s == '#';
        line[s++ - line] = '\0'; /* the blank or '#' after the field */
        if (comment) break;
    }
    return n;
}

void trace_rec_clear(struct trace_rec *r) {
    free(r->ids);
    r->ids = NULL;
    r->nids = 0;
    free(r->counts);
    r->counts = NULL;
}
