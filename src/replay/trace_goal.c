/* SPDX-License-Identifier: BSD-3-Clause */
/* LogGOPSim's GOAL schedules read as simpi trace records (trace_goal.h).
 *
 * The text form: `num_ranks N`, then `rank R { ... }` blocks of
 * operations, `[LABEL:] send SIZEb to PEER tag T`, `[LABEL:] recv SIZEb
 * from PEER tag T` (PEER and T may be -1: any), `[LABEL:] calc TIME`, each
 * optionally followed by `cpu C` and `nic N`, and dependencies `A requires
 * B` (A starts once B has ended) and `A irequires B` (once B has started);
 * `//` and `/ * * /` comments. A rank's operations run as their
 * dependencies allow: whenever the rank asks for its next record, the
 * operations whose requests have completed end, those now free start
 * (sends first, then receives, then computations, as LogGOPSim orders
 * them), a send or receive as a non-blocking one, a calc as a computation
 * of TIME nanoseconds; with nothing to start, the rank waits for any of
 * its operations in flight. */
#include "replay/trace_goal.h"

#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/alloc.h"
#include "core/readfile.h"

enum { GOAL_SEND, GOAL_RECV, GOAL_CALC }; /* also the order free operations start in */
enum { OP_WAITING, OP_STARTED, OP_DONE };

struct gop {
    int64_t size; /* bytes; calc: nanoseconds */
    int32_t peer, tag;
    int32_t nreq, nireq; /* dependencies not yet satisfied */
    int32_t first_dep;   /* its dependents: a list in deps */
    int32_t id;          /* the request while in flight */
    int32_t line;
    uint8_t kind, state;
};

struct gdep {
    int32_t op, next;
    bool on_start; /* irequires */
};

struct grank {
    struct gop *ops;
    int32_t nops, cap;
    struct gdep *deps;
    int32_t ndeps, capdeps;
    int32_t *ready; /* a heap by (kind, index) */
    int32_t nready, capready;
    int32_t *flight; /* sends and receives in flight */
    int32_t nflight, capflight;
    int32_t calc, done; /* the calc running (-1: none); operations ended */
};

struct goal {
    char *path;
    struct grank *ranks;
    int32_t nranks;
};

/* ---- the ready heap ------------------------------------------------------ */

static bool before(const struct grank *k, int32_t a, int32_t b) {
    if (k->ops[a].kind != k->ops[b].kind) return k->ops[a].kind < k->ops[b].kind;
    return a < b;
}

static void ready_push(struct grank *k, int32_t op) {
    if (k->nready == k->capready) {
        k->capready = k->capready ? 2 * k->capready : 8;
        k->ready = xrealloc_or_die(k->ready, sizeof *k->ready * (size_t)k->capready);
    }
    int32_t i = k->nready++;
    while (i > 0 && before(k, op, k->ready[(i - 1) / 2])) {
        k->ready[i] = k->ready[(i - 1) / 2];
        i = (i - 1) / 2;
    }
    k->ready[i] = op;
}

static int32_t ready_pop(struct grank *k) {
    int32_t top = k->ready[0], last = k->ready[--k->nready], i = 0;
    for (;;) {
        int32_t c = 2 * i + 1;
        if (c >= k->nready) break;
        if (c + 1 < k->nready && before(k, k->ready[c + 1], k->ready[c])) c++;
        if (!before(k, k->ready[c], last)) break;
        k->ready[i] = k->ready[c];
        i = c;
    }
    if (k->nready) k->ready[i] = last;
    return top;
}

/* ---- parsing ---------------------------------------------------------------- */

struct scan {
    const char *p, *end, *path;
    int line;
    struct sim_error *err;
    char tok[128];
};

