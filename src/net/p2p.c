/* SPDX-License-Identifier: BSD-3-Clause */
/* The affine, piecewise-linear and table point-to-point models and their
 * registry. */
#include "net/p2p.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/alloc.h"
#include "core/hash.h"
#include "core/units.h"
#include "platform/keys.h"

/* the keys of a model's map, as platform/keys.c declares them */
enum { P2P_KEYS = 8 };

static bool parse_affine(struct p2p_model *m, const struct conf_node *map, const char *path,
                         struct sim_error *err) {
    const char *keys[P2P_KEYS];
    platform_key_children("p2p(affine)", keys, P2P_KEYS);
    if (!conf_check_keys(map, path, keys, err)) return false;
    m->nseg = 1;
    m->seg = xcalloc(1, sizeof *m->seg);
    m->seg[0].upto = INT64_MAX;
    return conf_get_time(map, path, "latency", &m->seg[0].latency, err) &&
           conf_get_bandwidth(map, path, "bandwidth", &m->seg[0].bandwidth, err);
}

static bool parse_segment(struct p2p_segment *s, const struct conf_node *item, const char *path,
                          int i, struct sim_error *err) {
    const char *keys[P2P_KEYS];
    platform_key_children("p2p(piecewise).segments[]", keys, P2P_KEYS);
    char p[96];
    snprintf(p, sizeof p, "%s.segments.%d", path, i);
    if (item->kind != CONF_MAP)
        return err_at(err, item->file, item->line,
                      "'%s' must be a map {upto: SIZE, latency: TIME, bandwidth: RATE}", p);
    return conf_check_keys(item, p, keys, err) &&
           conf_get_size(item, p, "upto", true, &s->upto, err) &&
           conf_get_time(item, p, "latency", &s->latency, err) &&
           conf_get_bandwidth(item, p, "bandwidth", &s->bandwidth, err);
}

static bool parse_piecewise(struct p2p_model *m, const struct conf_node *map, const char *path,
                            struct sim_error *err) {
    const char *keys[P2P_KEYS];
    platform_key_children("p2p(piecewise)", keys, P2P_KEYS);
    if (!conf_check_keys(map, path, keys, err)) return false;
    const struct conf_node *segs = conf_map_get(map, "segments");
    if (!segs || segs->kind != CONF_SEQ || segs->count == 0)
        return err_at(err, map->file, segs ? segs->line : map->line,
                      "'%s.segments': expected a non-empty list of {upto, latency, bandwidth}",
                      path);
    m->nseg = segs->count;
    m->seg = xcalloc((size_t)m->nseg, sizeof *m->seg);
    for (int i = 0; i < m->nseg; i++) {
        if (!parse_segment(&m->seg[i], segs->items[i], path, i, err)) return false;
        if (i > 0 && m->seg[i].upto <= m->seg[i - 1].upto)
            return err_at(err, segs->items[i]->file, segs->items[i]->line,
                          "'%s.segments.%d.upto' must be larger than the previous segment's", path,
                          i);
    }
    if (m->seg[m->nseg - 1].upto != INT64_MAX)
        return err_at(err, segs->items[m->nseg - 1]->file, segs->items[m->nseg - 1]->line,
                      "'%s.segments': the last segment must have upto: inf", path);
    return true;
}

