/* SPDX-License-Identifier: BSD-3-Clause */
/* The trace writers: any trace simpi reads (an open trace_reader, or a
 * path) written in another form. `simpi convert` and `simpi run
 * --trace-out` use these, never the readers' internals. */
#ifndef SIMPI_TRACE_WRITE_H
#define SIMPI_TRACE_WRITE_H

#include <stdbool.h>
#include <stdio.h>

#include "core/error.h"
#include "replay/trace.h"
#include "replay/trace_bin.h"

/* Writes record r as one native text line on f (interval names: t's). */
void trace_write_record(FILE *f, const struct trace_reader *t, const struct trace_rec *r);
/* Writes trace t as a native text trace on f (trace_write.c). */
bool trace_write_native(struct trace_reader *t, FILE *f, struct sim_error *err);
/* Writes trace t as a binary trace on f, named name, compressed with codec
 * (trace_write.c, through trace_bin_write.c). */
bool trace_write_binary(struct trace_reader *t, FILE *f, const char *name, enum tbin_codec codec,
                        struct sim_error *err);
/* Writes trace t as a SimGrid time-independent trace in folder dir
 * (trace_tit_write.c): dir/rank<R>.txt and dir/description. */
bool tit_write(struct trace_reader *t, const char *dir, struct sim_error *err);
/* Writes trace in as an OTF2 archive in the new folder dir (dir/traces.otf2;
 * trace_otf2_write.c); the trace is read twice (its communicators first). */
bool otf2_write(const char *in, const char *dir, struct sim_error *err);
/* Writes trace t (every rank, in order) as a Dimemas trace named name. */
bool dim_write(struct trace_reader *t, FILE *out, const char *name, struct sim_error *err);

#endif
