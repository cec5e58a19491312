/* SPDX-License-Identifier: BSD-3-Clause */
/* Topologies: hop distances and routes checked against breadth-first
 * search on the explicit link graph (built from topology_link_ends) for
 * every pair of nodes of several small shapes of each topology, and a few
 * distances worked by hand. */
#include <stdlib.h>

#include "core/alloc.h"
#include "net/network.h"
#include "net/topology.h"
#include "platform/platform.h"
#include "test.h"

/* The topology of a platform written as YAML (network: map). */
static bool load(const char *yaml, struct platform **p, struct topology *t) {
    struct sim_error err = {0};
    *p = platform_load(test_write_temp(".yaml", yaml), NULL, 0, &err); /* over the built-in */
    if (!*p || !topology_init(t, conf_map_get((*p)->conf, "network"), (*p)->nodes, &err)) {
        fprintf(stderr, "%s\n  %s\n", yaml, err.msg);
        test_failures++;
        if (*p) platform_free(*p);
        return false;
    }
    return true;
}

struct graph {
    int64_t nv, *start, *to;
};

/* Compressed adjacency of every existing link. */
static void build_graph(const struct topology *t, struct graph *g) {
    g->nv = t->vertices;
    g->start = xcalloc((size_t)g->nv + 1, sizeof *g->start);
    int64_t from, to, n = 0;
    for (int64_t l = 0; l < t->links; l++)
        if (topology_link_ends(t, l, &from, &to)) {
            CHECK(from >= 0 && from < t->vertices && to >= 0 && to < t->vertices && from != to);
            g->start[from + 1]++;
            n++;
        }
    for (int64_t v = 0; v < g->nv; v++)
        g->start[v + 1] += g->start[v];
    g->to = xcalloc((size_t)n + 1, sizeof *g->to);
    int64_t *fill = xcalloc((size_t)g->nv, sizeof *fill);
    for (int64_t l = 0; l < t->links; l++)
        if (topology_link_ends(t, l, &from, &to)) g->to[g->start[from] + fill[from]++] = to;
    free(fill);
}

static void bfs(const struct graph *g, int64_t src, int64_t *dist, int64_t *queue) {
    for (int64_t v = 0; v < g->nv; v++)
        dist[v] = -1;
    int64_t head = 0, tail = 0;
    dist[src] = 0;
    queue[tail++] = src;
    while (head < tail) {
        int64_t v = queue[head++];
        for (int64_t e = g->start[v]; e < g->start[v + 1]; e++)
            if (dist[g->to[e]] < 0) {
                dist[g->to[e]] = dist[v] + 1;
                queue[tail++] = g->to[e];
            }
    }
}

/* A route must be a chain of existing links from a to b. */
static bool route_ok(const struct topology *t, int64_t a, int64_t b, const int64_t *r, int n) {
    int64_t at = a, from, to;
    for (int i = 0; i < n; i++) {
        if (!topology_link_ends(t, r[i], &from, &to) || from != at) return false;
        at = to;
    }
    return at == b;
}

/* Every pair: distance == BFS distance (unless `shortest` is false: then
 * only the route's length), route a chain of that many links. */
static void check_shape(const char *yaml, bool shortest) {
    struct platform *p;
    struct topology t;
    if (!load(yaml, &p, &t)) return;
    struct graph g;
    build_graph(&t, &g);
    int64_t *dist = xcalloc((size_t)g.nv, sizeof *dist), *queue = xcalloc((size_t)g.nv, 8);
    int64_t *route = xcalloc(TOPO_MAX_HOPS, sizeof *route);
    int bad = 0;
    for (int64_t a = 0; a < t.nodes && bad < 3; a++) {
        bfs(&g, a, dist, queue);
        for (int64_t b = 0; b < t.nodes && bad < 3; b++) {
            int32_t d = topology_distance(&t, a, b);
            int n = topology_route(&t, a, b, route);
            bool ok = n == d && route_ok(&t, a, b, route, n) && (!shortest || d == dist[b]);
            if (!ok) {
                fprintf(stderr,
                        "%s\n  nodes %lld -> %lld: distance %d, route %d links%s, BFS %lld\n", yaml,
                        (long long)a, (long long)b, d, n,
                        route_ok(&t, a, b, route, n) ? "" : " (not a chain)", (long long)dist[b]);
                bad++;
                test_failures++;
            }
        }
    }
    free(route);
    free(queue);
    free(dist);
    free(g.start);
    free(g.to);
    topology_destroy(&t);
    platform_free(p);
}

