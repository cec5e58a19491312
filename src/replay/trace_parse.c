/* Parsing of one native trace record line into a struct trace_rec. */
#include <stdlib.h>
#include <string.h>

#include "core/pool.h"
#include "core/units.h"
#include "replay/trace.h"
#include "replay/trace_internal.h"

struct parse_ctx {
    const char *file;
    int line;
    int32_t nranks;
    struct sim_error *err;
    char **tok;
    int ntok;
};

static bool fail(struct parse_ctx *p, const char *fmt, const char *a, const char *b) {
    return err_at(p->err, p->file, p->line, fmt, a, b);
}

bool trace_parse_int(const char *s, int32_t min, int32_t max, int32_t *out) {
    bool neg = *s == '-';
    const char *d = s + neg;
    int64_t v = 0;
    if (!*d) return false;
    for (; *d; d++) {
        if (*d < '0' || *d > '9' || v > INT32_MAX) return false;
        v = v * 10 + (*d - '0');
    }
    if (neg) v = -v;
    if (v < min || v > max) return false;
    *out = (int32_t)v;
    return true;
}

/* A rank field: 0..nranks-1, or "any" when any_ok. */
static bool parse_rank(struct parse_ctx *p, const char *s, const char *field, bool any_ok,
                       int32_t *out) {
    if (any_ok && strcmp(s, "any") == 0) {
        *out = SIM_ANY_SOURCE;
        return true;
    }
    if (trace_parse_int(s, 0, p->nranks - 1, out)) return true;
    char want[96];
    snprintf(want, sizeof want, "a rank from 0 to %d%s", p->nranks - 1, any_ok ? " or any" : "");
    return err_at(p->err, p->file, p->line, "field '%s': found '%s', expected %s", field, s, want);
}

static bool parse_size_field(struct parse_ctx *p, const char *s, const char *field, int64_t *out) {
    const char *why;
    if (units_parse_size(s, true, false, out, &why)) return true;
    return err_at(p->err, p->file, p->line, "field '%s': found '%s', expected %s", field, s, why);
}

/* send=S0,S1,... or recv=R0,R1,... of a variable-count collective: one
 * size per member of the communicator; both lists must be as long. */
static bool parse_counts(struct parse_ctx *p, struct trace_rec *r, bool send, const char *v) {
    if (!(r->mode & 4))
        return fail(p, "'%s' takes no send= or recv= list (only the v collectives do)%s", p->tok[1],
                    "");
    int32_t m = 1;
    for (const char *c = v; *c; c++)
        m += *c == ',';
    if (r->counts && m != r->ncounts)
        return err_at(p->err, p->file, p->line,
                      "send= and recv= must list as many sizes (%d and %d)", r->ncounts, m);
    if (!r->counts) {
        r->counts = xcalloc(2 * (size_t)m, sizeof *r->counts);
        r->ncounts = m;
    }
    int64_t *out = r->counts + (send ? 0 : m);
    char item[64];
    for (int32_t i = 0; i < m; i++) {
        size_t len = strcspn(v, ",");
        snprintf(item, sizeof item, "%.*s", (int)(len < sizeof item ? len : sizeof item - 1), v);
        if (!parse_size_field(p, item, send ? "send" : "recv", &out[i])) return false;
        v += len + (v[len] == ',');
    }
    r->mode |= send ? 1 : 2;
    return true;
}

