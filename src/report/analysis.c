/* SPDX-License-Identifier: BSD-3-Clause */
/* The run's observer: hands what the MPI layer reports to the interval tree
 * and to each output asked for, then writes the terminal summary of the
 * intervals and their JSON. */
#include <stdlib.h>
#include <string.h>

#include "core/alloc.h"
#include "core/escape.h"
#include "core/outfile.h"
#include "core/units.h"
#include "report/analysis_internal.h"
#include "report/otf2out.h"
#include "report/phases.h"

struct analysis {
    struct sim *sim;
    struct sim_observer obs;
    struct intervals iv;
    struct phases phases; /* the calls' phases, when the program marks none */
    struct comm_matrix matrix;
    struct paraver *pv;
    struct chrome *chrome;
    struct chrome *otf2; /* --otf2 DIR: the same events, written as OTF2 */
    struct timeline *tl;
    struct critpath *cp; /* --critical-path or --report */
    const char *report, *command;
};

static void on_period(void *ctx, const struct sim_period *p) {
    struct analysis *a = ctx;
    intervals_period(&a->iv, p);
    phases_period(&a->phases, p);
    if (a->pv) paraver_period(a->pv, p);
    if (a->chrome) chrome_period(a->chrome, p);
    if (a->otf2) chrome_period(a->otf2, p);
    if (a->tl) timeline_period(a->tl, p);
    if (a->cp) critpath_period(a->cp, p);
}

static void on_instant(void *ctx, int32_t rank, simtime_t t, enum sim_call call) {
    struct analysis *a = ctx;
    if (a->pv) paraver_instant(a->pv, rank, t, call);
    if (a->chrome) chrome_instant(a->chrome, rank, t, call);
    if (a->otf2) chrome_instant(a->otf2, rank, t, call);
}

static void matrix_add(struct comm_matrix *mx, int32_t from, int32_t to, int64_t size) {
    size_t cell = (size_t)divisor_apply(&mx->by_group, (uint32_t)from) * (size_t)mx->groups +
                  divisor_apply(&mx->by_group, (uint32_t)to);
    mx->cell[cell].msgs++;
    mx->cell[cell].bytes += size;
}

void matrix_json(const struct comm_matrix *mx, FILE *f) {
    fprintf(f, "\"matrix\": {\"groups\": %d, \"group_size\": %d, \"messages\": [", mx->groups,
            mx->group_size);
    size_t cells = (size_t)mx->groups * (size_t)mx->groups;
    for (size_t i = 0; i < cells; i++)
        fprintf(f, "%s%lld", i ? "," : "", (long long)mx->cell[i].msgs);
    fputs("], \"bytes\": [", f);
    for (size_t i = 0; i < cells; i++)
        fprintf(f, "%s%lld", i ? "," : "", (long long)mx->cell[i].bytes);
    fputs("]}", f);
}

/* The outputs that draw messages (Paraver, Chrome, OTF2, the report's
 * timeline) take each one whole; the matrix alone needs only its pair. */
static void on_message(void *ctx, const struct sim_message *m) {
    struct analysis *a = ctx;
    matrix_add(&a->matrix, m->from, m->to, m->size);
    if (a->pv) paraver_message(a->pv, m);
    if (a->chrome) chrome_message(a->chrome, m);
    if (a->otf2) chrome_message(a->otf2, m);
    if (a->tl) timeline_message(a->tl, m);
    if (a->cp) critpath_message(a->cp, m);
}

static void on_message_pair(void *ctx, int32_t from, int32_t to, int64_t size) {
    struct analysis *a = ctx;
    matrix_add(&a->matrix, from, to, size);
}

static void on_interval(void *ctx, int32_t rank, simtime_t t, const char *name) {
    struct analysis *a = ctx;
    phases_marked(&a->phases);
    int32_t node = name ? intervals_enter(&a->iv, rank, t, name) : intervals_leave(&a->iv, rank, t);
    if (a->pv) paraver_interval(a->pv, rank, t, node);
    if (a->chrome) chrome_interval(a->chrome, rank, t, name);
    if (a->otf2) chrome_interval(a->otf2, rank, t, name);
}

