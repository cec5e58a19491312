/* SPDX-License-Identifier: BSD-3-Clause */
/* The self-contained HTML report (--report FILE.html): the page template
 * (report_template.html, embedded at build time) with the run's data as one
 * JSON object inside it. What the page draws:
 * - the interval tree and each interval's characteristics;
 * - per-rank stacked bars (ranks grouped when there are more than
 *   BAR_GROUPS, so the file stays small at any scale);
 * - a timeline of states and messages for a few ranks (--timeline-ranks,
 *   default the slowest and a sample): every state goes to an unlinked
 *   temporary file as the run goes, and the chosen ranks' are read back at
 *   the end, with states shorter than the run / TL_WIDTH merged so that a
 *   rank has at most about 2 x TL_WIDTH of them;
 * - the communication matrix (analysis.c);
 * - the busiest links under contention, the platform and the command. */
#include <stdlib.h>
#include <string.h>

#include "core/alloc.h"
#include "core/escape.h"
#include "core/outfile.h"
#include "net/contention.h"
#include "net/interfaces.h"
#include "report/analysis_internal.h"

#define BAR_GROUPS 512
#define TL_DEFAULT_RANKS 16
#define TL_MAX_RANKS 64
#define TL_WIDTH 4000
#define TL_MAX_MESSAGES 20000
#define TOP_LINKS 10

extern const char simpi_report_template[];

/* A state (a >= 0: the rank; b: state | call << 8) or a message (a: -1 -
 * sender; b: receiver) in the temporary file. */
struct tl_rec {
    int32_t a, b;
    simtime_t t0, t1;
};

struct timeline {
    FILE *tmp;
    int32_t nranks;
    const char *ranks; /* the user's list, or NULL */
    bool failed;
};

struct timeline *timeline_open(const struct sim *s, const char *ranks, struct sim_error *err) {
    if (ranks && analysis_rank_list(ranks, sim_size(s), NULL, TL_MAX_RANKS, err) < 0) return NULL;
    struct timeline *tl = xcalloc(1, sizeof *tl);
    tl->tmp = tmpfile();
    if (!tl->tmp) {
        free(tl);
        err_set(err, "--report: cannot create a temporary file (set TMPDIR to a writable folder)");
        return NULL;
    }
    tl->ranks = ranks;
    tl->nranks = sim_size(s);
    return tl;
}

void timeline_free(struct timeline *tl) {
    if (!tl) return;
    fclose(tl->tmp);
    free(tl);
}

static void tl_put(struct timeline *tl, int32_t a, int32_t b, simtime_t t0, simtime_t t1) {
    struct tl_rec r = {a, b, t0, t1};
    if (fwrite(&r, sizeof r, 1, tl->tmp) != 1) tl->failed = true;
}

void timeline_period(struct timeline *tl, const struct sim_period *p) {
    if (p->end > p->begin) tl_put(tl, p->rank, p->state | p->call << 8, p->begin, p->end);
}

void timeline_message(struct timeline *tl, const struct sim_message *m) {
    tl_put(tl, -1 - m->from, m->to, m->lsend, m->precv);
}

/* --- choosing the ranks shown --- */

static int cmp_rank(const void *a, const void *b) {
    return *(const int32_t *)a - *(const int32_t *)b;
}

/* The user's ranks, or a sample of TL_DEFAULT_RANKS spread evenly from
 * rank 0 (at most TL_MAX_RANKS); returns how many. */
static int user_or_sample(const struct timeline *tl, int32_t *out) {
    if (tl->ranks) {
        struct sim_error err = {0};
        return analysis_rank_list(tl->ranks, tl->nranks, out, TL_MAX_RANKS, &err);
    }
    int want = tl->nranks < TL_DEFAULT_RANKS ? tl->nranks : TL_DEFAULT_RANKS;
    for (int i = 0; i < want; i++)
        out[i] = (int32_t)((int64_t)i * tl->nranks / want);
    return want;
}

