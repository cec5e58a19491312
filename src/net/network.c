/* SPDX-License-Identifier: BSD-3-Clause */
/* Network construction from the platform tree, and route costs over a
 * topology (cached by node pair: the cost of a pair never changes). */
#include "net/network.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/alloc.h"
#include "core/hash.h"

static bool read_overhead(struct network *n, const struct conf_node *net, struct sim_error *err) {
    n->overhead = 0;
    if (!net || !conf_map_get(net, "overhead")) return true;
    return conf_get_time(net, "network", "overhead", &n->overhead, err);
}

/* network.interfaces: serial (the default: a node's interface carries its
 * messages one after another, without a contention model) or unlimited. */
static bool read_interfaces(struct network *n, const struct conf_node *net, struct sim_error *err) {
    const struct conf_node *in = net ? conf_map_get(net, "interfaces") : NULL;
    n->serial_interfaces = n->contention == CONTENTION_NONE;
    if (!in) return true;
    static const char *const kinds[] = {"serial", "unlimited", NULL};
    int unlimited = 0;
    if (!conf_get_enum(net, "network", "interfaces", kinds, &unlimited, err)) return false;
    if (n->contention != CONTENTION_NONE && unlimited)
        return err_at(err, in->file, in->line,
                      "'network.interfaces: unlimited' belongs to contention: none; the %s model "
                      "shares the nodes' links itself",
                      n->contention == CONTENTION_FLOW ? "flow" : "buses");
    /* with a contention model, serial is what that model does with the links */
    n->serial_interfaces = n->contention == CONTENTION_NONE && !unlimited;
    return true;
}

/* network.intra_copies: serial (the default) or unlimited. A flow model
 * sharing the node's memory (intra_contention) times those copies itself. */
static bool read_intra_copies(struct network *n, const struct conf_node *net,
                              struct sim_error *err) {
    static const char *const kinds[] = {"serial", "unlimited", NULL};
    int unlimited = 0;
    if (net && conf_map_get(net, "intra_copies") &&
        !conf_get_enum(net, "network", "intra_copies", kinds, &unlimited, err))
        return false;
    n->serial_copies = !unlimited && !n->intra_contention;
    return true;
}

static bool read_contention(struct network *n, const struct conf_node *net, struct sim_error *err) {
    const struct conf_node *cn = net ? conf_map_get(net, "contention") : NULL;
    static const char *const models[] = {"none", "buses", "flow", NULL};
    int model = 0;
    if (cn && !conf_get_enum(net, "network", "contention", models, &model, err)) return false;
    n->contention = model == 2 ? CONTENTION_FLOW : model == 1 ? CONTENTION_BUSES : CONTENTION_NONE;
    if (n->contention == CONTENTION_FLOW && topology_is_flat(&n->topo))
        return err_at(err, cn->file, cn->line,
                      "'network.contention: flow' shares the links of a route: choose a "
                      "topology (e.g. topology: star) under network:");
    for (int c = 0; n->contention == CONTENTION_FLOW && c < n->topo.nclasses; c++)
        if (n->topo.cls[c].fatpipe)
            return err_at(err, cn->file, cn->line,
                          "'network.contention: flow' shares every link, but link '%s' is a "
                          "fatpipe (each flow has its whole bandwidth): use contention: none, or "
                          "sharing: shared",
                          n->topo.class_names[c]);
    const struct conf_node *ic = net ? conf_map_get(net, "intra_contention") : NULL;
    if (ic) {
        static const char *const truths[] = {"false", "true", NULL};
        int on = 0;
        if (!conf_get_enum(net, "network", "intra_contention", truths, &on, err)) return false;
        n->intra_contention = on == 1;
        if (n->intra_contention && n->contention != CONTENTION_FLOW)
            return err_at(err, ic->file, ic->line,
                          "'network.intra_contention' shares a node's memory among flows: it "
                          "needs contention: flow");
        if (n->intra_contention && p2p_model_bandwidth(&n->intra) <= 0)
            return err_at(err, ic->file, ic->line,
                          "'network.intra_contention' needs an intra model with a bandwidth "
                          "(affine, piecewise or loggp), not a table");
    }
    if (!read_interfaces(n, net, err) || !read_intra_copies(n, net, err)) return false;
    static const char *const counts[] = {"buses", "links_per_node"};
    int64_t *dst[] = {&n->buses, &n->links_per_node};
    for (int i = 0; i < 2; i++) {
        const struct conf_node *k = net ? conf_map_get(net, counts[i]) : NULL;
        if (!k) continue;
        if (n->contention != CONTENTION_BUSES)
            return err_at(err, k->file, k->line,
                          "'network.%s' belongs to the buses model: add contention: buses",
                          counts[i]);
        if (!conf_get_int(net, "network", counts[i], 0, INT32_MAX, dst[i], err)) return false;
    }
    return true;
}

