/* SPDX-License-Identifier: BSD-3-Clause */
/* Performance analysis of a run (docs/analysis.md), the same for replay and
 * on-line: the interval tree with each interval's characteristics per rank
 * (the DVM Predictor's), and the outputs built from what the MPI layer
 * observes as the run goes: a Paraver trace, a Chrome/Perfetto trace and a
 * self-contained HTML report. Memory does not grow with the run's length:
 * traces are streamed (Paraver's records through sorted runs on disk). */
#ifndef SIMPI_ANALYSIS_H
#define SIMPI_ANALYSIS_H

#include <stdbool.h>
#include <stdio.h>

#include "core/error.h"
#include "mpi/sim.h"

struct run_info;

struct analysis_opts {
    const char *report;         /* --report FILE.html */
    const char *paraver;        /* --paraver PREFIX (PREFIX.prv, .pcf, .row) */
    const char *chrome;         /* --chrome FILE.json */
    const char *otf2;           /* --otf2 DIR (DIR/traces.otf2) */
    const char *timeline_ranks; /* --timeline-ranks LIST ("0,4,8-11"); NULL: default */
    const char *command;        /* the command line, shown in the report */
    bool cpu_not_measured;      /* --cpu=ignore: no computation, so no efficiency */
    bool critical_path;         /* --critical-path (and --report): the critical path */
};

struct analysis;
/* Observes s from now on. Fails (err) on a bad rank list or an output that
 * cannot be created. */
struct analysis *analysis_start(struct sim *s, const struct analysis_opts *o,
                                struct sim_error *err);
/* Whether --report and --paraver's three files can be written (before a
 * run; --chrome's is opened by analysis_start). */
bool analysis_outputs_writable(const struct analysis_opts *o, struct sim_error *err);
/* After the run: closes what ranks left open and writes the outputs. */
bool analysis_finish(struct analysis *a, const struct run_info *info, struct sim_error *err);
/* The terminal summary: the intervals with the most lost time. */
void analysis_print(const struct analysis *a, FILE *out);
/* The "intervals" member of the JSON report (docs/analysis.md's schema). */
void analysis_json(const struct analysis *a, FILE *f);
void analysis_free(struct analysis *a);
/* Checks a --timeline-ranks list; false (err says why) if malformed. */
bool analysis_check_ranks(const char *list, struct sim_error *err);

#endif