/* The next word (a label keeps its ':'; braces are words); false at the end. */
static bool next_word(struct scan *s) {
    for (;;) {
        while (s->p < s->end && isspace((unsigned char)*s->p))
            s->line += *s->p++ == '\n';
        if (s->p + 1 < s->end && s->p[0] == '/' && s->p[1] == '/') {
            while (s->p < s->end && *s->p != '\n')
                s->p++;
        } else if (s->p + 1 < s->end && s->p[0] == '/' && s->p[1] == '*') {
            for (s->p += 2;
                 s->p < s->end && !(s->p[0] == '*' && s->p + 1 < s->end && s->p[1] == '/'); s->p++)
                s->line += *s->p == '\n';
            s->p = s->p < s->end ? s->p + 2 : s->end;
        } else {
            break;
        }
    }
    if (s->p >= s->end) return false;
    size_t n = 0;
    if (*s->p == '{' || *s->p == '}') {
        s->tok[n++] = *s->p++;
    } else {
        while (s->p < s->end && !isspace((unsigned char)*s->p) && *s->p != '{' && *s->p != '}' &&
               n + 1 < sizeof s->tok)
            s->tok[n++] = *s->p++;
    }
    s->tok[n] = '\0';
    return true;
}

static bool fail(struct scan *s, const char *fmt, const char *what) {
    char msg[256];
    snprintf(msg, sizeof msg, fmt, what);
    return err_at(s->err, s->path, s->line, "%s", msg);
}

static bool expect_word(struct scan *s, const char *what) {
    return next_word(s) || fail(s, "unexpected end of the schedule: expected %s", what);
}

/* A decimal integer in [lo, hi], optionally ending in suffix (the "b" of sizes). */
static bool number(struct scan *s, const char *field, int64_t lo, int64_t hi, const char *suffix,
                   int64_t *out) {
    if (!expect_word(s, field)) return false;
    char *end;
    errno = 0;
    long long v = strtoll(s->tok, &end, 10);
    bool ok = end != s->tok && errno == 0 && v >= lo && v <= hi;
    if (ok && suffix && *end == '\0' && s->p < s->end && *s->p == ' ' && s->p + 1 < s->end &&
        s->p[1] == suffix[0]) { /* "8 b" */
        s->p += 2;
        end = (char *)suffix;
    }
    bool suffixed = ok && suffix && !strcmp(end, suffix);
    if (suffixed) end += strlen(suffix);
    if (!ok || *end || (suffix && !suffixed)) { /* a size without its "b" too */
        char msg[240];
        snprintf(msg, sizeof msg, "field '%s': found '%.60s', expected %s from %lld to %lld%s",
                 field, s->tok, suffix ? "a size in bytes" : "an integer", (long long)lo,
                 (long long)hi, suffix ? ", written with its b (e.g. 8b)" : "");
        return err_at(s->err, s->path, s->line, "%s", msg);
    }
    *out = v;
    return true;
}

static bool keyword(struct scan *s, const char *want) {
    if (!expect_word(s, want)) return false;
    if (strcmp(s->tok, want)) {
        char msg[200];
        snprintf(msg, sizeof msg, "expected '%s', found '%.60s'", want, s->tok);
        return err_at(s->err, s->path, s->line, "%s", msg);
    }
    return true;
}

/* Labels of the rank being read: name -> operation (a small open table). */
struct labels {
    char **name;
    int32_t *op;
    size_t cap, n;
};

static size_t label_hash(const char *s) {
    size_t h = 1469598103934665603ull;
    while (*s)
        h = (h ^ (unsigned char)*s++) * 1099511628211ull;
    return h;
}

static int32_t *label_slot(struct labels *t, const char *name, bool add) {
    if (add && 2 * (t->n + 1) > t->cap) {
        struct labels old = *t;
        t->cap = t->cap ? 2 * t->cap : 64;
        t->name = xcalloc(t->cap, sizeof *t->name);
        t->op = xcalloc(t->cap, sizeof *t->op);
        t->n = 0;
        for (size_t i = 0; i < old.cap; i++)
            if (old.name[i]) {
                *label_slot(t, old.name[i], true) = old.op[i];
                free(old.name[i]);
            }
        free(old.name);
        free(old.op);
    }
    if (!t->cap) return NULL;
    for (size_t i = label_hash(name) & (t->cap - 1);; i = (i + 1) & (t->cap - 1)) {
        if (!t->name[i]) {
            if (!add) return NULL;
            t->name[i] = xstrdup(name);
            t->n++;
            return &t->op[i];
        }
        if (!strcmp(t->name[i], name)) return &t->op[i];
    }
}

