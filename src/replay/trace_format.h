/* SPDX-License-Identifier: BSD-3-Clause */
/* The trace formats whose readers give records themselves, behind one
 * interface (as topologies sit behind topo_ops): each says whether a file
 * is its own, opens it, gives each rank's next record and closes; trace.c
 * goes through the registry (trace_formats.c) and names none of them. A
 * format may instead be translated into native files (Dimemas'). Native
 * text (one file, a folder of rank files, an index) is trace.c's own,
 * parsed by trace_parse.c; another tool's text, read the same way, is a
 * dialect (SimGrid's, parsed by trace_tit.c). */
#ifndef SIMPI_TRACE_FORMAT_H
#define SIMPI_TRACE_FORMAT_H

#include <stdbool.h>
#include <stdint.h>

#include "core/error.h"
#include "replay/trace.h"

/* The id of an interval's name (the reader's table of names). */
typedef int32_t (*trace_intern_fn)(void *ctx, const char *name);
/* Whether request id of rank, started earlier, has completed (the replay
 * tells a reader that follows it). */
typedef bool (*trace_probe_fn)(void *ctx, int32_t rank, int32_t id);

struct trace_format {
    const char *name; /* "binary", "otf2", "dimemas", "goal" */
    /* Whether the file at path is of this format (its first bytes or word). */
    bool (*detect)(const char *path);
    /* Opens path (at most max_ranks ranks) into a source; *nranks its rank
     * count; intern gives the names' ids; temp_dir: a private folder the
     * format may write in (removed when the trace closes). NULL with err. */
    void *(*open)(const char *path, const char *temp_dir, int64_t max_ranks, trace_intern_fn intern,
                  void *ctx, int32_t *nranks, struct sim_error *err);
    /* rank's next record into r: 1, 0 at the rank's end, -1 with err. */
    int (*next)(void *source, int32_t rank, struct trace_rec *r, trace_probe_fn probe,
                void *probe_ctx, struct sim_error *err);
    void (*close)(void *source);
    /* Memory about to be read for rank (stage 0 its cursor, 1 its next
     * bytes); NULL: none. */
    void (*warm)(const void *source, int32_t rank, int stage);
    /* Bytes held for reading at the peak; NULL: none beyond the records. */
    int64_t (*buffer_peak)(const void *source);
    /* A format translated into native per-rank files (dir/rank<R>.trace),
     * which trace.c then reads as a folder; NULL: open and next above. */
    bool (*translate)(const char *path, const char *dir, struct sim_error *err);
    bool needs_temp_dir; /* open writes in temp_dir */
    bool follows_replay; /* its order is the replay's: replayed, never converted */
};

/* A text format whose lines are another tool's actions, read by trace.c's
 * line machinery as native lines are (per-rank files listed in a
 * description file, or one file of every rank): SimGrid's time-independent
 * traces (trace_tit.c). */
struct trace_dialect {
    const char *name;
    const char *title; /* in messages: "SimGrid" */
    /* Whether line (a file's first record line) is one of its actions. */
    bool (*is_action)(const char *line);
    /* Whether a file whose first line is this holds every rank's actions. */
    bool (*holds_all_ranks)(const char *first_line);
    /* The state its lines are read with, for the files at paths (each
     * once) of nranks ranks (a first pass may read them). */
    void *(*prepare)(char *const *paths, int32_t npaths, int32_t nranks);
    /* Parses line (NUL-ended, writable) of rank (-1: the line names it):
     * 1 with r, and a second record in extra when *has_extra; 0 for an
     * action with no simulated effect; -1 with err naming file and line. */
    int (*parse)(void *state, char *line, int32_t rank, int32_t nranks, struct trace_rec *r,
                 struct trace_rec *extra, bool *has_extra, const char *file, int lineno,
                 struct sim_error *err);
    void (*release)(void *state);
};

/* The dialects, in the order a file is tried; NULL-ended. */
extern const struct trace_dialect *const trace_dialects[];

/* The formats, in the order a file is tried; NULL-ended. */
extern const struct trace_format *const trace_formats[];
/* The format whose files path is one of, or NULL (then a text format). */
const struct trace_format *trace_format_of(const char *path);

#endif