/* A table point: {size: S, time: T} or [S, T]. */
static bool parse_point(struct p2p_segment *s, const struct conf_node *item, const char *p,
                        struct sim_error *err) {
    const char *size_s = NULL, *time_s = NULL, *why = NULL;
    if (item->kind == CONF_SEQ && item->count == 2 && item->items[0]->kind == CONF_SCALAR &&
        item->items[1]->kind == CONF_SCALAR) {
        size_s = item->items[0]->value;
        time_s = item->items[1]->value;
    } else if (item->kind == CONF_MAP) {
        const char *keys[P2P_KEYS];
        platform_key_children("p2p(table).points[]", keys, P2P_KEYS);
        if (!conf_check_keys(item, p, keys, err)) return false;
        if (!(size_s = conf_get_scalar(item, p, "size", err))) return false;
        if (!(time_s = conf_get_scalar(item, p, "time", err))) return false;
    } else {
        return err_at(err, item->file, item->line, "'%s': expected {size: SIZE, time: TIME}", p);
    }
    if (!units_parse_size(size_s, true, false, &s->upto, &why))
        return err_at(err, item->file, item->line, "'%s.size': found '%s', expected %s", p, size_s,
                      why);
    if (!units_parse_seconds(time_s, &s->latency, &why) ||
        simtime_from_seconds(s->latency) == SIMTIME_NEVER)
        return err_at(err, item->file, item->line, "'%s.time': found '%s', expected %s", p, time_s,
                      why);
    return true;
}

/* Measured tables may be noisy, so a time that decreases with size is a
 * warning (interpolation between such points is still well defined). */
static void warn_decreasing(const struct conf_node *item, const char *p, double t, double before) {
    char where[300];
    if (item->line)
        snprintf(where, sizeof where, "%s:%d", item->file, item->line);
    else
        snprintf(where, sizeof where, "%s", item->file);
    fprintf(stderr,
            "simpi: warning: %s: '%s.time' (%g s) is less than the previous point's (%g s): "
            "a larger message is predicted to take less time\n",
            where, p, t, before);
}

static bool parse_table(struct p2p_model *m, const struct conf_node *map, const char *path,
                        struct sim_error *err) {
    const char *keys[P2P_KEYS];
    platform_key_children("p2p(table)", keys, P2P_KEYS);
    if (!conf_check_keys(map, path, keys, err)) return false;
    const struct conf_node *pts = conf_map_get(map, "points");
    if (!pts || pts->kind != CONF_SEQ || pts->count == 0)
        return err_at(err, map->file, pts ? pts->line : map->line,
                      "'%s.points': expected a non-empty list of {size, time}", path);
    m->nseg = pts->count;
    m->seg = xcalloc((size_t)m->nseg, sizeof *m->seg);
    for (int i = 0; i < m->nseg; i++) {
        char p[96];
        snprintf(p, sizeof p, "%s.points.%d", path, i);
        if (!parse_point(&m->seg[i], pts->items[i], p, err)) return false;
        if (i > 0 && m->seg[i].upto <= m->seg[i - 1].upto)
            return err_at(err, pts->items[i]->file, pts->items[i]->line,
                          "'%s.size' must be larger than the previous point's", p);
        if (i > 0 && m->seg[i].latency < m->seg[i - 1].latency)
            warn_decreasing(pts->items[i], p, m->seg[i].latency, m->seg[i - 1].latency);
    }
    if (m->nseg < 2)
        return err_at(err, pts->file, pts->line,
                      "'%s.points': a table needs at least two points {size, time} to "
                      "interpolate between (one point would give every size the same time)",
                      path);
    return true;
}

/* The segment of an affine or piecewise model that holds size. */
static const struct p2p_segment *segment_for(const struct p2p_model *m, int64_t size) {
    const struct p2p_segment *s = m->seg;
    for (int i = 0; i < m->nseg - 1 && size > s->upto; i++)
        s++;
    return s;
}

static double seconds_segments(const struct p2p_model *m, int64_t size) {
    const struct p2p_segment *s = segment_for(m, size);
    return s->latency + (double)size / s->bandwidth;
}

static double seconds_table(const struct p2p_model *m, int64_t size) {
    const struct p2p_segment *p = m->seg;
    if (m->nseg == 1) return p[0].latency;
    int i = 1;
    while (i < m->nseg - 1 && size > p[i].upto)
        i++;
    /* Line through points i-1 and i; interpolates inside, extrapolates outside. */
    double x0 = (double)p[i - 1].upto, x1 = (double)p[i].upto;
    double t =
        p[i - 1].latency + (p[i].latency - p[i - 1].latency) * ((double)size - x0) / (x1 - x0);
    return t > 0 ? t : 0;
}