static void on_finish(void *ctx, int32_t rank, simtime_t t) {
    struct analysis *a = ctx;
    int32_t open = a->iv.track[rank].depth; /* closed at the rank's end */
    for (int32_t d = 0; d < open && a->chrome; d++)
        chrome_interval(a->chrome, rank, t, NULL);
    for (int32_t d = 0; d < open && a->otf2; d++)
        chrome_interval(a->otf2, rank, t, NULL);
    if (open && a->pv) paraver_interval(a->pv, rank, t, 0);
    intervals_finish(&a->iv, rank, t);
    if (a->cp) critpath_finish_rank(a->cp, rank, t);
    if (phases_finished(&a->phases, rank, t)) phases_rebuild(&a->phases, &a->iv);
}

/* --- a split run: each worker's observations, merged in the first --- */

static bool owns(void *ctx, int32_t rank) {
    return sim_owns(ctx, rank);
}

static size_t on_pack(void *ctx, char **out) {
    struct analysis *a = ctx;
    struct blob b = {0};
    size_t cells = (size_t)a->matrix.groups * (size_t)a->matrix.groups;
    blob_put(&b, a->matrix.cell, sizeof *a->matrix.cell * cells);
    intervals_pack(&a->iv, owns, a->sim, &b);
    if (a->tl) timeline_pack(a->tl, a->sim, owns, a->sim, &b);
    if (a->cp) critpath_pack(a->cp, owns, a->sim, &b);
    if (a->pv) paraver_pack(a->pv, &b);
    if (a->chrome) chrome_pack(a->chrome, &b);
    if (a->otf2) chrome_pack(a->otf2, &b);
    *out = b.data;
    return b.len;
}

static void on_unpack(void *ctx, const char *blob, size_t len) {
    struct analysis *a = ctx;
    size_t cells = (size_t)a->matrix.groups * (size_t)a->matrix.groups;
    size_t part = sizeof(struct matrix_cell) * cells;
    if (len < part) return;
    for (size_t i = 0; i < cells; i++) {
        struct matrix_cell c;
        memcpy(&c, blob + i * sizeof c, sizeof c);
        a->matrix.cell[i].msgs += c.msgs;
        a->matrix.cell[i].bytes += c.bytes;
    }
    size_t at = part, got = intervals_unpack(&a->iv, blob + at, len - at);
    at += got;
    if (got && a->tl) at += got = timeline_unpack(a->tl, blob + at, len - at);
    if (got && a->cp) at += got = critpath_unpack(a->cp, blob + at, len - at);
    if (got && a->pv)
        at += got = paraver_unpack(a->pv, blob + at, len - at, a->iv.unpack_map, a->iv.unpack_n);
    if (got && a->chrome) at += got = chrome_unpack(a->chrome, blob + at, len - at);
    if (got && a->otf2) chrome_unpack(a->otf2, blob + at, len - at);
}

/* Parses "0,4,8-11" into ranks below n (out may be NULL: only checks). */
static int parse_ranks(const char *list, int32_t n, int32_t *out, int max, struct sim_error *err) {
    int count = 0;
    const char *p = list;
    while (*p) {
        char *end;
        long a = strtol(p, &end, 10), b = a;
        if (end == p || a < 0) goto bad;
        if (*end == '-') {
            const char *q = end + 1;
            b = strtol(q, &end, 10);
            if (end == q || b < a) goto bad;
        }
        if (*end && *end != ',') goto bad;
        for (long r = a; r <= b && count < max; r++) {
            if (n > 0 && r >= n)
                return err_set(err, "--timeline-ranks: rank %ld is outside the run (%d ranks)", r,
                               n),
                       -1;
            if (out) out[count] = (int32_t)r;
            count++;
        }
        p = *end ? end + 1 : end;
    }
    return count;
bad:
    err_set(err, "--timeline-ranks: found '%s', expected ranks and ranges such as 0,4,8-11", list);
    return -1;
}

bool analysis_check_ranks(const char *list, struct sim_error *err) {
    return parse_ranks(list, 0, NULL, 1 << 20, err) >= 0;
}

int analysis_rank_list(const char *list, int32_t n, int32_t *out, int max, struct sim_error *err) {
    return parse_ranks(list, n, out, max, err);
}

