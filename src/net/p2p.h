/* SPDX-License-Identifier: BSD-3-Clause */
/* Point-to-point cost models, pluggable by name (DESIGN 4.6): the time to
 * move a message of S bytes between two ranks.
 *   affine:    T(S) = L + S / B
 *   piecewise: T(S) = L_i + S / B_i for the first segment i with S <= upto_i
 *   table:     measured (size, time) points, linear in between, extrapolated
 *              from the two nearest points outside
 *   loggp:     T(S) = L + (S - 1) G (LogGP / LogGOPSim; G = gap_per_byte) */
#ifndef SIMPI_P2P_H
#define SIMPI_P2P_H

#include <stdint.h>
#include <stdio.h>

#include "core/conf.h"
#include "core/simtime.h"

struct p2p_segment {
    int64_t upto;     /* bytes (inclusive); INT64_MAX for inf */
    double latency;   /* seconds (table: time at `upto` bytes) */
    double bandwidth; /* bytes/s (unused by table) */
};

struct p2p_model;

struct p2p_model_ops {
    const char *name;
    bool (*parse)(struct p2p_model *m, const struct conf_node *map, const char *path,
                  struct sim_error *err);
    double (*seconds)(const struct p2p_model *m, int64_t size);
    simtime_t (*wire)(const struct p2p_model *m, int64_t size); /* p2p_model_wire_time */
};

/* The last sizes' costs, kept because messages come in few sizes: a
 * slot per size's hash, holding T(S) and the wire time as first worked
 * out (size -1: empty). The same numbers, without the segment search, the
 * division and the rounding each time (a simulation is one thread). */
#define P2P_MEMO_BITS 6
struct p2p_memo {
    int64_t size;
    simtime_t cost, wire;
};

struct p2p_model {
    const struct p2p_model_ops *ops;
    struct p2p_segment *seg;
    int nseg;
    struct p2p_memo *memo; /* [1 << P2P_MEMO_BITS] */
};

/* Builds the model named by map's `model:` key (default affine) from map. */
bool p2p_model_init(struct p2p_model *m, const struct conf_node *map, const char *path,
                    struct sim_error *err);
/* A model in which every message costs nothing: no latency, no time on
 * the wire (an ideal network, platform key ideal). */
void p2p_model_init_free(struct p2p_model *m);
/* Every latency of the model times `latency`, every bandwidth times
 * `bandwidth` (a table: its time at the smallest size times latency, the
 * rest divided by bandwidth); platform key scale. */
void p2p_model_scale(struct p2p_model *m, double latency, double bandwidth);
void p2p_model_destroy(struct p2p_model *m);
simtime_t p2p_model_cost(const struct p2p_model *m, int64_t size);
/* The time a message of `size` bytes occupies a network interface: the
 * size part of T(S) (affine, piecewise: S / B of S's segment; loggp:
 * (S - 1) G; table: T(S) - T(0), at least 0). */
simtime_t p2p_model_wire_time(const struct p2p_model *m, int64_t size);
/* The bandwidth of large messages (the last segment's; loggp: 1 / G); 0 for
 * a table, which has none. */
double p2p_model_bandwidth(const struct p2p_model *m);
/* The least, over message sizes, of T(S) - W(S) (the time from a message's
 * injection to its first byte at the receiving interface; T(0) for a zero
 * size), found at the model's breakpoints and the powers of two: its
 * latency part (affine, loggp: L; piecewise: the least segment latency;
 * table: the least T(S) below T(0), else T(0)). */
simtime_t p2p_model_min_head_time(const struct p2p_model *m);

#endif
