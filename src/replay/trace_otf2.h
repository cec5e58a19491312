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

#endif