/* The user's ranks, or the slowest, rank 0 and a sample spread evenly. */
static int chosen_ranks(const struct timeline *tl, const struct sim *s, int32_t *out) {
    int32_t sample[TL_MAX_RANKS];
    int k = user_or_sample(tl, sample), n = 0;
    if (!tl->ranks) {
        int32_t slowest = 0;
        for (int32_t r = 1; r < tl->nranks; r++)
            if (sim_rank_stats(s, r)->finish > sim_rank_stats(s, slowest)->finish) slowest = r;
        out[n++] = slowest;
        for (int i = 0; n < k && i < k; i++)
            if (sample[i] != slowest) out[n++] = sample[i];
    } else {
        memcpy(out, sample, sizeof *out * (size_t)k);
        n = k;
    }
    qsort(out, (size_t)n, sizeof *out, cmp_rank);
    return n;
}

/* --- the data object --- */

static void put_seconds(FILE *f, simtime_t t) {
    fprintf(f, "%.12g", analysis_seconds(t));
}

struct shown {
    int32_t *ranks;
    int n;
    int32_t *index; /* rank -> position among the shown, -1 if not shown */
};

struct pending_state {
    simtime_t t0, t1, longest;
    int32_t b, longest_b;
    bool open;
};

static void emit_state(FILE *f, bool *first, int i, const struct pending_state *p) {
    fprintf(f, "%s[%d,%d,%d,", *first ? "" : ",", i, p->longest_b & 0xff, p->longest_b >> 8);
    put_seconds(f, p->t0);
    fputc(',', f);
    put_seconds(f, p->t1);
    fputc(']', f);
    *first = false;
}

/* Adds state r to rank i's pending one, merging those shorter than w. */
static void add_state(FILE *f, bool *first, int i, struct pending_state *p, const struct tl_rec *r,
                      simtime_t w) {
    simtime_t len = r->t1 - r->t0;
    if (p->open && (p->t1 - p->t0 < w || len < w) && r->t1 - p->t0 < 2 * w) {
        p->t1 = r->t1;
        if (len > p->longest) p->longest = len, p->longest_b = r->b;
        return;
    }
    if (p->open) emit_state(f, first, i, p);
    *p = (struct pending_state){r->t0, r->t1, len, r->b, r->b, true};
}

/* The shown ranks' states, by rank then time, and the messages between
 * them, by send time: an order that does not depend on the order in which
 * the run reported them (a split run's first worker has its own first, then
 * the others'). */
static int cmp_state(const void *x, const void *y) {
    const struct tl_rec *a = x, *b = y;
    if (a->a != b->a) return a->a < b->a ? -1 : 1;
    if (a->t0 != b->t0) return a->t0 < b->t0 ? -1 : 1;
    return a->t1 < b->t1 ? -1 : a->t1 > b->t1;
}

static int cmp_message(const void *x, const void *y) {
    const struct tl_rec *a = x, *b = y;
    if (a->t0 != b->t0) return a->t0 < b->t0 ? -1 : 1;
    if (a->a != b->a) return a->a > b->a ? -1 : 1; /* -1 - sender: the lower sender first */
    if (a->b != b->b) return a->b < b->b ? -1 : 1;
    return a->t1 < b->t1 ? -1 : a->t1 > b->t1;
}

struct tl_list {
    struct tl_rec *r;
    size_t n, cap;
};

static void tl_list_add(struct tl_list *l, const struct tl_rec *r) {
    if (l->n == l->cap) {
        l->cap = l->cap ? 2 * l->cap : 1024;
        l->r = xrealloc_or_die(l->r, sizeof *l->r * l->cap);
    }
    l->r[l->n++] = *r;
}