/* Every entry of the routes' cache empty. */
static void clear_paths(const struct network *n) {
    for (int i = 0; n->paths && i < NETWORK_PATH_CACHE; i++)
        n->paths[i].src = -1;
}

/* platform scale: every latency and bandwidth of the models and the
 * topology's links, and network.overhead, by their factors. */
static void scale(struct network *n, const struct platform *plat) {
    double lat = plat->scale_latency, bw = plat->scale_bandwidth;
    p2p_model_scale(&n->intra, lat, bw);
    p2p_model_scale(&n->inter, lat, bw);
    for (int c = 0; c < n->topo.nclasses; c++) {
        n->topo.cls[c].latency *= lat;
        n->topo.cls[c].bandwidth *= bw;
    }
    n->overhead *= plat->scale_overhead;
}

/* The routes' cache and scratch (a topology's). */
static void free_routes(struct network *n) {
    free(n->paths);
    free(n->route);
    free(n->classes);
    n->paths = NULL;
    n->route = NULL;
    n->classes = NULL;
}

/* platform ideal: network: every message free. The topology, if any, has
 * fixed the node count; routes are then flat, with no contention, serial
 * interface or copy, and models that cost nothing. */
static void make_ideal(struct network *n) {
    int64_t nodes = n->topo.nodes; /* 0: as many as the ranks need (flat) */
    topology_destroy(&n->topo);
    free_routes(n);
    struct sim_error ignored = {0};
    (void)topology_init(&n->topo, NULL, nodes, &ignored); /* flat: cannot fail */
    p2p_model_destroy(&n->intra);
    p2p_model_destroy(&n->inter);
    p2p_model_init_free(&n->intra);
    p2p_model_init_free(&n->inter);
    n->overhead = 0;
    n->contention = CONTENTION_NONE;
    n->intra_contention = n->serial_copies = n->serial_interfaces = false;
    n->buses = n->links_per_node = 0;
}

bool network_init(struct network *n, struct platform *plat, struct sim_error *err) {
    memset(n, 0, sizeof *n);
    const struct conf_node *root = plat->conf;
    const struct conf_node *intra = conf_map_get(root, "intra");
    const struct conf_node *inter = conf_map_get(root, "inter");
    const struct conf_node *net = conf_map_get(root, "network");
    if (!intra || !inter) return err_set(err, "platform lacks intra: or inter:");
    if (!p2p_model_init(&n->intra, intra, "intra", err) ||
        !p2p_model_init(&n->inter, inter, "inter", err) || !read_overhead(n, net, err) ||
        !topology_init(&n->topo, net, plat->nodes, err) || !read_contention(n, net, err)) {
        network_destroy(n);
        return false;
    }
    if (!topology_is_flat(&n->topo)) {
        plat->nodes = n->topo.nodes;
        plat->nodes_fixed_by = n->topo.ops->name;
        n->paths = xmalloc(sizeof *n->paths * NETWORK_PATH_CACHE);
        clear_paths(n);
        n->route = xmalloc(sizeof *n->route * (TOPO_MAX_HOPS + 3));
        n->classes = xmalloc(sizeof *n->classes * (TOPO_MAX_HOPS + 3));
    }
    scale(n, plat);
    if (plat->ideal_network) make_ideal(n);
    n->intra_zero = p2p_model_cost(&n->intra, 0);
    n->inter_zero = p2p_model_cost(&n->inter, 0);
    n->faults = xcalloc(1, sizeof *n->faults);
    n->faults->st.first = SIMTIME_NEVER;
    return true;
}

bool network_faults_init(struct network *n, const struct platform *plat, struct sim_error *err) {
    faults_destroy(n->faults);
    if (!faults_init(n->faults, plat->conf, &n->topo, plat->nodes, err)) return false;
    if (faults_configured(n->faults) && !n->paths) { /* a flat network: its cache of one */
        n->paths = xmalloc(sizeof *n->paths * NETWORK_PATH_CACHE);
        clear_paths(n);
    }
    return true;
}

/* The cache's entries of an earlier state are stale: O(1) per fault (a
 * run of a million link failures cleared 4,096 entries at each). */
