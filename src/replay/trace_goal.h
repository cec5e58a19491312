/* SPDX-License-Identifier: BSD-3-Clause */
/* LogGOPSim's GOAL schedules (text form) read as simpi trace records: each
 * rank's operations (send, recv, calc) run as their dependencies allow
 * (requires: after the other's end; irequires: after its start), not in
 * file order (docs/interop.md, "GOAL"). */
#ifndef SIMPI_TRACE_GOAL_H
#define SIMPI_TRACE_GOAL_H

#include <stdbool.h>
#include <stdint.h>

#include "core/error.h"
#include "replay/trace.h"

struct goal;

/* Whether path's first word (past comments) is GOAL's "num_ranks". */
bool goal_is_goal(const char *path);
/* Reads schedule path (at most max_ranks ranks); NULL with err set, naming
 * the file, line and field. */
struct goal *goal_open(const char *path, int64_t max_ranks, int32_t *nranks, struct sim_error *err);
void goal_close(struct goal *g);
/* The next record of rank: 1 with *rec filled, 0 when its operations are
 * all done, -1 on error. finished(ctx, rank, id) says whether the request
 * id of an operation started earlier has completed. */
int goal_next(struct goal *g, int32_t rank, struct trace_rec *rec,
              bool (*finished)(void *ctx, int32_t rank, int32_t id), void *ctx,
              struct sim_error *err);

#endif