static void json_timeline(FILE *f, struct timeline *tl, const struct shown *sh, simtime_t end) {
    simtime_t w = end / TL_WIDTH;
    struct pending_state *pend = xcalloc((size_t)sh->n, sizeof *pend);
    struct tl_list states = {0}, msgs = {0};
    fflush(tl->tmp);
    rewind(tl->tmp);
    struct tl_rec r;
    while (fread(&r, sizeof r, 1, tl->tmp) == 1) {
        if (r.a >= 0 && sh->index[r.a] >= 0)
            tl_list_add(&states, &r);
        else if (r.a < 0 && sh->index[-1 - r.a] >= 0 && sh->index[r.b] >= 0)
            tl_list_add(&msgs, &r);
    }
    if (states.n) qsort(states.r, states.n, sizeof *states.r, cmp_state);
    if (msgs.n) qsort(msgs.r, msgs.n, sizeof *msgs.r, cmp_message);
    fputs("\"timeline\": {\"ranks\": [", f);
    for (int i = 0; i < sh->n; i++)
        fprintf(f, "%s%d", i ? "," : "", sh->ranks[i]);
    fputs("], \"states\": [", f);
    bool first = true;
    for (size_t k = 0; k < states.n; k++)
        add_state(f, &first, sh->index[states.r[k].a], &pend[sh->index[states.r[k].a]],
                  &states.r[k], w);
    for (int i = 0; i < sh->n; i++)
        if (pend[i].open) emit_state(f, &first, i, &pend[i]);
    fputs("], \"messages\": [", f);
    size_t drawn = msgs.n < TL_MAX_MESSAGES ? msgs.n : TL_MAX_MESSAGES;
    for (size_t k = 0; k < drawn; k++) {
        const struct tl_rec *m = &msgs.r[k];
        fprintf(f, "%s[%d,%d,", k ? "," : "", sh->index[-1 - m->a], sh->index[m->b]);
        put_seconds(f, m->t0);
        fputc(',', f);
        put_seconds(f, m->t1);
        fputc(']', f);
    }
    fprintf(f, "], \"messages_not_drawn\": %lld}", (long long)(msgs.n - drawn));
    free(states.r);
    free(msgs.r);
    free(pend);
}

/* --- a split run: each worker's timeline of the ranks that may be shown --- */

void timeline_pack(struct timeline *tl, const struct sim *s, bool (*owns)(void *ctx, int32_t rank),
                   void *ctx, struct blob *b) {
    int32_t slowest = -1;
    for (int32_t r = 0; r < tl->nranks; r++)
        if (owns(ctx, r) &&
            (slowest < 0 || sim_rank_stats(s, r)->finish > sim_rank_stats(s, slowest)->finish))
            slowest = r;
    /* the ranks that may be shown: the user's list, or the evenly spread
     * sample and this worker's slowest rank (which may be the run's) */
    uint8_t *keep = xcalloc((size_t)tl->nranks, 1);
    int32_t list[TL_MAX_RANKS];
    int n = user_or_sample(tl, list);
    for (int i = 0; i < n; i++)
        keep[list[i]] = owns(ctx, list[i]);
    if (!tl->ranks && slowest >= 0) keep[slowest] = 1;
    fflush(tl->tmp);
    rewind(tl->tmp);
    struct tl_list l = {0};
    struct tl_rec r;
    while (fread(&r, sizeof r, 1, tl->tmp) == 1) /* states of its ranks, messages to them */
        if ((r.a >= 0 && keep[r.a]) || (r.a < 0 && keep[r.b])) tl_list_add(&l, &r);
    uint64_t count = l.n;
    blob_put(b, &count, sizeof count);
    blob_put(b, l.r, sizeof *l.r * l.n);
    free(l.r);
    free(keep);
}

size_t timeline_unpack(struct timeline *tl, const char *p, size_t len) {
    uint64_t n;
    if (len < sizeof n) return 0;
    memcpy(&n, p, sizeof n);
    if (n > (len - sizeof n) / sizeof(struct tl_rec)) return 0;
    fseek(tl->tmp, 0, SEEK_END);
    if (n && fwrite(p + sizeof n, sizeof(struct tl_rec), (size_t)n, tl->tmp) != n)
        tl->failed = true;
    return sizeof n + (size_t)n * sizeof(struct tl_rec);
}

