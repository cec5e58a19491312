/* SPDX-License-Identifier: BSD-3-Clause */
/* The registry of the trace formats that give records themselves
 * (trace_format.h): the binary form, OTF2 archives (translated rank by
 * rank into a binary trace in a private folder, then read as one),
 * Dimemas traces (translated into native rank files), LogGOPSim's GOAL
 * schedules and extrapolations (generated rank by rank); and the dialect of SimGrid's
 * time-independent traces. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/alloc.h"
#include "replay/trace_bin.h"
#include "replay/trace_extrapolated.h"
#include "replay/trace_format.h"
#include "replay/trace_goal.h"
#include "replay/trace_internal.h"
#include "replay/trace_otf2.h"

/* --- the binary form (trace_bin.c) --- */

static void *binary_open(const char *path, const char *temp_dir, int64_t max_ranks,
                         trace_intern_fn intern, void *ctx, int32_t *nranks,
                         struct sim_error *err) {
    (void)temp_dir;
    return tbin_open(path, max_ranks, nranks, intern, ctx, err);
}

static int binary_next(void *source, int32_t rank, struct trace_rec *r, trace_probe_fn probe,
                       void *probe_ctx, struct sim_error *err) {
    (void)probe, (void)probe_ctx;
    return tbin_next(source, rank, r, err);
}

static void binary_close(void *source) {
    tbin_close(source);
}

static void binary_warm(const void *source, int32_t rank, int stage) {
    tbin_warm(source, rank, stage);
}

static int64_t binary_peak(const void *source) {
    return tbin_buffer_peak(source);
}

static const struct trace_format binary_format = {
    .name = "binary",
    .detect = tbin_is_binary,
    .open = binary_open,
    .next = binary_next,
    .close = binary_close,
    .warm = binary_warm,
    .buffer_peak = binary_peak,
};

/* --- OTF2 archives (trace_otf2.c): translated into the binary form --- */

/* The interval names met while translating, for the binary trace's table. */
struct names {
    char **list;
    int32_t n;
};

static int32_t names_intern(void *ctx, const char *name) {
    struct names *t = ctx;
    for (int32_t i = 0; i < t->n; i++)
        if (!strcmp(t->list[i], name)) return i;
    t->list = xrealloc_or_die(t->list, sizeof *t->list * (size_t)(t->n + 1));
    t->list[t->n] = xstrdup(name);
    return t->n++;
}

/* The ranks of the archive, one after another (one OTF2 event reader,
 * with its chunk buffer, open at a time), into the binary trace f. */
static bool otf2_translate(const char *path, int64_t max_ranks, FILE *f, const char *bin,
                           struct sim_error *err) {
    int32_t n = 0;
    struct names names = {0};
    struct otf2_in *o = otf2_open(path, max_ranks, &n, names_intern, &names, err);
    bool ok = o != NULL;
    struct tbin_writer *w = ok ? tbin_writer_new(f, bin, n, TBIN_ZSTD) : NULL;
    struct trace_rec r;
    int got = 0;
    for (int32_t rank = 0; ok && rank < n && got >= 0; rank++) {
        while ((got = otf2_next(o, rank, &r, err)) == 1) {
            bool put = tbin_writer_put(w, &r, err);
            trace_rec_clear(&r);
            if (!put) got = -1;
        }
        otf2_rank_done(o, rank);
    }
    if (o) otf2_close(o);
    if (ok && got < 0) {
        tbin_writer_abort(w);
        ok = false;
    } else if (ok) {
        ok = tbin_writer_finish(w, (const char **)names.list, names.n, err);
    }
    for (int32_t i = 0; i < names.n; i++)
        free(names.list[i]);
    free(names.list);
    return ok;
}

/* Translated rank by rank into a binary trace in the private folder, then
 * read as one (the replay's ranks interleave, and OTF2's reader holds a
 * chunk, a MiB in Score-P's archives, per rank it reads). Messages name
 * the archive. */
static void *otf2_source_open(const char *path, const char *temp_dir, int64_t max_ranks,
                              trace_intern_fn intern, void *ctx, int32_t *nranks,
                              struct sim_error *err) {
    char bin[4200];
    snprintf(bin, sizeof bin, "%s/rank0.trace", temp_dir); /* removed with the folder */
    FILE *f = fopen(bin, "wb");
    if (!f) {
        err_set(err, "%s: cannot write %s: %s", path, bin, strerror(errno));
        return NULL;
    }
    bool ok = otf2_translate(path, max_ranks, f, bin, err);
    if (fclose(f) != 0 && ok) ok = err_set(err, "%s: cannot write %s", path, bin);
    return ok ? tbin_open(bin, max_ranks, nranks, intern, ctx, err) : NULL;
}