static void test_simple_exact(void) {
    check_shape("nodes: 5\nnetwork: {topology: star}\n", true);
    check_shape("nodes: 4\nnetwork: {topology: full}\n", true);
    check_shape("nodes: 5\nnetwork: {topology: ring, direction: uni}\n", true);
    check_shape("nodes: 6\nnetwork: {topology: ring}\n", true);
    check_shape("nodes: 7\nnetwork: {topology: ring}\n", true);
    check_shape("nodes: 2\nnetwork: {topology: ring}\n", true);
}

static void test_grid_exact(void) {
    check_shape("network: {topology: mesh, dims: [3, 4]}\n", true);
    check_shape("network: {topology: mesh, dims: [2, 3, 2]}\n", true);
    check_shape("network: {topology: torus, dims: [4, 3]}\n", true);
    check_shape("network: {topology: torus, dims: [5]}\n", true);
    check_shape("network: {topology: torus, dims: [2, 2, 3]}\n", true);
    check_shape("network: {topology: torus, dims: [4, 5, 3], wrap: [1, 0, 1]}\n", true);
    check_shape("network: {topology: torus, dims: [3, 4], wrap: [0, 0]}\n", true);
}

static void test_twisted_exact(void) {
    /* degrees 1 and 2, several jumps, odd sizes, partial wrap */
    check_shape("network: {topology: twisted-torus, dims: [4, 4], jump: [1, 0]}\n", true);
    check_shape("network: {topology: twisted-torus, dims: [5, 3], jump: [2, 1]}\n", true);
    check_shape("network: {topology: twisted-torus, dims: [6, 4], jump: [3, 5]}\n", true);
    check_shape("network: {topology: twisted-torus, dims: [3, 4, 5], twist: 1, jump: [1, 2, 2]}\n",
                true);
    check_shape("network: {topology: twisted-torus, dims: [3, 4, 5], twist: 2, jump: [2, 0, 1]}\n",
                true);
    check_shape("network: {topology: twisted-torus, dims: [4, 3, 3], wrap: [1, 0, 1], twist: 1, "
                "jump: [2, 0, 3]}\n",
                true);
    check_shape("network: {topology: twisted-torus, dims: [7, 2], jump: [1, 3]}\n", true);
}

static void test_trees_exact(void) {
    check_shape("network: {topology: tree, arity: 3, levels: 2}\n", true);
    check_shape("network: {topology: tree, arity: 2, levels: 3}\n", true);
    check_shape("network: {topology: fat-tree, arity: 2, levels: 3}\n", true);
    check_shape("network: {topology: fat-tree, levels: 2, down: [2, 3], up: [2, 2]}\n", true);
    check_shape("network: {topology: fat-tree, levels: 3, down: [3, 2, 2], up: [1, 3, 2]}\n", true);
}

static void test_dragonfly_exact(void) {
    check_shape("network: {topology: dragonfly, routers: 4, nodes_per_router: 2, globals: 2}\n",
                true);
    check_shape(
        "network: {topology: dragonfly, routers: 4, nodes_per_router: 1, globals: 2, groups: 5}\n",
        true);
    check_shape(
        "network: {topology: dragonfly, routers: 4, nodes_per_router: 1, globals: 2, groups: 3}\n",
        true);
    check_shape("network: {topology: dragonfly, routers: 2, nodes_per_router: 2, globals: 1}\n",
                true);
    check_shape("network: {topology: dragonfly, routers: 3, nodes_per_router: 1, globals: 2, "
                "routing: valiant}\n",
                false);
}

/* A split run's lookahead (network_lookahead) is the least latency of a
 * route between two distinct nodes, less the 2 ps of rounding: checked
 * against every pair's path latency (network_path, its own computation),
 * on shapes whose link classes have different latencies. */
static void check_lookahead(const char *yaml) {
    struct sim_error err = {0};
    struct platform *p = platform_load(test_write_temp(".yaml", yaml), NULL, 0, &err);
    struct network net = {0};
    if (!p || !network_init(&net, p, &err)) {
        fprintf(stderr, "%s\n  %s\n", yaml, err.msg);
        test_failures++;
        if (p) platform_free(p);
        return;
    }
    simtime_t least = SIMTIME_NEVER;
    for (int32_t a = 0; a < net.topo.nodes; a++)
        for (int32_t b = 0; b < net.topo.nodes; b++) {
            if (a == b) continue;
            simtime_t lat = simtime_from_seconds(network_path(&net, a, b)->latency);
            if (lat < least) least = lat;
        }
    simtime_t got = network_lookahead(&net);
    if (got != least - 2) {
        fprintf(stderr, "lookahead of %s: %lld ps, every pair's least %lld ps - 2\n", yaml,
                (long long)got, (long long)least);
        test_failures++;
    }
    network_destroy(&net);
    platform_free(p);
}

