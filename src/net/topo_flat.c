/* SPDX-License-Identifier: BSD-3-Clause */
/* flat: no topology. Every pair of nodes is one hop apart and a message
 * costs what the platform's `inter` model says (simpi's behaviour before
 * topologies, and the default). */
#include "net/topology.h"

static bool flat_init(struct topology *t, const struct conf_node *map, struct sim_error *err) {
    (void)map;
    (void)err;
    t->vertices = t->nodes;
    return true;
}

static int32_t flat_distance(struct topology *t, int64_t a, int64_t b) {
    (void)t;
    return a != b;
}

static int flat_route(struct topology *t, int64_t a, int64_t b, int64_t *out) {
    (void)t, (void)a, (void)b, (void)out;
    return 0;
}

static bool flat_link_ends(const struct topology *t, int64_t link, int64_t *from, int64_t *to) {
    (void)t, (void)link, (void)from, (void)to;
    return false;
}

static const char *const flat_keys[] = {NULL};

const struct topo_ops topo_flat = {"flat", flat_init, flat_distance, flat_route, flat_link_ends,
                                   NULL,   NULL,      flat_keys,     NULL};