static const struct trace_format otf2_format = {
    .name = "otf2",
    .detect = otf2_is_anchor,
    .open = otf2_source_open,
    .next = binary_next,
    .close = binary_close,
    .warm = binary_warm,
    .buffer_peak = binary_peak,
    .needs_temp_dir = true,
};

/* --- Dimemas traces (trace_dim.c): translated into native rank files --- */

static bool dimemas_translate(const char *path, const char *dir, struct sim_error *err) {
    int32_t n = 0;
    return dim_translate(path, dir, &n, err);
}

static const struct trace_format dimemas_format = {
    .name = "dim",
    .detect = dim_is_dimemas,
    .translate = dimemas_translate,
    .needs_temp_dir = true,
};

/* --- GOAL schedules (trace_goal.c): their order is the replay's --- */

static void *goal_source_open(const char *path, const char *temp_dir, int64_t max_ranks,
                              trace_intern_fn intern, void *ctx, int32_t *nranks,
                              struct sim_error *err) {
    (void)temp_dir, (void)intern, (void)ctx;
    return goal_open(path, max_ranks, nranks, err);
}

static bool every_request_done(void *ctx, int32_t rank, int32_t id) {
    (void)ctx, (void)rank, (void)id;
    return true; /* without a replay, every request has completed */
}

static int goal_source_next(void *source, int32_t rank, struct trace_rec *r, trace_probe_fn probe,
                            void *probe_ctx, struct sim_error *err) {
    return goal_next(source, rank, r, probe ? probe : every_request_done, probe_ctx, err);
}

static void goal_source_close(void *source) {
    goal_close(source);
}

static const struct trace_format goal_format = {
    .name = "goal",
    .detect = goal_is_goal,
    .open = goal_source_open,
    .next = goal_source_next,
    .close = goal_source_close,
    .follows_replay = true,
};

/* --- SimGrid's time-independent traces (trace_tit.c), a dialect --- */

/* "RANK word ...": the shape of a SimGrid time-independent action. */
static bool simgrid_is_action(const char *l) {
    char *end;
    long r = strtol(l, &end, 10);
    return end != l && r >= 0 && (*end == ' ' || *end == '\t') && end[1] >= 'a' && end[1] <= 'z';
}

static bool simgrid_holds_all(const char *first) {
    return simgrid_is_action(first) && strstr(first, " init");
}

/* The ranks' default datatype sizes (set by their init actions) and each
 * pair's messages (SMPI's dropped sendRecv lines, MPI_PROC_NULL). */
struct simgrid_state {
    uint8_t *dt;
    struct tit_pairs *pairs;
};

static void *simgrid_prepare(char *const *paths, int32_t npaths, int32_t nranks) {
    struct simgrid_state *st = xcalloc(1, sizeof *st);
    st->dt = xcalloc((size_t)nranks, 1);
    st->pairs = tit_pairs_scan(paths, npaths, nranks);
    return st;
}

static int simgrid_parse(void *state, char *line, int32_t rank, int32_t nranks, struct trace_rec *r,
                         struct trace_rec *extra, bool *has_extra, const char *file, int lineno,
                         struct sim_error *err) {
    struct simgrid_state *st = state;
    char *end;
    long who = strtol(line, &end, 10); /* one file of all ranks: the line's rank's datatype */
    int32_t dt_rank =
        rank >= 0 ? rank : (end != line && who >= 0 && who < nranks ? (int32_t)who : 0);
    return tit_parse_line(line, rank, nranks, &st->dt[dt_rank], st->pairs, r, extra, has_extra,
                          file, lineno, err);
}

static void simgrid_release(void *state) {
    struct simgrid_state *st = state;
    if (!st) return;
    free(st->dt);
    tit_pairs_free(st->pairs);
    free(st);
}

static const struct trace_dialect simgrid_dialect = {
    .name = "simgrid",
    .title = "SimGrid",
    .is_action = simgrid_is_action,
    .holds_all_ranks = simgrid_holds_all,
    .prepare = simgrid_prepare,
    .parse = simgrid_parse,
    .release = simgrid_release,
};

const struct trace_dialect *const trace_dialects[] = {&simgrid_dialect, NULL};

/* --- an extrapolation (trace_extrapolated.c): records generated --- */

static const struct trace_format extrapolation_format = {
    .name = "extrapolation",
    .detect = textrap_detect,
    .open = textrap_open,
    .next = textrap_next,
    .close = textrap_close,
};

const struct trace_format *const trace_formats[] = {
    &binary_format, &otf2_format, &dimemas_format, &goal_format, &extrapolation_format, NULL};

const struct trace_format *trace_format_of(const char *path) {
    for (int i = 0; trace_formats[i]; i++)
        if (trace_formats[i]->detect(path)) return trace_formats[i];
    return NULL;
}