/* LogGP's wire time (LogGOPSim): L + (S - 1) G, the first byte after the
 * latency and each further byte G later; `bandwidth` holds 1 / G. */
static bool parse_loggp(struct p2p_model *m, const struct conf_node *map, const char *path,
                        struct sim_error *err) {
    const char *keys[P2P_KEYS];
    platform_key_children("p2p(loggp)", keys, P2P_KEYS);
    if (!conf_check_keys(map, path, keys, err)) return false;
    m->nseg = 1;
    m->seg = xcalloc(1, sizeof *m->seg);
    m->seg[0].upto = INT64_MAX;
    double per_byte;
    if (!conf_get_time(map, path, "latency", &m->seg[0].latency, err) ||
        !conf_get_time(map, path, "gap_per_byte", &per_byte, err))
        return false;
    m->seg[0].bandwidth = per_byte > 0 ? 1 / per_byte : 1e300;
    return true;
}

static double seconds_loggp(const struct p2p_model *m, int64_t size) {
    return m->seg[0].latency + (size > 1 ? (double)(size - 1) : 0) / m->seg[0].bandwidth;
}

/* The size part of T(S) (p2p_model_wire_time), S > 0. */
static simtime_t wire_segments(const struct p2p_model *m, int64_t size) {
    return simtime_from_seconds((double)size / segment_for(m, size)->bandwidth);
}

static simtime_t wire_table(const struct p2p_model *m, int64_t size) { /* not memo'd: fills it */
    simtime_t t = simtime_from_seconds(seconds_table(m, size));
    simtime_t t0 = simtime_from_seconds(seconds_table(m, 0));
    return t > t0 ? t - t0 : 0;
}

static simtime_t wire_loggp(const struct p2p_model *m, int64_t size) { /* 1st byte: latency */
    return size > 1 ? simtime_from_seconds((double)(size - 1) / m->seg[0].bandwidth) : 0;
}

static const struct p2p_model_ops models[] = {
    {"affine", parse_affine, seconds_segments, wire_segments},
    {"piecewise", parse_piecewise, seconds_segments, wire_segments},
    {"table", parse_table, seconds_table, wire_table},
    {"loggp", parse_loggp, seconds_loggp, wire_loggp},
};

static void memo_init(struct p2p_model *m) {
    m->memo = xmalloc(sizeof *m->memo << P2P_MEMO_BITS);
    for (int i = 0; i < 1 << P2P_MEMO_BITS; i++)
        m->memo[i] = (struct p2p_memo){-1, 0, 0};
}

bool p2p_model_init(struct p2p_model *m, const struct conf_node *map, const char *path,
                    struct sim_error *err) {
    memset(m, 0, sizeof *m);
    const char *name = "affine";
    struct conf_node *mn = conf_map_get(map, "model");
    if (mn && !(name = conf_get_scalar(map, path, "model", err))) return false;
    for (size_t i = 0; i < sizeof models / sizeof models[0]; i++) {
        if (conf_name_eq(models[i].name, name)) {
            m->ops = &models[i];
            if (m->ops->parse(m, map, path, err)) {
                memo_init(m);
                return true;
            }
            if (mn && mn->owned_file && strncmp(err->msg, mn->file, strlen(mn->file))) {
                char msg[sizeof err->msg];
                snprintf(msg, sizeof msg, "%.200s: %.800s", mn->file,
                         err->msg); /* caused by --set */
                memcpy(err->msg, msg, sizeof msg);
            }
            return false;
        }
    }
    static const char *const names[] = {"affine", "piecewise", "table", "loggp", NULL};
    char why[768];
    conf_name_expected(name, names, why, sizeof why);
    return err_at(err, mn ? mn->file : map->file, mn ? mn->line : map->line, "'%s.model': %s", path,
                  why);
}

