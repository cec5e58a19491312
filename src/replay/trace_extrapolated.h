/* SPDX-License-Identifier: BSD-3-Clause */
/* An extrapolation read as a trace (docs/extrapolation.md): a small text
 * file, "simpi-extrapolation 1", "ranks N" and a "trace PATH" line per
 * scale, whose records are generated rank by rank as `simpi extrapolate`
 * would write them, with no file of the target's size: `simpi replay
 * --extrapolate` replays one, and any command that reads traces reads
 * one. */
#ifndef SIMPI_TRACE_EXTRAPOLATED_H
#define SIMPI_TRACE_EXTRAPOLATED_H

#include <stdbool.h>
#include <stdint.h>

#include "core/error.h"
#include "replay/trace_format.h"

/* The format's first line. */
#define EXTRAPOLATION_MAGIC "simpi-extrapolation 1"

bool textrap_detect(const char *path);
void *textrap_open(const char *path, const char *temp_dir, int64_t max_ranks,
                   trace_intern_fn intern, void *ctx, int32_t *nranks, struct sim_error *err);
int textrap_next(void *source, int32_t rank, struct trace_rec *r, trace_probe_fn probe,
                 void *probe_ctx, struct sim_error *err);
void textrap_close(void *source);

#endif
