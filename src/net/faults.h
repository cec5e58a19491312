/* SPDX-License-Identifier: BSD-3-Clause */
/* Faults of the platform (docs/faults.md): nodes that crash, links and
 * switches that go down and come back, at given times or drawn at random
 * from a seeded exponential law. The state lives here, in the network
 * layer, so that both front ends and every topology see the same failures:
 * what is down now, the routes around it (shortest path over what is up,
 * the topology's own route while it survives), and the statistics of the
 * run's faults. The MPI layer takes the events in time order
 * (faults_next_time, faults_pop) and acts on the ranks of a crashed node. */
#ifndef SIMPI_FAULTS_H
#define SIMPI_FAULTS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "core/conf.h"
#include "core/simtime.h"

struct topology;
struct heap;

enum fault_what {
    FAULT_CRASH,
    FAULT_LINK_DOWN,
    FAULT_LINK_UP,
    FAULT_SWITCH_DOWN,
    FAULT_SWITCH_UP,
    FAULT_DRAW /* internal: a random entry's next failure (entry: its index in rnd) */
};

/* One fault taking effect: a node (a), a switch (vertex a), or the link
 * between vertices a and b (both directions). */
struct fault_event {
    simtime_t at;
    int64_t a, b;
    uint64_t order; /* ties at one time: the order the events were made in */
    int32_t entry;  /* its entry of the faults: list */
    uint8_t what;
};

/* A `kind: random` entry: each element of its set (nodes or links) fails
 * after an exponential time of mean `mtbf` while it is up (a Poisson process
 * of rate elements / mtbf over the set, an element drawn at each failure and
 * passed over when it is down already), and a link comes back after
 * `repair`. */
struct fault_random {
    double rate;      /* failures per second over the whole set */
    simtime_t repair; /* 0: never repaired */
    uint64_t rng;     /* xorshift state, from the seed */
    int64_t elements;
    int32_t entry;
    bool links;
};

struct fault_stats {
    int64_t crashes, links_down, switches_down, repairs;
    int64_t detours, extra_hops; /* routes that went around a fault, and their extra hops */
    simtime_t first;             /* the first failure (SIMTIME_NEVER: none) */
    simtime_t last;              /* the last change (a failure or a repair) */
};

struct net_faults {
    struct heap *pending; /* struct fault_event by (at, order) */
    uint64_t made;
    struct fault_random *rnd;
    int nrnd;
    int64_t nodes;         /* compute nodes (vertices below are nodes) */
    int64_t vertices;      /* of the topology; 0 for the flat network */
    uint16_t *link_down;   /* per topology link: faults holding it down */
    uint16_t *vertex_down; /* per vertex: faults holding it down (a crashed node stays) */
    int64_t down;          /* elements down now */
    /* the links out of each vertex (built when a fault names a link or a
     * detour is needed), and the search's scratch */
    int64_t *adj_start, *adj_link, *adj_to; /* CSR: out-links and their far ends */
    int64_t *prev_link, *prev_vertex, *queue;
    uint32_t *seen, seen_gen;
    int64_t *pairs; /* random links: the undirected links (their lower-numbered direction) */
    int64_t npairs;
    struct fault_stats st;
    const struct topology *topo;
    uint32_t gen;    /* counts changes of what is down: the routes' cache is valid in one */
    bool configured; /* the platform names faults */
};

/* Reads the platform's `faults:` list and fault_seed (root: the platform
 * tree) for topology t, whose nodes count `nodes` (known: after the ranks
 * are placed). Errors name file, line and field. A platform without
 * faults leaves f empty (faults_active false, nothing allocated). */
bool faults_init(struct net_faults *f, const struct conf_node *root, const struct topology *t,
                 int64_t nodes, struct sim_error *err);
void faults_destroy(struct net_faults *f);
/* Whether the platform has any fault (every check below is skipped if not). */
static inline bool faults_configured(const struct net_faults *f) {
    return f->configured;
}
/* When the next fault takes effect (SIMTIME_NEVER: none). */
simtime_t faults_next_time(const struct net_faults *f);
/* Takes the next fault, applies it to the network's state (the routes'
 * cache must then be cleared) and copies it to *out. False when the fault
 * changed nothing (a random failure of an element that is down). */
bool faults_pop(struct net_faults *f, struct fault_event *out);
/* Whether anything is down now (routes must be checked). */
static inline bool faults_any_down(const struct net_faults *f) {
    return f->down > 0;
}
bool faults_node_down(const struct net_faults *f, int64_t node);
/* Whether a route of k links (topology link numbers) crosses a link or a
 * vertex that is down. */
bool faults_route_blocked(struct net_faults *f, const int64_t *links, int k);
/* The shortest route from vertex a to b over what is up, written to out
 * (room for TOPO_MAX_HOPS links); its number of links, or -1 if there is
 * none (a partition). */
int faults_detour(struct net_faults *f, int64_t a, int64_t b, int64_t *out);
/* After a faults_detour that found no route: whether vertex v was reached
 * from its start (the side of the partition the start is on). */
bool faults_reached(const struct net_faults *f, int64_t v);
/* "node 12 crashes", "link node 3 - node 4 goes down"... */
void faults_describe(const struct fault_event *e, const struct topology *t, char *buf, size_t len);

#endif
