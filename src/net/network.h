/* SPDX-License-Identifier: BSD-3-Clause */
/* The network: what a message between two nodes costs. Inside a node the
 * platform's `intra` model applies; between nodes either the `inter` model
 * (topology flat, the default) or the route the topology gives (network:
 * in the platform; docs/network.md): the per-message overhead plus the
 * latencies of the route's links (with each node's injection and ejection
 * link on direct networks), and the size over the slowest link's
 * bandwidth. Contention plugs in here. */
#ifndef SIMPI_NETWORK_H
#define SIMPI_NETWORK_H

#include "core/conf.h"
#include "net/faults.h"
#include "net/p2p.h"
#include "net/topology.h"
#include "platform/platform.h"

struct path_cost {
    int64_t src, dst;                   /* nodes; src -1: empty slot */
    double latency;                     /* seconds: overhead + link latencies */
    double bandwidth;                   /* bytes/s: the slowest link's */
    double out_bandwidth, in_bandwidth; /* bytes/s: the source node's link into the network
                                           and the destination's link out of it */
    int32_t hops;                       /* -1: no route (a partition, docs/faults.md) */
    int32_t extra_hops;                 /* a detour around a fault: hops beyond the minimal route */
    uint32_t gen;                       /* the faults' state it was computed in (net_faults.gen) */
    double extra_latency;               /* and the seconds it adds */
};

#define NETWORK_PATH_CACHE 4096

enum contention_kind { CONTENTION_NONE, CONTENTION_BUSES, CONTENTION_FLOW };

struct network {
    struct p2p_model intra, inter;
    simtime_t intra_zero, inter_zero; /* cost of a zero-byte control message */
    struct topology topo;
    double overhead; /* seconds added to every inter-node message */
    enum contention_kind contention;
    int64_t buses, links_per_node; /* buses model: 0 = unlimited */
    bool intra_contention;         /* flow: messages inside a node share its memory */
    bool serial_copies;            /* a rank's core copies its messages inside a node one
                                      after another (network.intra_copies: serial) */
    bool serial_interfaces;        /* contention none: each node's interface carries its messages
                                      one after another (network.interfaces: serial, the default) */
    struct path_cost *paths;       /* cache of route costs by node pair (topologies) */
    int64_t *route;                /* scratch: TOPO_MAX_HOPS + 3 links */
    int *classes;                  /* scratch: their classes */
    struct net_faults *faults;     /* what is down (net/faults.h); set by network_faults_init */
    simtime_t lookahead;           /* the least route latency (network_lookahead, once known) */
    bool lookahead_known;
};

/* Reads the `intra:`, `inter:` and `network:` maps of the platform; a
 * topology of fixed size sets the platform's nodes when they are auto. */
bool network_init(struct network *n, struct platform *plat, struct sim_error *err);
void network_destroy(struct network *n);
/* Reads the platform's faults (once its nodes are known, after the ranks
 * are placed); the network's routes then go around what is down. */
bool network_faults_init(struct network *n, const struct platform *plat, struct sim_error *err);
/* A fault took effect (faults_pop): the routes' cache is cleared. */
void network_faults_changed(const struct network *n);
/* Whether some route between the two nodes is up (false: a partition). */
bool network_connected(const struct network *n, int32_t src_node, int32_t dst_node);
/* The links a message between two nodes crosses: the topology's route,
 * then the injection and ejection links of a direct network (numbers
 * links + 2 * node and links + 2 * node + 1) and a star's backbone (number
 * links + 2 * nodes), with each link's class. Returns the number of links
 * (at most TOPO_MAX_HOPS + 3); *hops gets the route's hop count. With
 * faults, the topology's route if it is up, else the shortest route over
 * what is up; -1 if there is none. */
int network_route(const struct network *n, int32_t src_node, int32_t dst_node, int64_t *links,
                  int *classes, int *hops);
/* A link's name for reports: "level2 link 68 (switch 68 -> switch 72)",
 * "injection link of node 3", "backbone", "memory of node 5". */
void network_link_name(const struct network *n, int64_t link, char *buf, size_t len);
/* A lower bound, over pairs of distinct nodes and message sizes, of the
 * time from a message's injection to its first byte at the destination's
 * interface, T(S) - W_in(S), and of the control cost T(0): the lookahead
 * of the interfaces' windows (mpi/nics.c). 0 when a pair may have none. */
simtime_t network_lookahead(const struct network *n);
/* Latency, bandwidth and hop count of the route between two nodes. */
const struct path_cost *network_path(const struct network *n, int32_t src_node, int32_t dst_node);

static inline simtime_t network_cost(const struct network *n, int32_t src_node, int32_t dst_node,
                                     int64_t size) {
    if (src_node == dst_node) return p2p_model_cost(&n->intra, size);
    if (topology_is_flat(&n->topo)) return p2p_model_cost(&n->inter, size);
    const struct path_cost *p = network_path(n, src_node, dst_node);
    return simtime_from_seconds(p->latency + (double)size / p->bandwidth);
}

/* The time a message of `size` bytes between two nodes occupies the
 * source's interface (*out) and the destination's (*in): the size part of
 * the inter model's cost (docs/network.md), or on a topology the size over
 * the bandwidth of the source node's link into the network and of the
 * destination's link out of it. */
static inline void network_wire_times(const struct network *n, int32_t src_node, int32_t dst_node,
                                      int64_t size, simtime_t *out, simtime_t *in) {
    if (topology_is_flat(&n->topo)) {
        *out = *in = p2p_model_wire_time(&n->inter, size);
        return;
    }
    const struct path_cost *p = network_path(n, src_node, dst_node);
    *out = size > 0 ? simtime_from_seconds((double)size / p->out_bandwidth) : 0;
    *in = size > 0 ? simtime_from_seconds((double)size / p->in_bandwidth) : 0;
}

static inline simtime_t network_control_cost(const struct network *n, int32_t src_node,
                                             int32_t dst_node) {
    if (src_node == dst_node) return n->intra_zero;
    if (topology_is_flat(&n->topo)) return n->inter_zero;
    return simtime_from_seconds(network_path(n, src_node, dst_node)->latency);
}

#endif
