/* SPDX-License-Identifier: BSD-3-Clause */
/* A scale's records brought to the order of the largest scale where they
 * differ by what no law of P explains (extrapolate.c's last resort): a
 * solver that stops at a tolerance one iteration earlier at one scale, a
 * test taken at another iteration (miniFE's breakdown check, two more
 * allreduces when a dot product has fallen tenfold). A rank's records are
 * cut into segments, each ending with a blocking collective; the
 * segments of rank 0 at each scale are compared with those of rank 0 at
 * the largest one (their collectives and which kinds of point-to-point
 * calls they hold) by the shortest edit script (Myers' diff), and that
 * script is applied to every rank: a segment the largest scale lacks is
 * left out, one it has in addition is one of its kind left out nearby
 * (it moved), or else a copy of the rank's nearest segment of that kind.
 * Segments left out, moved or copied must start and end with no request
 * outstanding and create no communicator. */
#ifndef SIMPI_EXTRAPOLATE_ALIGN_H
#define SIMPI_EXTRAPOLATE_ALIGN_H

#include <stdbool.h>
#include <stdint.h>

#include "replay/extrapolate_fold.h"
#include "replay/trace.h"

/* One scale's records, per rank (as extrapolate.c holds them before
 * folding): rec, each record's number in the trace (ord) and its step
 * (variable counts kept there), count records; all reallocated. */
struct align_ranks {
    struct trace_rec **rec;
    int32_t **ord;
    struct step **step;
    int32_t *count;
    int32_t n;
};

/* Edits every rank of `s` so that its segments follow the order of the
 * reference's rank 0 (ref, count ref_count); false, nothing changed, when
 * the ranks' segments differ in number, the script is longer than a
 * tenth of the reference's segments, or a segment it would leave out,
 * move or copy is not self-contained. *edits: segments left out plus
 * inserted (a move is both); *segments: the reference's. */
bool align_segments(struct align_ranks *s, const struct trace_rec *ref, int32_t ref_count,
                    int32_t *edits, int32_t *segments);

#endif