void p2p_model_init_free(struct p2p_model *m) {
    memset(m, 0, sizeof *m);
    m->ops = &models[0]; /* affine: no latency, a bandwidth no size reaches */
    m->nseg = 1;
    m->seg = xcalloc(1, sizeof *m->seg);
    m->seg[0] = (struct p2p_segment){INT64_MAX, 0, INFINITY};
    memo_init(m);
}

void p2p_model_scale(struct p2p_model *m, double latency, double bandwidth) {
    if (latency == 1 && bandwidth == 1) return;
    if (m->ops->seconds == seconds_table) { /* T(S) = T0 + rest: T0 x latency, rest / bandwidth */
        double t0 = m->seg[0].latency;
        for (int i = 0; i < m->nseg; i++)
            m->seg[i].latency = t0 * latency + (m->seg[i].latency - t0) / bandwidth;
    } else {
        for (int i = 0; i < m->nseg; i++) {
            m->seg[i].latency *= latency;
            m->seg[i].bandwidth *= bandwidth;
        }
    }
    for (int i = 0; i < 1 << P2P_MEMO_BITS; i++) /* the costs remembered are no more */
        m->memo[i] = (struct p2p_memo){-1, 0, 0};
}

void p2p_model_destroy(struct p2p_model *m) {
    free(m->seg);
    free(m->memo);
    memset(m, 0, sizeof *m);
}

/* size's slot of the memo, filled with its costs if it held another size. */
static const struct p2p_memo *memo_for(const struct p2p_model *m, int64_t size) {
    struct p2p_memo *slot = &m->memo[hash_fib_top((uint64_t)size, P2P_MEMO_BITS)];
    if (slot->size == size) return slot;
    /* worked out before the slot is written: a table's wire time asks for
     * costs, which may use this slot */
    simtime_t cost = simtime_from_seconds(m->ops->seconds(m, size));
    simtime_t wire = size > 0 ? m->ops->wire(m, size) : 0;
    *slot = (struct p2p_memo){size, cost, wire};
    return slot;
}

simtime_t p2p_model_cost(const struct p2p_model *m, int64_t size) {
    if (size < 0 || !m->memo) return simtime_from_seconds(m->ops->seconds(m, size));
    return memo_for(m, size)->cost;
}

simtime_t p2p_model_wire_time(const struct p2p_model *m, int64_t size) {
    if (size <= 0) return 0;
    return m->memo ? memo_for(m, size)->wire : m->ops->wire(m, size);
}

double p2p_model_bandwidth(const struct p2p_model *m) {
    if (!strcmp(m->ops->name, "table")) return 0;
    return m->seg[m->nseg - 1].bandwidth;
}

/* cost(S) less the wire time the receiving interface takes (never more
 * than the cost: interfaces clamp it); SIMTIME_NEVER for a size whose cost
 * is past the clock's range (no message of that size is ever sent). */
static simtime_t head_time(const struct p2p_model *m, int64_t size) {
    simtime_t cost = p2p_model_cost(m, size), wire = p2p_model_wire_time(m, size);
    if (cost == SIMTIME_NEVER || wire == SIMTIME_NEVER) return SIMTIME_NEVER;
    return wire < cost ? cost - wire : 0;
}

simtime_t p2p_model_min_head_time(const struct p2p_model *m) {
    simtime_t best = head_time(m, 0);
    for (int k = 0; k <= 50; k++) { /* every power of two up to 1 PiB */
        simtime_t t = head_time(m, (int64_t)1 << k);
        if (t < best) best = t;
    }
    for (int i = 0; i < m->nseg; i++) /* both sides of each segment's end */
        for (int64_t d = -1; d <= 1 && m->seg[i].upto < INT64_MAX - 1; d++) {
            int64_t size = m->seg[i].upto + d;
            simtime_t t = size >= 0 ? head_time(m, size) : best;
            if (t < best) best = t;
        }
    return best;
}