/* One interval's per-rank bars (seconds), ranks grouped by their mean. */
static void json_bars(FILE *f, const struct intervals *iv, int32_t node) {
    const struct inode *n = &iv->nodes[node];
    int32_t groups = iv->nranks < BAR_GROUPS ? iv->nranks : BAR_GROUPS;
    int32_t size = (iv->nranks + groups - 1) / groups;
    struct interval_totals t;
    intervals_totals(iv, node, &t);
    fprintf(f, "{\"group_size\": %d, \"bars\": [", size);
    for (int32_t g = 0; g * size < iv->nranks; g++) {
        double cpu = 0, p2p = 0, coll = 0, other = 0, idle = 0;
        int32_t k = 0;
        for (int32_t r = g * size; r < iv->nranks && r < (g + 1) * size; r++, k++) {
            const struct acc *a = &n->rank[r];
            cpu += analysis_seconds(a->cpu);
            p2p += analysis_seconds(a->p2p);
            other += analysis_seconds(a->other);
            for (int c = 0; c < COLL_KINDS; c++)
                coll += analysis_seconds(inode_coll(n, c, r));
            if (a->entries) idle += analysis_seconds(t.time - a->exec);
        }
        fprintf(f, "%s[%d,%.9g,%.9g,%.9g,%.9g,%.9g]", g ? "," : "", g * size, cpu / k, p2p / k,
                coll / k, other / k, idle / k);
    }
    fputs("]}", f);
}

/* The busiest links and interfaces, with the --json document's keys. */
static void json_links(FILE *f, const struct sim *s) {
    fputs("\"busiest_links\": [", f);
    summary_json_busiest(f, s, TOP_LINKS);
    fputs("]", f);
}

static void json_names(FILE *f) {
    fputs("\"states\": {", f);
    static const int states[] = {0, 1, 3, 4, 5, 6, 8, 10, 12, 13, 16};
    for (size_t i = 0; i < sizeof states / sizeof *states; i++)
        fprintf(f, "%s\"%d\": \"%s\"", i ? "," : "", states[i],
                sim_state_name((enum sim_state)states[i]));
    fputs("}, \"calls\": [", f);
    for (int c = 0; c < SIM_CALLS; c++)
        fprintf(f, "%s\"%s\"", c ? "," : "", sim_call_name((enum sim_call)c));
    fputs("]", f);
}

/* The timeline's end: the prediction; for a run that stopped (a fault, an
 * error), the later of the stop and the end of the computations under way
 * then (their whole is counted). */
static simtime_t shown_end(const struct intervals *iv, const struct sim *s, enum sim_status st) {
    simtime_t end = summary_end(s, st);
    for (int32_t r = 0; st != SIM_OK && iv->nodes[0].rank && r < iv->nranks; r++)
        if (iv->nodes[0].rank[r].exec > end) end = iv->nodes[0].rank[r].exec;
    return end;
}

/* How computation was measured, for the header (on-line runs): the
 * --json document's "host" and "repeat". */
static void json_host(FILE *f, const struct host_figures *h) {
    if (!h || !h->clock) return;
    summary_json_host_object(f, h);
    fputs(", ", f);
    if (h->runs > 1) {
        summary_json_repeat_object(f, h);
        fputs(", ", f);
    }
}

static void json_header(FILE *f, const struct sim *s, const struct run_info *in,
                        const char *command, simtime_t end) {
    fputs("{\"input\": ", f);
    escape_json(f, in->what ? in->what : "");
    fputs(", \"platform\": ", f);
    escape_json(f, in->platform ? in->platform : "");
    fputs(", \"ideal\": ", f);
    escape_json(f, in->ideal ? in->ideal : "none");
    fputs(", \"command\": ", f);
    escape_json(f, command ? command : "");
    fprintf(f, ", \"nodes\": %lld, \"nranks\": %d, \"predicted\": ", (long long)in->nodes,
            sim_size(s));
    put_seconds(f, end);
    fputs(", \"stopped\": ", f);
    put_seconds(f, summary_end(s, in->status)); /* a failed run: when it stopped */
    fprintf(f, ", \"status\": \"%s\", \"wall_time\": %.6f, \"faults\": [",
            in->status == SIM_OK ? "ok" : "failed", in->wall_seconds);
    size_t nf;
    const struct sim_fault_note *log = sim_fault_log(s, &nf);
    for (size_t i = 0; i < nf; i++) { /* marked on the timeline (docs/faults.md) */
        fputs(i ? ",[" : "[", f);
        put_seconds(f, log[i].at);
        fputc(',', f);
        escape_json(f, log[i].what);
        fputc(']', f);
    }
    fputs("], ", f);
    json_host(f, in->host);
}