static void labels_clear(struct labels *t) {
    for (size_t i = 0; i < t->cap; i++)
        free(t->name[i]);
    free(t->name);
    free(t->op);
    *t = (struct labels){0};
}

static int32_t add_op(struct grank *k, uint8_t kind, int line) {
    if (k->nops == k->cap) {
        k->cap = k->cap ? 2 * k->cap : 4;
        k->ops = xrealloc_or_die(k->ops, sizeof *k->ops * (size_t)k->cap);
    }
    k->ops[k->nops] = (struct gop){.kind = kind, .first_dep = -1, .id = -1, .line = line};
    return k->nops++;
}

/* cpu C and nic N after an operation: one CPU and one NIC per rank. */
static bool resources(struct scan *s) {
    for (;;) {
        const char *save = s->p;
        int line = s->line;
        if (!next_word(s)) return true;
        if (strcmp(s->tok, "cpu") && strcmp(s->tok, "nic")) {
            s->p = save, s->line = line; /* not ours */
            return true;
        }
        const char *field = strcmp(s->tok, "cpu") ? "nic" : "cpu";
        int64_t v;
        if (!number(s, field, 0, 255, NULL, &v)) return false;
        if (v != 0)
            return fail(s,
                        "%s: simpi models one CPU and one NIC per rank; operations on a "
                        "second one are not replayed",
                        field);
    }
}

static bool parse_op(struct scan *s, struct grank *k, int32_t nranks, uint8_t kind, int32_t *out) {
    int32_t op = add_op(k, kind, s->line);
    struct gop *g = &k->ops[op];
    int64_t v;
    if (kind == GOAL_CALC) {
        if (!number(s, "calc", 0, INT64_MAX / 1000, NULL, &v)) return false;
        k->ops[op].size = v;
    } else {
        if (!number(s, "size", 0, INT64_MAX / 2, "b", &v)) return false;
        g->size = v;
        if (!keyword(s, kind == GOAL_SEND ? "to" : "from")) return false;
        if (!number(s, "peer", kind == GOAL_RECV ? -1 : 0, nranks - 1, NULL, &v)) return false;
        k->ops[op].peer = (int32_t)v;
        if (!keyword(s, "tag")) return false;
        if (!number(s, "tag", kind == GOAL_RECV ? -1 : 0, INT32_MAX, NULL, &v)) return false;
        k->ops[op].tag = (int32_t)v;
    }
    *out = op;
    return resources(s);
}

static void add_dep(struct grank *k, int32_t before_op, int32_t after_op, bool on_start) {
    if (k->ndeps == k->capdeps) {
        k->capdeps = k->capdeps ? 2 * k->capdeps : 4;
        k->deps = xrealloc_or_die(k->deps, sizeof *k->deps * (size_t)k->capdeps);
    }
    k->deps[k->ndeps] = (struct gdep){after_op, k->ops[before_op].first_dep, on_start};
    k->ops[before_op].first_dep = k->ndeps++;
    if (on_start)
        k->ops[after_op].nireq++;
    else
        k->ops[after_op].nreq++;
}

static bool op_kind(const char *w, uint8_t *kind) {
    if (!strcmp(w, "send"))
        *kind = GOAL_SEND;
    else if (!strcmp(w, "recv"))
        *kind = GOAL_RECV;
    else if (!strcmp(w, "calc"))
        *kind = GOAL_CALC;
    else
        return false;
    return true;
}