bool analysis_outputs_writable(const struct analysis_opts *o, struct sim_error *err) {
    if (!outfile_writable(o->report, err) || !otf2out_writable(o->otf2, err)) return false;
    static const char *const ends[] = {".prv", ".pcf", ".row"};
    for (int i = 0; o->paraver && i < 3; i++) {
        char path[4096];
        snprintf(path, sizeof path, "%s%s", o->paraver, ends[i]);
        if (!outfile_writable(path, err)) return false;
    }
    return true;
}

struct analysis *analysis_start(struct sim *s, const struct analysis_opts *o,
                                struct sim_error *err) {
    struct analysis *a = xcalloc(1, sizeof *a);
    a->sim = s;
    a->report = o->report;
    a->command = o->command;
    intervals_init(&a->iv, sim_size(s));
    a->iv.cpu_not_measured = o->cpu_not_measured;
    phases_init(&a->phases, s);
    int32_t n = sim_size(s);
    a->matrix.groups = n < MATRIX_GROUPS ? n : MATRIX_GROUPS;
    a->matrix.group_size = (n + a->matrix.groups - 1) / a->matrix.groups;
    a->matrix.by_group = divisor_make((uint32_t)a->matrix.group_size);
    a->matrix.cell =
        xcalloc((size_t)a->matrix.groups * (size_t)a->matrix.groups, sizeof *a->matrix.cell);
    bool ok = true;
    if (o->paraver) ok = (a->pv = paraver_open(s, o->paraver, err)) != NULL;
    if (ok && o->chrome) ok = (a->chrome = chrome_open(s, o->chrome, o->command, err)) != NULL;
    if (ok && o->otf2) ok = (a->otf2 = chrome_open_otf2(s, o->otf2, o->command, err)) != NULL;
    if (ok && o->report) ok = (a->tl = timeline_open(s, o->timeline_ranks, err)) != NULL;
    if (!ok) {
        analysis_free(a);
        return NULL;
    }
    if (o->critical_path || o->report) a->cp = critpath_open(s);
    bool draws_messages = a->pv || a->chrome || a->otf2 || a->tl || a->cp;
    a->obs = (struct sim_observer){.ctx = a,
                                   .period = on_period,
                                   .instant = on_instant,
                                   .message = draws_messages ? on_message : NULL,
                                   .message_pair = on_message_pair,
                                   .interval = on_interval,
                                   .finish = on_finish,
                                   .pack = on_pack,
                                   .unpack = on_unpack};
    sim_set_observer(s, &a->obs);
    return a;
}

bool analysis_finish(struct analysis *a, const struct run_info *info, struct sim_error *err) {
    sim_set_observer(a->sim, NULL);
    phases_free(&a->phases); /* kept no longer (a run that did not end) */
    intervals_integrate(&a->iv, a->sim);
    bool ok = true;
    size_t nfaults;
    const struct sim_fault_note *faults = sim_fault_log(a->sim, &nfaults);
    if (a->pv) paraver_faults(a->pv, faults, nfaults);
    if (a->chrome) chrome_faults(a->chrome, faults, nfaults);
    if (a->otf2) {
        struct sim_error e2 = {0};
        if (!chrome_close(a->otf2, ok ? err : &e2)) ok = false;
        a->otf2 = NULL;
    }
    if (a->pv) {
        simtime_t end = sim_now(a->sim); /* a fault's abort: the computations under way end later */
        for (int32_t r = 0; a->iv.nodes[0].rank && r < a->iv.nranks; r++)
            if (a->iv.nodes[0].rank[r].exec > end) end = a->iv.nodes[0].rank[r].exec;
        ok = paraver_close(a->pv, &a->iv, end, err);
        a->pv = NULL;
    }
    if (a->chrome) {
        struct sim_error e2 = {0};
        if (!chrome_close(a->chrome, ok ? err : &e2)) ok = false;
        a->chrome = NULL;
    }
    if (a->cp) critpath_compute(a->cp, a->sim);
    if (ok && a->report)
        ok = report_write(a->report, a->tl, &a->iv, &a->matrix, a->cp, a->sim, info, a->command,
                          err);
    return ok;
}

void analysis_free(struct analysis *a) {
    if (!a) return;
    if (a->sim) sim_set_observer(a->sim, NULL);
    if (a->pv) paraver_close(a->pv, NULL, 0, NULL);
    if (a->chrome) chrome_close(a->chrome, NULL);
    if (a->otf2) chrome_close(a->otf2, NULL);
    timeline_free(a->tl);
    critpath_free(a->cp);
    intervals_free(&a->iv);
    phases_free(&a->phases);
    free(a->matrix.cell);
    free(a);
}