/* The critical path's pieces between the ranks shown (their rows), for the
 * timeline to draw: [kind, row, from row, t0, t1], and its totals. */
static void json_critical_path(FILE *f, const struct critpath *cp, const struct shown *sh) {
    size_t n;
    const struct cp_segment *seg = critpath_segments(cp, &n);
    const struct cp_totals *t = critpath_totals(cp);
    fputs("\"critical_path\": {\"segments\": [", f);
    int out = 0;
    for (size_t i = 0; i < n; i++) {
        int32_t row = sh->index[seg[i].rank], from = sh->index[seg[i].from];
        if (row < 0 || from < 0) continue;
        fprintf(f, "%s[%d,%d,%d,", out++ ? "," : "", seg[i].kind, row, from);
        put_seconds(f, seg[i].t0);
        fputc(',', f);
        put_seconds(f, seg[i].t1);
        fputc(']', f);
    }
    fprintf(f, "], \"pieces\": %zu, \"shown\": %d", n, out);
    if (t)
        fprintf(f,
                ", \"computation\": %.12g, \"latency\": %.12g, \"transfer\": %.12g, "
                "\"waiting\": %.12g",
                analysis_seconds(t->computation), analysis_seconds(t->latency),
                analysis_seconds(t->transfer), analysis_seconds(t->waiting));
    fputs("}", f);
}

static void write_data(FILE *f, struct timeline *tl, const struct intervals *iv,
                       const struct comm_matrix *mx, const struct critpath *cp, const struct sim *s,
                       const struct run_info *in, const char *command) {
    simtime_t end = shown_end(iv, s, in->status);
    json_header(f, s, in, command, end);
    fputs("\"intervals\": [", f);
    for (int32_t i = 0; i < iv->nnodes; i++) {
        fputs(i ? ",\n" : "\n", f);
        analysis_interval_json(iv, i, f, false);
    }
    fputs("],\n\"bars\": [", f);
    for (int32_t i = 0; i < iv->nnodes; i++) {
        fputs(i ? ",\n" : "\n", f);
        json_bars(f, iv, i);
    }
    fputs("],\n", f);
    struct shown sh = {xcalloc(TL_MAX_RANKS, sizeof(int32_t)), 0,
                       xcalloc((size_t)tl->nranks, sizeof(int32_t))};
    sh.n = chosen_ranks(tl, s, sh.ranks);
    memset(sh.index, 0xff, sizeof(int32_t) * (size_t)tl->nranks);
    for (int i = 0; i < sh.n; i++)
        sh.index[sh.ranks[i]] = i;
    json_timeline(f, tl, &sh, end);
    fputs(",\n", f);
    json_critical_path(f, cp, &sh);
    free(sh.ranks);
    free(sh.index);
    fputs(",\n", f);
    matrix_json(mx, f);
    fputs(",\n", f);
    json_links(f, s);
    fputs(",\n\"jobs\": ", f); /* several jobs (docs/jobs.md); [] for one */
    summary_jobs_array(f, s, in, "");
    fputs(", \"jobs_met\": ", f);
    summary_jobs_met_json(f, s, in);
    fputs(",\n", f);
    json_names(f);
    fputs("}", f);
}

bool report_write(const char *path, struct timeline *tl, const struct intervals *iv,
                  const struct comm_matrix *mx, const struct critpath *cp, const struct sim *s,
                  const struct run_info *in, const char *command, struct sim_error *err) {
    const char *mark = "/*SIMPI_DATA*/";
    const char *at = strstr(simpi_report_template, mark);
    struct outfile out;
    if (!outfile_open(&out, path, err)) return false;
    fwrite(simpi_report_template, 1, (size_t)(at - simpi_report_template), out.f);
    write_data(out.f, tl, iv, mx, cp, s, in, command);
    fputs(at + strlen(mark), out.f);
    if (tl->failed || ferror(tl->tmp)) {
        outfile_discard(&out);
        return err_set(err, "--report: the timeline's temporary file could not be written or "
                            "read (is the temporary folder full?)");
    }
    return outfile_commit(&out, err);
}