/* key=value options after the positional fields. */
static bool parse_option(struct parse_ctx *p, struct trace_rec *r, const char *tok) {
    const char *eq = strchr(tok, '=');
    if (!eq) return fail(p, "unexpected field '%s'%s", tok, " (options are key=value)");
    size_t klen = (size_t)(eq - tok);
    const char *v = eq + 1;
    if ((klen == 4 && !strncmp(tok, "send", 4)) || (klen == 4 && !strncmp(tok, "recv", 4)))
        return parse_counts(p, r, tok[0] == 's', v);
    int32_t *dst = NULL;
    int32_t lo = 0, hi = INT32_MAX;
    bool any_ok = false;
    if (klen == 3 && !strncmp(tok, "tag", 3))
        dst = &r->tag, any_ok = true;
    else if (klen == 7 && !strncmp(tok, "recvtag", 7))
        dst = &r->tag2, any_ok = true;
    else if (klen == 3 && !strncmp(tok, "req", 3))
        dst = &r->req;
    else if (klen == 4 && !strncmp(tok, "comm", 4))
        dst = &r->comm;
    else if (klen == 4 && !strncmp(tok, "root", 4))
        dst = &r->root;
    else if (klen == 5 && !strncmp(tok, "color", 5))
        dst = &r->color;
    else if (klen == 3 && !strncmp(tok, "key", 3))
        dst = &r->key, lo = INT32_MIN;
    else if (klen == 3 && !strncmp(tok, "new", 3))
        dst = &r->newcomm, lo = 1;
    else
        return err_at(p->err, p->file, p->line,
                      "unknown option '%.*s' (expected tag, recvtag, req, comm, root, color, key, "
                      "new, send or recv)",
                      (int)klen, tok);
    if (any_ok && strcmp(v, "any") == 0) {
        *dst = SIM_ANY_TAG;
        return true;
    }
    if (dst == &r->color && strcmp(v, "undefined") == 0) {
        *dst = SIM_UNDEFINED;
        return true;
    }
    if (!trace_parse_int(v, lo, hi, dst))
        return err_at(p->err, p->file, p->line, "option '%.*s': found '%s', expected %s", (int)klen,
                      tok, v, any_ok ? "a non-negative integer or any" : "an integer in range");
    return true;
}

static bool need(struct parse_ctx *p, int n, const char *usage) {
    if (p->ntok >= n) return true;
    return err_at(p->err, p->file, p->line, "too few fields for '%s' (expected: RANK %s)",
                  p->tok[1], usage);
}

static bool parse_compute(struct parse_ctx *p, struct trace_rec *r) {
    if (!need(p, 3, "compute DURATION|FLOPS")) return false;
    const char *s = p->tok[2], *why;
    double sec;
    bool duration = units_parse_seconds(s, &sec, &why);
    if (p->ntok > 4 || (p->ntok == 4 && (strncmp(p->tok[3], "instructions=", 13) || !duration)))
        return fail(p,
                    "unexpected field '%s' after 'compute %s' (a duration may be followed "
                    "by instructions=COUNT)",
                    p->tok[3], s);
    if (p->ntok == 4) {
        const char *v = p->tok[3] + 13;
        char *end;
        r->flops = strtod(v, &end);
        if (end == v || *end || !(r->flops >= 0) || r->flops > 1e18)
            return fail(p, "field 'instructions': found '%s', expected %s", v,
                        "a count of instructions");
    }
    if (duration) {
        r->op = TOP_COMPUTE;
        r->size = simtime_from_seconds(sec);
        return r->size != SIMTIME_NEVER ||
               fail(p, "field 'duration': found '%s', longer than the largest simulated time (%s)",
                    s, SIMTIME_LIMIT_TEXT);
    }
    if (units_parse_flops(s, &r->flops, &why)) {
        r->op = TOP_COMPUTE_FLOPS;
        return true;
    }
    return fail(p, "field 'duration': found '%s', expected %s", s,
                "a time (1.5ms) or a flop count (2.5Gf)");
}

static bool parse_ids(struct parse_ctx *p, struct trace_rec *r, int first) {
    if (p->ntok > first) r->ids = xcalloc((size_t)(p->ntok - first), sizeof *r->ids);
    for (int i = first; i < p->ntok; i++) {
        if (strchr(p->tok[i], '=')) return fail(p, "unexpected option '%s'%s", p->tok[i], "");
        if (!trace_parse_int(p->tok[i], 0, INT32_MAX, &r->ids[r->nids++]))
            return fail(p, "field 'request id': found '%s', expected %s", p->tok[i],
                        "a non-negative integer");
    }
    return true;
}

struct op_name {
    const char *name;
    uint8_t op, mode, coll;
    int8_t positional; /* fields after the op name */
};