/* --- terminal summary --- */

#define TOP_INTERVALS 5

static const char *secs(double seconds, char *buf, size_t n) {
    return units_format_time(simtime_from_seconds(seconds), buf, n);
}

static void print_interval(FILE *out, const struct analysis *a, int32_t i) {
    struct interval_totals t;
    intervals_totals(&a->iv, i, &t);
    char name[40], time[32], lost[32], idle[32], imb[32], sync[32];
    escape_line(name, sizeof name, a->iv.nodes[i].name);
    int64_t entries = 0;
    for (int32_t r = 0; r < a->iv.nranks; r++)
        entries += a->iv.nodes[i].rank[r].entries;
    char eff[16];
    if (a->iv.cpu_not_measured)
        snprintf(eff, sizeof eff, "not measured");
    else
        snprintf(eff, sizeof eff, "%.1f%%", 100.0 * t.efficiency);
    fprintf(out, "  %4d %-26s %9lld %14s %*s %14s %14s %14s %14s\n", i, name, (long long)entries,
            units_format_time(t.time, time, sizeof time), a->iv.cpu_not_measured ? 12 : 10, eff,
            secs(t.lost, lost, sizeof lost), secs(t.idle, idle, sizeof idle),
            secs(t.imbalance, imb, sizeof imb), secs(t.sync_loss, sync, sizeof sync));
}

struct lost_rank {
    double lost;
    int32_t node;
};

static int by_lost(const void *x, const void *y) {
    const struct lost_rank *a = x, *b = y;
    if (a->lost != b->lost) return a->lost < b->lost ? 1 : -1;
    return a->node - b->node;
}

void analysis_print(const struct analysis *a, FILE *out) {
    const struct intervals *iv = &a->iv;
    if (iv->unbalanced)
        fprintf(out, "simpi: warning: %lld unbalanced interval mark(s); the first: %s\n",
                (long long)iv->unbalanced, iv->first_unbalanced);
    if (iv->too_many)
        fprintf(out,
                "simpi: warning: more than %d distinct intervals; the others are counted "
                "in their parents\n",
                MAX_INTERVALS);
    if (a->cp) critpath_print(a->cp, out);
    if (iv->nnodes == 1) return;
    struct lost_rank *order = xcalloc((size_t)iv->nnodes, sizeof *order);
    for (int32_t i = 1; i < iv->nnodes; i++) {
        struct interval_totals t;
        intervals_totals(iv, i, &t);
        order[i - 1] = (struct lost_rank){t.lost, i};
    }
    qsort(order, (size_t)iv->nnodes - 1, sizeof *order, by_lost);
    fprintf(out, "\nintervals by lost time (lost = time x ranks - computation; summed over "
                 "ranks):\n");
    fprintf(out, "  %4s %-26s %9s %14s %*s %14s %14s %14s %14s\n", "id", "interval", "entries",
            "time", iv->cpu_not_measured ? 12 : 10, "efficiency", "lost", "idle", "imbalance",
            "sync loss");
    print_interval(out, a, 0);
    for (int32_t k = 0; k < iv->nnodes - 1 && k < TOP_INTERVALS; k++)
        print_interval(out, a, order[k].node);
    free(order);
}

/* --- JSON --- */

/* Which per-rank figure of a node a JSON array lists: a field of its
 * struct acc (an entry count, or a time), or its time in one kind of
 * collective. */
struct per_rank_field {
    size_t offset;
    int coll; /* a kind of collective, or -1: the field at offset */
    bool count;
};

/* A per-rank array, formatted without printf (simtime_format_seconds,
 * units_format_int: the same text as "%.12g" and "%lld") into a buffer
 * written a few KiB at a time: at a million ranks printf took most of the
 * time of a JSON report. */
