/* SPDX-License-Identifier: BSD-3-Clause */
/* full: a crossbar, one direct link from every node to every other node
 * (one hop).   link a*N + b: node a -> node b (a != b) */
#include "net/topology.h"

static bool full_init(struct topology *t, const struct conf_node *map, struct sim_error *err) {
    (void)map;
    if (!topo_need_nodes(t, err)) return false;
    if (t->nodes > 3037000499LL)
        return err_set(err, "the full topology has at most 3037000499 nodes (its links are "
                            "numbered by node pairs)");
    t->vertices = t->nodes;
    t->links = t->nodes * t->nodes;
    t->direct = true;
    topo_add_class(t, "link");
    return true;
}

static int32_t full_distance(struct topology *t, int64_t a, int64_t b) {
    (void)t, (void)a, (void)b;
    return 1;
}

static int full_route(struct topology *t, int64_t a, int64_t b, int64_t *out) {
    out[0] = a * t->nodes + b;
    return 1;
}

static bool full_link_ends(const struct topology *t, int64_t link, int64_t *from, int64_t *to) {
    *from = link / t->nodes;
    *to = link % t->nodes;
    return *from != *to;
}

static const char *const full_keys[] = {NULL};

const struct topo_ops topo_full = {"full", full_init, full_distance, full_route, full_link_ends,
                                   NULL,   NULL,      full_keys,     NULL};