static const struct op_name ops[] = {
    {"send", TOP_SEND, SEND_STANDARD, 0, 2},
    {"ssend", TOP_SEND, SEND_SYNC, 0, 2},
    {"bsend", TOP_SEND, SEND_BUFFERED, 0, 2},
    {"rsend", TOP_SEND, SEND_READY, 0, 2},
    {"isend", TOP_ISEND, SEND_STANDARD, 0, 2},
    {"issend", TOP_ISEND, SEND_SYNC, 0, 2},
    {"ibsend", TOP_ISEND, SEND_BUFFERED, 0, 2},
    {"irsend", TOP_ISEND, SEND_READY, 0, 2},
    {"recv", TOP_RECV, 0, 0, 1},
    {"irecv", TOP_IRECV, 0, 0, 1},
    {"sendrecv", TOP_SENDRECV, 0, 0, 4},
    {"barrier", TOP_COLL, 0, COLL_BARRIER, 0},
    {"bcast", TOP_COLL, 0, COLL_BCAST, 1},
    {"reduce", TOP_COLL, 0, COLL_REDUCE, 1},
    {"allreduce", TOP_COLL, 0, COLL_ALLREDUCE, 1},
    {"gather", TOP_COLL, 0, COLL_GATHER, 1},
    {"scatter", TOP_COLL, 0, COLL_SCATTER, 1},
    {"allgather", TOP_COLL, 0, COLL_ALLGATHER, 1},
    {"alltoall", TOP_COLL, 0, COLL_ALLTOALL, 1},
    {"ibarrier", TOP_ICOLL, 0, COLL_BARRIER, 0},
    {"ibcast", TOP_ICOLL, 0, COLL_BCAST, 1},
    {"ireduce", TOP_ICOLL, 0, COLL_REDUCE, 1},
    {"iallreduce", TOP_ICOLL, 0, COLL_ALLREDUCE, 1},
    {"igather", TOP_ICOLL, 0, COLL_GATHER, 1},
    {"iscatter", TOP_ICOLL, 0, COLL_SCATTER, 1},
    {"iallgather", TOP_ICOLL, 0, COLL_ALLGATHER, 1},
    {"ialltoall", TOP_ICOLL, 0, COLL_ALLTOALL, 1},
    {"reduce_scatter", TOP_COLL, 0, COLL_REDUCE_SCATTER, 1},
    {"gatherv", TOP_COLL, 4, COLL_GATHER, 1},
    {"scatterv", TOP_COLL, 4, COLL_SCATTER, 1},
    {"allgatherv", TOP_COLL, 4, COLL_ALLGATHER, 1},
    {"alltoallv", TOP_COLL, 4, COLL_ALLTOALL, 1},
    {"reduce_scatterv", TOP_COLL, 4, COLL_REDUCE_SCATTER, 1},
    {"igatherv", TOP_ICOLL, 4, COLL_GATHER, 1},
    {"iscatterv", TOP_ICOLL, 4, COLL_SCATTER, 1},
    {"iallgatherv", TOP_ICOLL, 4, COLL_ALLGATHER, 1},
    {"ialltoallv", TOP_ICOLL, 4, COLL_ALLTOALL, 1},
    {"ireduce_scatterv", TOP_ICOLL, 4, COLL_REDUCE_SCATTER, 1},
    {"scan", TOP_COLL, 0, COLL_SCAN, 1},
    {"exscan", TOP_COLL, 0, COLL_EXSCAN, 1},
    {"ireduce_scatter", TOP_ICOLL, 0, COLL_REDUCE_SCATTER, 1},
    {"iscan", TOP_ICOLL, 0, COLL_SCAN, 1},
    {"iexscan", TOP_ICOLL, 0, COLL_EXSCAN, 1},
    {"buffer_attach", TOP_BUFFER_ATTACH, 0, 0, 1},
    {"buffer_detach", TOP_BUFFER_DETACH, 0, 0, 0},
    {"comm_split", TOP_COMM_SPLIT, 0, 0, 1},
    {"comm_dup", TOP_COMM_DUP, 0, 0, 1},
    {"comm_self", TOP_COMM_SELF, 0, 0, 0},
    {"interval_end", TOP_INTERVAL_END, 0, 0, 0},
};

#define OP_HASH_SIZE 128

