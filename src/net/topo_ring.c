/* SPDX-License-Identifier: BSD-3-Clause */
/* ring: node i is linked to node i+1 (mod N); bidirectional rings (the
 * default, `direction: bi`) also link i to i-1. A bidirectional ring goes
 * the shorter way, forward when both ways are as long; a unidirectional one
 * (`direction: uni`) always forward.
 *   link i: i -> i+1      link N+i: i -> i-1 (bidirectional only) */
#include <string.h>

#include "net/topology.h"

static bool ring_init(struct topology *t, const struct conf_node *map, struct sim_error *err) {
    if (!topo_need_nodes(t, err)) return false;
    t->bidirectional = true;
    static const char *const directions[] = {"uni", "bi", NULL};
    int bi = 1;
    if (!conf_get_enum(map, "network", "direction", directions, &bi, err)) return false;
    t->bidirectional = bi == 1;
    int64_t longest = t->bidirectional ? t->nodes / 2 : t->nodes - 1;
    if (longest > TOPO_MAX_HOPS)
        return err_set(err,
                       "a %s ring of %lld nodes has routes of %lld hops; simpi follows routes of "
                       "at most %d hops (use a torus for larger machines)",
                       t->bidirectional ? "bidirectional" : "unidirectional", (long long)t->nodes,
                       (long long)longest, TOPO_MAX_HOPS);
    t->vertices = t->nodes;
    t->links = (t->bidirectional ? 2 : 1) * t->nodes;
    t->direct = true;
    topo_add_class(t, "link");
    return true;
}

/* Hops forward from a to b. */
static int64_t forward(const struct topology *t, int64_t a, int64_t b) {
    return ((b - a) % t->nodes + t->nodes) % t->nodes;
}

static int32_t ring_distance(struct topology *t, int64_t a, int64_t b) {
    int64_t f = forward(t, a, b);
    return (int32_t)(t->bidirectional && t->nodes - f < f ? t->nodes - f : f);
}

static int ring_route(struct topology *t, int64_t a, int64_t b, int64_t *out) {
    int64_t f = forward(t, a, b), n = t->nodes;
    bool back = t->bidirectional && n - f < f;
    int hops = (int)(back ? n - f : f);
    for (int i = 0; i < hops; i++) {
        int64_t at = back ? ((a - i) % n + n) % n : (a + i) % n;
        out[i] = back ? n + at : at;
    }
    return hops;
}

static bool ring_link_ends(const struct topology *t, int64_t link, int64_t *from, int64_t *to) {
    int64_t n = t->nodes;
    if (n < 2) return false;
    *from = link % n;
    *to = link < n ? (*from + 1) % n : (*from - 1 + n) % n;
    return true;
}

static const char *const ring_keys[] = {"direction", NULL};

const struct topo_ops topo_ring = {"ring", ring_init, ring_distance, ring_route, ring_link_ends,
                                   NULL,   NULL,      ring_keys,     NULL};
