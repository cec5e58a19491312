/* The network: which point-to-point model applies between two nodes
 * (intra-node or inter-node), built from the platform tree. Topologies and
 * contention plug in here. */
#ifndef SIMPI_NETWORK_H
#define SIMPI_NETWORK_H

#include "core/conf.h"
#include "net/p2p.h"

struct network {
    struct p2p_model intra, inter;
    simtime_t intra_zero, inter_zero; /* cost of a zero-byte control message */
};

/* Reads the `intra:` and `inter:` maps of the platform tree. */
bool network_init(struct network *n, const struct conf_node *platform_root, struct sim_error *err);
void network_destroy(struct network *n);

static inline simtime_t network_cost(const struct network *n, int32_t src_node, int32_t dst_node,
                                     int64_t size) {
    return p2p_model_cost(src_node == dst_node ? &n->intra : &n->inter, size);
}

static inline simtime_t network_control_cost(const struct network *n, int32_t src_node,
                                             int32_t dst_node) {
    return src_node == dst_node ? n->intra_zero : n->inter_zero;
}

#endif