static unsigned op_hash(const char *name) {
    unsigned h = 5381;
    for (; *name; name++)
        h = h * 33 + (unsigned char)*name;
    return h & (OP_HASH_SIZE - 1);
}

/* Finds an operation of the table through an open-addressing hash built on
 * first use. */
static const struct op_name *lookup_op(const char *name) {
    static const struct op_name *table[OP_HASH_SIZE];
    static bool built;
    if (!built) {
        for (size_t i = 0; i < sizeof ops / sizeof ops[0]; i++) {
            unsigned h = op_hash(ops[i].name);
            while (table[h])
                h = (h + 1) & (OP_HASH_SIZE - 1);
            table[h] = &ops[i];
        }
        built = true;
    }
    for (unsigned h = op_hash(name); table[h]; h = (h + 1) & (OP_HASH_SIZE - 1))
        if (!strcmp(table[h]->name, name)) return table[h];
    return NULL;
}

/* Positional fields of the table-driven operations. */
static bool parse_positional(struct parse_ctx *p, struct trace_rec *r, const struct op_name *o) {
    switch (o->op) {
    case TOP_SEND:
    case TOP_ISEND:
        return parse_rank(p, p->tok[2], "destination", false, &r->peer) &&
               parse_size_field(p, p->tok[3], "size", &r->size);
    case TOP_RECV:
    case TOP_IRECV:
        if (!parse_rank(p, p->tok[2], "source", true, &r->peer)) return false;
        if (p->ntok > 3 && !strchr(p->tok[3], '='))
            return parse_size_field(p, p->tok[3], "size", &r->size);
        r->size = -1;
        return true;
    case TOP_SENDRECV:
        return parse_rank(p, p->tok[2], "destination", false, &r->peer) &&
               parse_size_field(p, p->tok[3], "size", &r->size) &&
               parse_rank(p, p->tok[4], "source", true, &r->peer2) &&
               parse_size_field(p, p->tok[5], "receive size", &r->size2);
    case TOP_COLL:
    case TOP_ICOLL:
    case TOP_BUFFER_ATTACH:
        return o->positional == 0 || parse_size_field(p, p->tok[2], "size", &r->size);
    case TOP_COMM_SPLIT:
    case TOP_COMM_DUP:
        if (!trace_parse_int(p->tok[2], 0, INT32_MAX, &r->comm))
            return fail(p, "field 'communicator': found '%s', expected %s", p->tok[2],
                        "a communicator id (0 = world)");
        return true;
    default:
        return true;
    }
}

static bool check_required(struct parse_ctx *p, struct trace_rec *r) {
    bool nb = r->op == TOP_ISEND || r->op == TOP_IRECV || r->op == TOP_ICOLL;
    if (nb && r->req < 0) return fail(p, "'%s' needs req=ID%s", p->tok[1], "");
    if ((r->op == TOP_COMM_SPLIT || r->op == TOP_COMM_DUP || r->op == TOP_COMM_SELF) &&
        r->newcomm < 1)
        return fail(p, "'%s' needs new=ID (a communicator id >= 1)%s", p->tok[1], "");
    if (r->op == TOP_COMM_SPLIT && r->color == INT32_MIN)
        return fail(p, "'%s' needs color=C (or color=undefined)%s", p->tok[1], "");
    if (r->op != TOP_SENDRECV && r->tag == SIM_ANY_TAG && (r->op == TOP_SEND || r->op == TOP_ISEND))
        return fail(p, "'%s': a send cannot use tag=any%s", p->tok[1], "");
    return true;
}

static bool parse_table_op(struct parse_ctx *p, struct trace_rec *r, const struct op_name *o) {
    r->op = o->op;
    r->mode = o->mode;
    r->coll = o->coll;
    if (p->ntok < 2 + o->positional) {
        char usage[64];
        snprintf(usage, sizeof usage, "%s with %d fields", o->name, o->positional);
        return need(p, 2 + o->positional, usage);
    }
    if (!parse_positional(p, r, o)) return false;
    int first = 2 + o->positional;
    if ((o->op == TOP_RECV || o->op == TOP_IRECV) && r->size >= 0) first = 4;
    for (int i = first; i < p->ntok; i++)
        if (!parse_option(p, r, p->tok[i])) return false;
    return check_required(p, r);
}

