/* SPDX-License-Identifier: BSD-3-Clause */
/* OTF2 archives (Score-P, Scalasca, Vampir, TAU) read as simpi trace
 * records through OTF2's own reader library: each MPI rank's location is
 * read as a stream of its own, its calls become records (docs/interop.md,
 * "OTF2"). */
#ifndef SIMPI_TRACE_OTF2_H
#define SIMPI_TRACE_OTF2_H

#include <stdbool.h>
#include <stdint.h>

#include "core/error.h"
#include "replay/trace.h"

struct otf2_in;

/* Whether path is an OTF2 anchor file (its first bytes). */
bool otf2_is_anchor(const char *path);
/* Opens the archive of the anchor file path: reads its definitions, the
 * ranks (at most max_ranks) into *nranks; intern(ctx, name) gives the id of
 * an interval's name (user regions are intervals). NULL with err set on
 * failure. */
struct otf2_in *otf2_open(const char *path, int64_t max_ranks, int32_t *nranks,
                          int32_t (*intern)(void *ctx, const char *name), void *intern_ctx,
                          struct sim_error *err);
void otf2_close(struct otf2_in *o);
/* The next record of rank into *rec: 1, 0 at the rank's end, -1 on error. */
int otf2_next(struct otf2_in *o, int32_t rank, struct trace_rec *rec, struct sim_error *err);
/* Frees what reading rank took (its OTF2 event reader and chunk buffer);
 * the rank is read no further. */
void otf2_rank_done(struct otf2_in *o, int32_t rank);

/* The communicators of trace in, resolved across its ranks
 * (trace_otf2_comms.c): numbered from 0, the world; NULL with err set when
 * the ranks' creations do not match. */
struct otf2_comms;
#define OTF2_COMM_SELF_GLOBAL (-2)
struct otf2_comms *otf2_comms_scan(const char *in, struct sim_error *err);
void otf2_comms_free(struct otf2_comms *c);
int32_t otf2_comms_count(const struct otf2_comms *c);
/* Communicator g's members (world ranks, in order) and its parent (-1: none). */
const int32_t *otf2_comms_members(const struct otf2_comms *c, int32_t g, int32_t *n,
                                  int32_t *parent);
/* What the rank's communicator id local is: its number, OTF2_COMM_SELF_GLOBAL,
 * or -1 (none). */
int32_t otf2_comms_lookup(const struct otf2_comms *c, int32_t rank, int32_t local);

#endif