static void test_lookahead(void) {
    /* a torus's nic class has no latency: one link of 100 ns, not 0 */
    check_lookahead("network: {topology: torus, dims: [4, 4, 2], link_latency: 100ns}\n");
    check_lookahead("network: {topology: torus, dims: [3, 5], link_latency: 100ns, "
                    "nic: {latency: 7ns}, overhead: 1us}\n");
    check_lookahead("network: {topology: mesh, dims: [3, 4], link_latency: 40ns}\n");
    check_lookahead("network: {topology: ring, link_latency: 30ns}\nnodes: 6\n");
    check_lookahead("network: {topology: full, link_latency: 30ns}\nnodes: 5\n");
    check_lookahead("network: {topology: star, link_latency: 250ns}\nnodes: 7\n");
    check_lookahead("network: {topology: star, link_latency: 250ns, backbone: {latency: 2us}}\n"
                    "nodes: 7\n");
    /* levels of different latencies: two nodes of one leaf switch cross two level-1 links */
    check_lookahead("network: {topology: fat-tree, levels: 2, down: [2, 3], up: [2, 2], "
                    "level1: {latency: 500ns}, level2: {latency: 20ns}}\n");
    check_lookahead("network: {topology: tree, arity: 3, levels: 2, level1: {latency: 300ns}, "
                    "level2: {latency: 10ns}}\n");
    /* one node a router: every route crosses a local or global link */
    check_lookahead("network: {topology: dragonfly, routers: 4, nodes_per_router: 1, globals: 2, "
                    "groups: 5, terminal: {latency: 50ns}, local: {latency: 400ns}, global: "
                    "{latency: 90ns}}\n");
    check_lookahead(
        "network: {topology: dragonfly, routers: 2, nodes_per_router: 2, globals: 1, "
        "terminal: {latency: 50ns}, local: {latency: 400ns}, global: {latency: 1us}}\n");
}

/* Distances worked by hand. */
static void test_by_hand(void) {
    struct platform *p;
    struct topology t;
    /* 8x8 torus: node 0 = (0,0), node 61 = (5,7): dimension 0 the short way
     * 8-5 = 3 hops, dimension 1 8-7 = 1 hop: 4 hops */
    if (load("network: {topology: torus, dims: [8, 8]}\n", &p, &t)) {
        CHECK_EQ_INT(t.nodes, 64);
        CHECK_EQ_INT(topology_distance(&t, 0, 61), 4);
        topology_destroy(&t);
        platform_free(p);
    }
    /* the same as a mesh: 5 + 7 = 12 */
    if (load("network: {topology: mesh, dims: [8, 8]}\n", &p, &t)) {
        CHECK_EQ_INT(topology_distance(&t, 0, 61), 12);
        topology_destroy(&t);
        platform_free(p);
    }
    /* 4-ary 3-tree: 64 nodes; 0 and 3 share a level-1 switch (2 hops), 0
     * and 4 a level-2 one (4), 0 and 63 only the top (6) */
    if (load("network: {topology: fat-tree, arity: 4, levels: 3}\n", &p, &t)) {
        CHECK_EQ_INT(t.nodes, 64);
        CHECK_EQ_INT(topology_distance(&t, 0, 3), 2);
        CHECK_EQ_INT(topology_distance(&t, 0, 4), 4);
        CHECK_EQ_INT(topology_distance(&t, 0, 63), 6);
        topology_destroy(&t);
        platform_free(p);
    }
    /* dragonfly a=4, p=2, h=2: g = 9 groups, 72 nodes; nodes 0 and 1 share
     * a router (2 hops), 0 and 2 a group (3 hops) */
    if (load("network: {topology: dragonfly, routers: 4, nodes_per_router: 2, globals: 2}\n", &p,
             &t)) {
        CHECK_EQ_INT(t.nodes, 72);
        CHECK_EQ_INT(topology_distance(&t, 0, 1), 2);
        CHECK_EQ_INT(topology_distance(&t, 0, 2), 3);
        topology_destroy(&t);
        platform_free(p);
    }
    /* twisted 4x4, jump [1, 0]: from (3,0) one step up in dimension 0
     * wraps to (0, 1): node 3 -> node 4 is one hop (a plain torus: 2) */
    if (load("network: {topology: twisted-torus, dims: [4, 4], jump: [1, 0]}\n", &p, &t)) {
        CHECK_EQ_INT(topology_distance(&t, 3, 4), 1);
        topology_destroy(&t);
        platform_free(p);
    }
}

TEST_LIST(topology_tests) = {
    {"topology.simple_exact", test_simple_exact},
    {"topology.grid_exact", test_grid_exact},
    {"topology.twisted_exact", test_twisted_exact},
    {"topology.trees_exact", test_trees_exact},
    {"topology.dragonfly_exact", test_dragonfly_exact},
    {"topology.by_hand", test_by_hand},
    {"topology.lookahead", test_lookahead},
    TEST_END,
};