static bool parse_op(struct parse_ctx *p, struct trace_reader *t, struct trace_rec *r) {
    const char *name = p->tok[1];
    if (name[0] == 'c' && !strcmp(name, "compute")) return parse_compute(p, r);
    if ((name[0] == 'w' && !strcmp(name, "wait")) || (name[0] == 't' && !strcmp(name, "test")) ||
        (name[0] == 'c' && !strcmp(name, "cancel")) || (name[0] == 'f' && !strcmp(name, "free"))) {
        r->op = name[0] == 'w'   ? TOP_WAIT
                : name[0] == 't' ? TOP_TEST
                : name[0] == 'c' ? TOP_CANCEL
                                 : TOP_FREE;
        return need(p, 3, "wait ID") && parse_ids(p, r, 2) &&
               (r->nids == 1 || fail(p, "'%s' takes exactly one request id%s", name, ""));
    }
    if (name[0] == 'w' && (!strcmp(name, "waitall") || !strcmp(name, "waitany"))) {
        r->op = name[4] == 'a' && name[5] == 'l' ? TOP_WAITALL : TOP_WAITANY;
        if (!parse_ids(p, r, 2)) return false;
        return r->op == TOP_WAITALL || r->nids > 0 ||
               fail(p, "'waitany' needs the request ids to wait for%s%s", "", "");
    }
    if (name[0] == 'i' && !strcmp(name, "interval_begin")) {
        r->op = TOP_INTERVAL_BEGIN;
        if (!need(p, 3, "interval_begin NAME")) return false;
        r->req = t ? trace_intern(t, p->tok[2]) : 0;
        return true;
    }
    if (name[0] == 'i' && !strcmp(name, "incomplete"))
        return fail(p,
                    "this rank's trace is marked incomplete: the run that recorded it ended early "
                    "(the line's comment says how), so its replay would be wrong; record it "
                    "again%s%s",
                    "", "");
    const struct op_name *o = lookup_op(name);
    if (o) return parse_table_op(p, r, o);
    return fail(p, "unknown operation '%s'%s", name,
                " (see docs/trace-format.md for the list of records)");
}

int trace_tokenize(char *line, char **tok, int max) {
    int n = 0;
    char *s = line;
    for (;;) {
        while (*s == ' ' || *s == '\t' || *s == '\r')
            s++;
        if (!*s || *s == '#') break;
        if (n == max) return -1;
        tok[n++] = s;
        while (*s && *s != ' ' && *s != '\t' && *s != '\r' && *s != '#')
            s++;
        if (*s == '#') {
            *s = '\0';
            break;
        }
        if (*s) *s++ = '\0';
    }
    return n;
}

bool trace_parse_line(struct trace_reader *t, char *line, int32_t nranks, struct trace_rec *r,
                      const char *file, int lineno, struct sim_error *err) {
    char *tok[MAX_TOKENS];
    struct parse_ctx p = {file, lineno, nranks, err, tok, 0};
    memset(r, 0, sizeof *r);
    r->req = -1;
    r->color = INT32_MIN;
    r->line = lineno;
    p.ntok = trace_tokenize(line, tok, MAX_TOKENS);
    if (p.ntok < 0) return fail(&p, "too many fields on one line%s%s", "", "");
    if (p.ntok < 2) return fail(&p, "expected 'RANK OPERATION ...'%s%s", "", "");
    if (!strcmp(tok[0], "ranks"))
        return fail(&p,
                    "a second 'ranks' line ('ranks %s'); the header declares the rank "
                    "count once%s",
                    tok[1], "");
    if (!parse_rank(&p, tok[0], "rank", false, &r->rank)) return false;
    r->tag2 = INT32_MIN;
    if (!parse_op(&p, t, r)) {
        trace_rec_clear(r);
        return false;
    }
    if (r->tag2 == INT32_MIN) r->tag2 = r->tag;
    return true;
}

void trace_rec_clear(struct trace_rec *r) {
    free(r->ids);
    r->ids = NULL;
    r->nids = 0;
    free(r->counts);
    r->counts = NULL;
}