static void json_array(FILE *f, const struct intervals *iv, int32_t node,
                       struct per_rank_field what) {
    const struct inode *in = &iv->nodes[node];
    char buf[4096];
    size_t n = 0;
    buf[n++] = '[';
    for (int32_t r = 0; r < iv->nranks; r++) {
        if (n > sizeof buf - 40) {
            fwrite(buf, 1, n, f);
            n = 0;
        }
        const char *p = (const char *)&in->rank[r] + what.offset;
        if (r) buf[n++] = ',';
        if (what.count)
            n += (size_t)units_format_int(*(const int64_t *)p, buf + n);
        else
            n += (size_t)simtime_format_seconds(
                what.coll >= 0 ? inode_coll(in, what.coll, r) : *(const simtime_t *)p, buf + n);
    }
    buf[n++] = ']';
    fwrite(buf, 1, n, f);
}

static void json_per_rank(FILE *f, const struct intervals *iv, int32_t node) {
    static const struct {
        const char *name;
        size_t offset;
    } fields[] = {{"time", offsetof(struct acc, exec)},
                  {"cpu", offsetof(struct acc, cpu)},
                  {"p2p", offsetof(struct acc, p2p)},
                  {"other", offsetof(struct acc, other)},
                  {"sync_loss", offsetof(struct acc, sync_loss)},
                  {"overlap", offsetof(struct acc, overlap)}};
    fprintf(f, "\"per_rank\": {\"entries\": ");
    json_array(f, iv, node, (struct per_rank_field){offsetof(struct acc, entries), -1, true});
    for (size_t i = 0; i < sizeof fields / sizeof *fields; i++) {
        fprintf(f, ", \"%s\": ", fields[i].name);
        json_array(f, iv, node, (struct per_rank_field){fields[i].offset, -1, false});
    }
    for (int k = 0; k < COLL_KINDS; k++) {
        fprintf(f, ", \"%s\": ", sim_coll_name((enum coll_kind)k));
        json_array(f, iv, node, (struct per_rank_field){0, k, false});
    }
    fputc('}', f);
}

void analysis_interval_json(const struct intervals *iv, int32_t i, FILE *f, bool per_rank) {
    const struct inode *n = &iv->nodes[i];
    struct interval_totals t;
    intervals_totals(iv, i, &t);
    int64_t entries = 0;
    for (int32_t r = 0; r < iv->nranks; r++)
        entries += n->rank[r].entries;
    fprintf(f, "{\"id\": %d, \"parent\": %d, \"name\": ", i, n->parent);
    escape_json(f, n->name);
    fprintf(f,
            ", \"entries\": %lld, \"ranks\": %d, \"time\": %.12g, \"cpu\": %.12g, \"comm\": "
            "%.12g, \"p2p\": %.12g, \"other\": %.12g, \"idle\": %.12g, \"imbalance\": %.12g, "
            "\"sync_loss\": %.12g, \"overlap\": %.12g, \"lost\": %.12g, \"efficiency\": ",
            (long long)entries, t.ranks, analysis_seconds(t.time), t.cpu, t.comm, t.p2p, t.other,
            t.idle, t.imbalance, t.sync_loss, t.overlap, t.lost);
    if (iv->cpu_not_measured)
        fputs("null", f); /* --cpu=ignore: not measured */
    else
        fprintf(f, "%.12g", t.efficiency);
    fprintf(f,
            ", \"collective_calls\": %lld, \"collective_spread\": {\"total\": %.12g, \"max\": "
            "%.12g}, \"collectives\": {",
            (long long)n->coll_calls, analysis_seconds(n->spread_sum),
            analysis_seconds(n->spread_max));
    for (int k = 0; k < COLL_KINDS; k++)
        fprintf(f, "%s\"%s\": %.12g", k ? ", " : "", sim_coll_name((enum coll_kind)k), t.coll[k]);
    fputc('}', f);
    if (per_rank) {
        fputs(", ", f);
        json_per_rank(f, iv, i);
    }
    fputc('}', f);
}

void analysis_json(const struct analysis *a, FILE *f) {
    const struct intervals *iv = &a->iv;
    fprintf(f, "  \"intervals\": [\n");
    for (int32_t i = 0; i < iv->nnodes; i++) {
        fputs("    ", f);
        analysis_interval_json(iv, i, f, true);
        fputs(i + 1 < iv->nnodes ? ",\n" : "\n", f);
    }
    fprintf(f, "  ],\n  \"unbalanced_intervals\": %lld,\n  ", (long long)iv->unbalanced);
    matrix_json(&a->matrix, f);
    fputs(",\n", f);
    if (a->cp) critpath_json(a->cp, f);
}