/* One item of a rank block, its first word read. */
static bool parse_item(struct scan *s, struct grank *k, struct labels *lt, int32_t nranks) {
    uint8_t kind;
    size_t len = strlen(s->tok);
    if (len > 1 && s->tok[len - 1] == ':') { /* LABEL: operation */
        s->tok[len - 1] = '\0';
        if (label_slot(lt, s->tok, false)) return fail(s, "label '%s' defined twice", s->tok);
        char label[128];
        snprintf(label, sizeof label, "%s", s->tok);
        if (!expect_word(s, "an operation")) return false;
        int32_t op;
        if (!op_kind(s->tok, &kind))
            return fail(s, "expected send, recv or calc, found '%.60s'", s->tok);
        if (!parse_op(s, k, nranks, kind, &op)) return false;
        *label_slot(lt, label, true) = op;
        return true;
    }
    if (op_kind(s->tok, &kind)) {
        int32_t op;
        return parse_op(s, k, nranks, kind, &op);
    }
    char a[128];
    snprintf(a, sizeof a, "%s", s->tok);
    if (!expect_word(s, "requires or irequires")) return false;
    bool on_start = !strcmp(s->tok, "irequires");
    if (!on_start && strcmp(s->tok, "requires"))
        return fail(s, "expected an operation or 'LABEL requires LABEL', found '%.60s'", a);
    if (!expect_word(s, "a label")) return false;
    int32_t *after = label_slot(lt, a, false), *first = label_slot(lt, s->tok, false);
    if (!after) return fail(s, "a dependency names label '%s', not defined before it", a);
    if (!first) return fail(s, "a dependency names label '%s', not defined before it", s->tok);
    if (*after == *first) return fail(s, "operation '%s' depends on itself", a);
    add_dep(k, *first, *after, on_start);
    return true;
}

static bool parse_rank(struct scan *s, struct goal *g, bool *seen) {
    int64_t r;
    if (!number(s, "rank", 0, g->nranks - 1, NULL, &r)) return false;
    if (seen[r]) return fail(s, "rank %s has a second block", s->tok);
    seen[r] = true;
    if (!keyword(s, "{")) return false;
    struct labels lt = {0};
    bool ok = true;
    while (ok && (ok = expect_word(s, "'}'")) && strcmp(s->tok, "}"))
        ok = parse_item(s, &g->ranks[r], &lt, g->nranks);
    labels_clear(&lt);
    return ok;
}

static bool parse(struct scan *s, struct goal *g, int64_t max_ranks) {
    int64_t n;
    if (!keyword(s, "num_ranks") || !number(s, "num_ranks", 1, max_ranks, NULL, &n)) return false;
    g->nranks = (int32_t)n;
    g->ranks = xcalloc((size_t)n, sizeof *g->ranks);
    bool *seen = xcalloc((size_t)n, 1);
    bool ok = true;
    while (ok && next_word(s)) {
        ok = !strcmp(s->tok, "rank") || fail(s, "expected 'rank R {', found '%.60s'", s->tok);
        ok = ok && parse_rank(s, g, seen);
    }
    free(seen);
    for (int32_t r = 0; ok && r < g->nranks; r++) {
        struct grank *k = &g->ranks[r];
        k->calc = -1;
        if (k->nops < k->cap) /* no room to spare: a large schedule's ranks are many */
            k->ops = xrealloc_or_die(k->ops, sizeof *k->ops * (size_t)(k->cap = k->nops));
        if (k->ndeps < k->capdeps)
            k->deps = xrealloc_or_die(k->deps, sizeof *k->deps * (size_t)(k->capdeps = k->ndeps));
        for (int32_t i = 0; i < k->nops; i++)
            if (!k->ops[i].nreq && !k->ops[i].nireq) ready_push(k, i);
    }
    return ok;
}

bool goal_is_goal(const char *path) {
    FILE *f = fopen(path, "r");
    if (!f) return false;
    char buf[4096];
    size_t n = fread(buf, 1, sizeof buf, f);
    fclose(f);
    struct scan s = {buf, buf + n, path, 1, NULL, {0}};
    return next_word(&s) && !strcmp(s.tok, "num_ranks");
}

struct goal *goal_open(const char *path, int64_t max_ranks, int32_t *nranks,
                       struct sim_error *err) {
    size_t len;
    char *text = readfile(path, (size_t)64 << 30, &len, "GOAL schedule", err);
    if (!text) return NULL;
    struct goal *g = xcalloc(1, sizeof *g);
    g->path = xstrdup(path);
    struct scan s = {text, text + len, path, 1, err, {0}};
    bool ok = parse(&s, g, max_ranks);
    free(text);
    if (!ok) {
        goal_close(g);
        return NULL;
    }
    *nranks = g->nranks;
    return g;
}

void goal_close(struct goal *g) {
    if (!g) return;
    for (int32_t r = 0; g->ranks && r < g->nranks; r++) {
        free(g->ranks[r].ops);
        free(g->ranks[r].deps);
        free(g->ranks[r].ready);
        free(g->ranks[r].flight);
    }
    free(g->ranks);
    free(g->path);
    free(g);
}