void network_faults_changed(const struct network *n) {
    if (++n->faults->gen == 0) clear_paths(n); /* the count wrapped */
}

void network_destroy(struct network *n) {
    p2p_model_destroy(&n->intra);
    p2p_model_destroy(&n->inter);
    topology_destroy(&n->topo);
    if (n->faults) faults_destroy(n->faults);
    free(n->faults);
    n->faults = NULL;
    free_routes(n);
}

int network_route(const struct network *n, int32_t src, int32_t dst, int64_t *links, int *classes,
                  int *hops) {
    struct topology *t = (struct topology *)&n->topo; /* route caches are the topology's own */
    int k = topology_route(t, src, dst, links);
    struct net_faults *f = n->faults;
    if (f && faults_any_down(f) && faults_route_blocked(f, links, k)) {
        k = faults_detour(f, src, dst, links);
        if (k < 0) return *hops = -1;
    }
    *hops = k;
    for (int i = 0; i < k; i++)
        classes[i] = topology_link_class(t, links[i]);
    if (t->direct) { /* the injection and ejection links: the last class, "nic" */
        links[k] = t->links + 2 * (int64_t)src;
        classes[k++] = t->nclasses - 1;
        links[k] = t->links + 2 * (int64_t)dst + 1;
        classes[k++] = t->nclasses - 1;
    }
    if (t->backbone) {
        links[k] = t->links + 2 * t->nodes;
        classes[k++] = 1; /* the star's "backbone" */
    }
    return k;
}

/* The latency of the links of the topology's own route between two nodes,
 * whatever is down (the nodes' own links and the overhead aside: a detour
 * has the same). Uses the network's scratch route: call it last. */
static double own_route_latency(const struct network *n, int32_t a, int32_t b) {
    struct topology *t = (struct topology *)&n->topo; /* route caches are the topology's own */
    int k = topology_route(t, a, b, n->route);
    double lat = 0;
    for (int i = 0; i < k; i++)
        lat += t->cls[topology_link_class(t, n->route[i])].latency;
    return lat;
}

static void compute_path(const struct network *n, struct path_cost *p) {
    const struct topology *t = &n->topo;
    p->extra_hops = 0;
    p->extra_latency = 0;
    if (topology_is_flat(t)) { /* faults: only whether the nodes are up */
        p->hops =
            faults_node_down(n->faults, p->src) || faults_node_down(n->faults, p->dst) ? -1 : 1;
        p->latency = p->bandwidth = p->out_bandwidth = p->in_bandwidth = 0;
        return;
    }
    int hops, k = network_route(n, (int32_t)p->src, (int32_t)p->dst, n->route, n->classes, &hops);
    if (k < 0) { /* a partition: no route over what is up */
        p->hops = -1;
        p->latency = INFINITY;
        p->bandwidth = p->out_bandwidth = p->in_bandwidth = 1;
        return;
    }
    double lat = n->overhead, bw = 1e300;
    for (int i = 0; i < k; i++) {
        lat += t->cls[n->classes[i]].latency;
        if (t->cls[n->classes[i]].bandwidth < bw) bw = t->cls[n->classes[i]].bandwidth;
    }
    p->latency = lat;
    p->bandwidth = bw;
    p->hops = hops;
    /* a direct network's injection and ejection links follow the route's
     * hops; an indirect network's first and last hops are the nodes' links */
    int first = t->direct ? hops : 0, last = t->direct ? hops + 1 : hops - 1;
    p->out_bandwidth = k > 0 ? t->cls[n->classes[first]].bandwidth : bw;
    p->in_bandwidth = k > 0 ? t->cls[n->classes[last]].bandwidth : bw;
    int32_t minimal = topology_distance((struct topology *)t, p->src, p->dst);
    if (hops > minimal) { /* a detour: what it adds to the topology's own route */
        p->extra_hops = hops - minimal;
        double detour = 0; /* the route's first `hops` links are the topology's */
        for (int i = 0; i < hops; i++)
            detour += t->cls[n->classes[i]].latency;
        p->extra_latency = detour - own_route_latency(n, (int32_t)p->src, (int32_t)p->dst);
    }
}

bool network_connected(const struct network *n, int32_t src, int32_t dst) {
    if (src == dst) return !faults_node_down(n->faults, src);
    if (!n->paths) return true; /* no faults */
    return network_path(n, src, dst)->hops >= 0;
}

