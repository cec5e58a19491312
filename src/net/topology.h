/* SPDX-License-Identifier: BSD-3-Clause */
/* Network topologies, pluggable by name (docs/network.md): each gives the
 * number of nodes, the exact hop distance between two nodes and the route
 * between them as a list of directed links, computed from the shape's
 * parameters rather than from a stored link graph, so that machines of
 * millions of nodes cost no memory per link.
 *
 * Vertices are numbered 0..nodes-1 for the compute nodes, then the switches
 * or routers (indirect topologies: star, tree, fat tree, dragonfly). Links
 * are directed and numbered 0..links-1; some numbers of a range may be
 * unused (topology_link_ends says which exist). Each link has a class
 * (tree level, dragonfly local or global...) that selects its latency and
 * bandwidth. */
#ifndef SIMPI_TOPOLOGY_H
#define SIMPI_TOPOLOGY_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "core/conf.h"

#define TOPO_MAX_DIMS 8
#define TOPO_MAX_CLASSES 16
/* The longest route any topology gives (dragonfly Valiant: 8 hops;
 * a ring of a million nodes is refused beyond this). */
#define TOPO_MAX_HOPS 4096

struct topology;

struct topo_ops {
    const char *name;
    /* Reads the topology's own keys of the `network:` map. */
    bool (*init)(struct topology *t, const struct conf_node *map, struct sim_error *err);
    int32_t (*distance)(struct topology *t, int64_t a, int64_t b);
    /* Writes the route's links to out (room for TOPO_MAX_HOPS); returns
     * their number, which is the distance. */
    int (*route)(struct topology *t, int64_t a, int64_t b, int64_t *out);
    /* Whether link id exists; if so its ends (vertex numbers). */
    bool (*link_ends)(const struct topology *t, int64_t link, int64_t *from, int64_t *to);
    int (*link_class)(const struct topology *t, int64_t link); /* NULL: one class */
    void (*destroy)(struct topology *t);
    const char *const *keys; /* its shape keys of `network:` (NULL-terminated) */
    /* A node's coordinates as text; NULL: its number */
    void (*coords)(const struct topology *t, int64_t node, char *buf, size_t len);
};

struct link_params {
    double latency;   /* seconds */
    double bandwidth; /* bytes/s */
    bool fatpipe;     /* graph links: each flow has the whole bandwidth */
};

struct topology {
    const struct topo_ops *ops;
    int64_t nodes;    /* compute nodes */
    int64_t vertices; /* nodes + switches */
    int64_t links;    /* link numbers are below this */
    /* link classes: names (for parameters and reports) and parameters
     * (heap arrays: a graph has one class per link) */
    int nclasses, class_cap;
    const char **class_names;
    struct link_params *cls;
    /* the topology set its classes' parameters itself (graph): the
     * network.<class> maps and link defaults do not apply */
    bool own_params;
    /* shapes */
    int ndims;
    int64_t dims[TOPO_MAX_DIMS];
    uint8_t wrap[TOPO_MAX_DIMS];
    int64_t jump[TOPO_MAX_DIMS];
    int twist; /* toroidal degree t */
    int64_t arity, levels;
    int64_t down[TOPO_MAX_DIMS], up[TOPO_MAX_DIMS]; /* fat tree m_l, w_l */
    int64_t groups, routers, per_router, globals;   /* dragonfly */
    bool bidirectional, valiant;
    /* direct networks (nodes are the routers: full, ring, mesh, tori): the
     * network adds each node's injection and ejection link (class "nic") to
     * its routes; they are not hops */
    bool direct;
    /* star with network.backbone: every route between nodes also crosses
     * one shared link (class "backbone"), as a cluster's backbone */
    bool backbone;
    void *priv; /* a topology's own state (e.g. distance tables) */
};

/* Builds the topology named by network.topology (default flat) from the
 * `network:` map (NULL: flat). nodes_wanted: the platform's node count (0
 * for auto); a topology that fixes its own count checks it. */
bool topology_init(struct topology *t, const struct conf_node *network, int64_t nodes_wanted,
                   struct sim_error *err);
void topology_destroy(struct topology *t);
bool topology_is_flat(const struct topology *t);
/* Nodes per group of consecutive nodes: a dragonfly's group, a fat tree's
 * leaf switch; 0 for topologies without groups (docs/jobs.md). */
int64_t topology_group_size(const struct topology *t);
int32_t topology_distance(struct topology *t, int64_t a, int64_t b);
int topology_route(struct topology *t, int64_t a, int64_t b, int64_t *out);
bool topology_link_ends(const struct topology *t, int64_t link, int64_t *from, int64_t *to);
int topology_link_class(const struct topology *t, int64_t link);
/* A node's coordinates: "(3, 7, 1)" on a torus, "group 2, router 1, slot 0"
 * on a dragonfly, the digits of its subtrees on a tree. */
void topology_coords(const struct topology *t, int64_t node, char *buf, size_t len);

/* For the topology files: reads an integer list (dims, wrap...) of at most
 * max items; returns its length or -1. */
int topo_get_list(const struct conf_node *map, const char *key, int64_t min, int64_t max,
                  int64_t *out, int maxn, struct sim_error *err);
/* For topologies sized by the platform's nodes: (star, full, ring). */
bool topo_need_nodes(const struct topology *t, struct sim_error *err);
/* Adds a link class named name whose parameters come from network.<name>
 * (latency, bandwidth) or else from the defaults. */
int topo_add_class(struct topology *t, const char *name);

/* The network's link_latency and link_bandwidth (100 ns, 10 GB/s when
 * absent). */
bool topo_link_defaults(const struct conf_node *net, struct link_params *def,
                        struct sim_error *err);

/* Reads a link map's optional latency and bandwidth onto p (path names
 * the map in errors). */
bool topo_read_link_params(const struct conf_node *m, const char *path, struct link_params *p,
                           struct sim_error *err);

extern const struct topo_ops topo_flat, topo_star, topo_full, topo_ring, topo_mesh, topo_torus,
    topo_twisted_torus, topo_tree, topo_fat_tree, topo_dragonfly, topo_graph;

#endif