/* ---- running a rank's operations ------------------------------------------- */

/* Operation op reached state (started or done): its dependents may be free. */
static void reached(struct grank *k, int32_t op, uint8_t state) {
    k->ops[op].state = state;
    if (state == OP_DONE) k->done++;
    for (int32_t d = k->ops[op].first_dep; d >= 0; d = k->deps[d].next) {
        if (k->deps[d].on_start != (state == OP_STARTED)) continue;
        struct gop *t = &k->ops[k->deps[d].op];
        int32_t *left = k->deps[d].on_start ? &t->nireq : &t->nreq;
        if (--*left == 0 && !t->nreq && !t->nireq) ready_push(k, k->deps[d].op);
    }
}

/* A request id not used by an operation in flight. */
static int32_t free_id(const struct grank *k) {
    for (int32_t id = 0;; id++) {
        bool used = false;
        for (int32_t i = 0; i < k->nflight && !used; i++)
            used = k->ops[k->flight[i]].id == id;
        if (!used) return id;
    }
}

static void start(struct grank *k, int32_t rank, int32_t op, struct trace_rec *rec) {
    struct gop *g = &k->ops[op];
    *rec = (struct trace_rec){.rank = rank, .req = -1, .color = INT32_MIN, .line = g->line};
    if (g->kind == GOAL_CALC) {
        rec->op = TOP_COMPUTE;
        rec->size = g->size * 1000; /* nanoseconds, as LogGOPSim's times */
        k->calc = op;
    } else {
        rec->op = g->kind == GOAL_SEND ? TOP_ISEND : TOP_IRECV;
        rec->peer = g->peer;
        rec->size = g->size;
        rec->tag = rec->tag2 = g->tag;
        rec->req = g->id = free_id(k);
        if (k->nflight == k->capflight) {
            k->capflight = k->capflight ? 2 * k->capflight : 8;
            k->flight = xrealloc_or_die(k->flight, sizeof *k->flight * (size_t)k->capflight);
        }
        k->flight[k->nflight++] = op;
    }
    reached(k, op, OP_STARTED);
}

/* What ended since the rank last asked: its calc, and the requests done. */
static void collect_ends(struct grank *k, int32_t rank,
                         bool (*finished)(void *ctx, int32_t rank, int32_t id), void *ctx) {
    if (k->calc >= 0) {
        int32_t c = k->calc;
        k->calc = -1;
        reached(k, c, OP_DONE);
    }
    for (int32_t i = 0; i < k->nflight;) {
        int32_t op = k->flight[i];
        if (!finished(ctx, rank, k->ops[op].id)) {
            i++;
            continue;
        }
        k->flight[i] = k->flight[--k->nflight];
        reached(k, op, OP_DONE);
    }
}

int goal_next(struct goal *g, int32_t rank, struct trace_rec *rec,
              bool (*finished)(void *ctx, int32_t rank, int32_t id), void *ctx,
              struct sim_error *err) {
    struct grank *k = &g->ranks[rank];
    collect_ends(k, rank, finished, ctx);
    if (k->nready) {
        start(k, rank, ready_pop(k), rec);
        return 1;
    }
    if (k->nflight) { /* wait for any of them */
        *rec = (struct trace_rec){.op = TOP_WAITANY,
                                  .rank = rank,
                                  .req = -1,
                                  .color = INT32_MIN,
                                  .line = k->ops[k->flight[0]].line};
        rec->ids = xmalloc(sizeof *rec->ids * (size_t)k->nflight);
        for (int32_t i = 0; i < k->nflight; i++)
            rec->ids[i] = k->ops[k->flight[i]].id;
        rec->nids = k->nflight;
        return 1;
    }
    if (k->done == k->nops) return 0;
    for (int32_t i = 0; i < k->nops; i++)
        if (k->ops[i].state == OP_WAITING) {
            err_at(err, g->path, k->ops[i].line,
                   "rank %d: this operation never becomes free (its dependencies wait for "
                   "each other)",
                   rank);
            break;
        }
    return -1;
}