const struct path_cost *network_path(const struct network *n, int32_t src, int32_t dst) {
    uint64_t key = (uint64_t)(uint32_t)src << 32 | (uint32_t)dst;
    struct path_cost *p = &n->paths[hash_fib_top(key, 12)]; /* NETWORK_PATH_CACHE = 2^12 */
    if (p->src != src || p->dst != dst || p->gen != n->faults->gen) {
        p->src = src;
        p->dst = dst;
        p->gen = n->faults->gen;
        compute_path(n, p);
    }
    return p;
}

/* The latency of the topology's own route from a to b (faults aside),
 * with the overhead, a direct network's injection and ejection links and a
 * star's backbone, as compute_path counts them. */
static double route_latency(const struct network *n, int32_t a, int32_t b) {
    const struct topology *t = &n->topo;
    double lat = n->overhead + own_route_latency(n, a, b);
    if (t->direct) lat += 2 * t->cls[t->nclasses - 1].latency;
    if (t->backbone) lat += t->cls[1].latency;
    return lat;
}

/* Graphs of at most this many nodes are searched pair by pair. */
#define LOOKAHEAD_ALL_PAIRS 1024

/* The least latency of a route between two distinct nodes: over the routes
 * from node 0 to every other node, which hold one of the least on every
 * shape but a graph (tori, rings, full, fat trees, dragonflies, stars and
 * trees look alike from every node; a mesh's classes are each crossed by a
 * route from its corner of one hop); a graph's every pair up to
 * LOOKAHEAD_ALL_PAIRS nodes, beyond which its least link latency bounds it
 * (tests/unit/test_topology.c compares with every pair on small shapes). */
static double least_route_latency(const struct network *n) {
    const struct topology *t = &n->topo;
    double least = INFINITY;
    if (t->own_params && t->nodes > LOOKAHEAD_ALL_PAIRS) { /* a large graph: a bound */
        for (int c = 0; c < t->nclasses; c++)
            if (t->cls[c].latency < least) least = t->cls[c].latency;
        return n->overhead + least;
    }
    int64_t sources = t->own_params ? t->nodes : 1;
    for (int64_t a = 0; a < sources; a++)
        for (int64_t b = 0; b < t->nodes; b++) {
            if (a == b) continue;
            double lat = route_latency(n, (int32_t)a, (int32_t)b);
            if (lat < least) least = lat;
        }
    return least;
}

simtime_t network_lookahead(const struct network *n) {
    simtime_t least;
    if (topology_is_flat(&n->topo)) {
        least = p2p_model_min_head_time(&n->inter);
        if (n->inter_zero < least) least = n->inter_zero;
    } else { /* T(S) - W(S) >= the route's latency, for the route's bandwidth is
                at most the destination link's */
        if (!n->lookahead_known) { /* computed once, on first use */
            struct network *m = (struct network *)n;
            double lat = least_route_latency(n);
            m->lookahead = isfinite(lat) ? simtime_from_seconds(lat) : SIMTIME_NEVER / 4;
            m->lookahead_known = true;
        }
        least = n->lookahead;
    }
    /* T(S) and W(S) are each rounded to the picosecond */
    return least > 2 ? least - 2 : 0;
}

void network_link_name(const struct network *net, int64_t link, char *buf, size_t len) {
    const struct topology *t = &net->topo;
    int64_t from, to;
    if (link == t->links + 2 * t->nodes) {
        snprintf(buf, len, "backbone");
        return;
    }
    if (link > t->links + 2 * t->nodes) {
        snprintf(buf, len, "memory of node %lld", (long long)(link - t->links - 2 * t->nodes - 1));
        return;
    }
    if (link >= t->links) {
        int64_t node = (link - t->links) / 2;
        snprintf(buf, len, "%s link of node %lld", (link - t->links) % 2 ? "ejection" : "injection",
                 (long long)node);
        return;
    }
    if (!topology_link_ends(t, link, &from, &to)) from = to = -1;
    if (t->own_params) { /* a graph: every link has a name */
        snprintf(buf, len, "link %s", t->class_names[topology_link_class(t, link)]);
        return;
    }
    const char *cls = t->class_names[topology_link_class(t, link)];
    bool plain = !strcmp(cls, "link");
    snprintf(buf, len, "%s%slink %lld (%s %lld -> %s %lld)", plain ? "" : cls, plain ? "" : " ",
             (long long)link, from < t->nodes ? "node" : "switch", (long long)from,
             to < t->nodes ? "node" : "switch", (long long)to);
}
