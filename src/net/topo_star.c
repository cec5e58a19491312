/* SPDX-License-Identifier: BSD-3-Clause */
/* star: every node has a link to and from one central switch (vertex
 * `nodes`); two hops between any two nodes. With `backbone: {latency,
 * bandwidth}` every message between nodes also crosses the switch's shared
 * backbone (SimGrid's cluster backbone), added by the network to the route
 * as one more link but not counted as a hop.
 *   link 2i: node i -> switch      link 2i+1: switch -> node i */
#include "net/topology.h"

static bool star_init(struct topology *t, const struct conf_node *map, struct sim_error *err) {
    if (!topo_need_nodes(t, err)) return false;
    t->vertices = t->nodes + 1;
    t->links = 2 * t->nodes;
    topo_add_class(t, "link");
    topo_add_class(t, "backbone");
    t->backbone = conf_map_get(map, "backbone") != NULL;
    return true;
}

static int32_t star_distance(struct topology *t, int64_t a, int64_t b) {
    (void)t, (void)a, (void)b;
    return 2;
}

static int star_route(struct topology *t, int64_t a, int64_t b, int64_t *out) {
    (void)t;
    out[0] = 2 * a;
    out[1] = 2 * b + 1;
    return 2;
}

static bool star_link_ends(const struct topology *t, int64_t link, int64_t *from, int64_t *to) {
    int64_t node = link / 2;
    *from = link % 2 ? t->nodes : node;
    *to = link % 2 ? node : t->nodes;
    return true;
}

static const char *const star_keys[] = {"backbone", NULL};

const struct topo_ops topo_star = {"star", star_init, star_distance, star_route, star_link_ends,
                                   NULL,   NULL,      star_keys,     NULL};
