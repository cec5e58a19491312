/* SPDX-License-Identifier: BSD-3-Clause */
/* dragonfly (Kim et al.): g groups of a routers, p nodes per router
 * (`groups`, `routers`, `nodes_per_router`); the routers of a group are
 * all linked to each other (local links) and each router has h global
 * links (`globals`) to other groups. Global ports are numbered per group,
 * port k = i*h + q for port q of router i; port k leads to group
 * m < G ? m : m + 1 with m = k mod (g-1) (the "absolute" arrangement), and
 * the j-th port of group G towards T is joined to the j-th port of T
 * towards G. g defaults to a*h + 1 (one link between every two groups);
 * a*h must be a multiple of g - 1 so that every two groups are joined by
 * the same number of links.
 *
 * Routing (`routing: minimal`, the default) takes a shortest path: between
 * routers of one group the local link; between groups one global link and
 * at most one local link at each end, or two global links through a third
 * group when that is shorter (router to router: 1, 2 or 3 hops, the first
 * candidate in a fixed order). `routing: valiant` goes through an
 * intermediate router of another group chosen by a hash of the two nodes,
 * minimal to it and from it. Classes: "terminal" (node-router),
 * "local", "global".
 *   link n: node n -> its router; link N + n: router -> node n;
 *   link 2N + r*a + j: router r -> router j of its group;
 *   link 2N + R*a + r*h + q: global port q of router r (R routers in all) */
#include <stdio.h>
#include <string.h>

#include "net/topology.h"

enum { CL_TERMINAL, CL_LOCAL, CL_GLOBAL };

static bool df_get(const struct conf_node *map, const char *key, int64_t min, int64_t *out,
                   struct sim_error *err) {
    if (!conf_map_get(map, key))
        return err_at(err, map->file, map->line, "the dragonfly topology needs network.%s", key);
    return conf_get_int(map, "network", key, min, INT32_MAX, out, err);
}

static bool df_init(struct topology *t, const struct conf_node *map, struct sim_error *err) {
    if (!df_get(map, "routers", 1, &t->routers, err) ||
        !df_get(map, "nodes_per_router", 1, &t->per_router, err) ||
        !df_get(map, "globals", 1, &t->globals, err))
        return false;
    t->groups = t->routers * t->globals + 1;
    if (conf_map_get(map, "groups") &&
        !conf_get_int(map, "network", "groups", 2, t->groups, &t->groups, err))
        return false;
    if ((t->routers * t->globals) % (t->groups - 1))
        return err_at(err, map->file, map->line,
                      "dragonfly: the %lld global ports of a group (routers x globals) must be "
                      "shared evenly among the %lld other groups",
                      (long long)(t->routers * t->globals), (long long)(t->groups - 1));
    static const char *const routings[] = {"minimal", "valiant", NULL};
    int valiant = 0;
    if (!conf_get_enum(map, "network", "routing", routings, &valiant, err)) return false;
    t->valiant = valiant == 1;
    if (t->valiant && t->groups < 3)
        return err_set(err, "dragonfly: valiant routing needs at least 3 groups");
    if (t->groups > (INT64_C(1) << 31) / t->routers ||
        t->groups * t->routers > (INT64_C(1) << 31) / t->per_router)
        return err_set(err,
                       "dragonfly: more than 2^31 nodes (groups x routers x nodes_per_router)");
    int64_t R = t->groups * t->routers;
    t->nodes = R * t->per_router;
    t->vertices = t->nodes + R;
    t->links = 2 * t->nodes + R * t->routers + R * t->globals;
    topo_add_class(t, "terminal");
    topo_add_class(t, "local");
    topo_add_class(t, "global");
    return true;
}

/* The router (global number) and port at the other end of global port q
 * of router r. */
static void global_peer(const struct topology *t, int64_t r, int64_t q, int64_t *peer,
                        int64_t *pq) {
    int64_t a = t->routers, h = t->globals, g1 = t->groups - 1;
    int64_t G = r / a, k = (r % a) * h + q, m = k % g1, j = k / g1;
    int64_t T = m < G ? m : m + 1;
    int64_t k2 = (G < T ? G : G - 1) + j * g1;
    *peer = T * a + k2 / h;
    *pq = k2 % h;
}

static int64_t local_link(const struct topology *t, int64_t r, int64_t to) {
    return 2 * t->nodes + r * t->routers + to % t->routers;
}

static int64_t global_link(const struct topology *t, int64_t r, int64_t q) {
    return 2 * t->nodes + t->groups * t->routers * t->routers + r * t->globals + q;
}

/* Router r's port towards group T landing on router `at` (-1: anywhere);
 * the lowest such port, or -1. Group G's ports towards T are the group
 * ports m + j (g-1), j = 0, 1, ... (m as in global_peer). */
static int64_t port_to(const struct topology *t, int64_t r, int64_t T, int64_t at) {
    int64_t a = t->routers, h = t->globals, g1 = t->groups - 1, G = r / a;
    if (T == G) return -1;
    for (int64_t k = (T < G ? T : T - 1); k < a * h; k += g1) {
        if (k / h != r % a) continue;
        int64_t p, pq;
        global_peer(t, r, k % h, &p, &pq);
        if (at < 0 || p == at) return k % h;
    }
    return -1;
}

/* Shortest route between two routers (0 to 3 links). */
static int router_route(const struct topology *t, int64_t ru, int64_t rv, int64_t *out) {
    int64_t a = t->routers, Gu = ru / a, Gv = rv / a, q, p, pq;
    if (ru == rv) return 0;
    if (Gu == Gv) {
        out[0] = local_link(t, ru, rv);
        return 1;
    }
    if ((q = port_to(t, ru, Gv, rv)) >= 0) { /* 1: a global link straight there */
        out[0] = global_link(t, ru, q);
        return 1;
    }
    if ((q = port_to(t, ru, Gv, -1)) >= 0) { /* 2: global, then local */
        global_peer(t, ru, q, &p, &pq);
        out[0] = global_link(t, ru, q);
        out[1] = local_link(t, p, rv);
        return 2;
    }
    for (int64_t o = Gu * a; o < (Gu + 1) * a; o++) /* 2: local, then global */
        if ((q = port_to(t, o, Gv, rv)) >= 0) {
            out[0] = local_link(t, ru, o);
            out[1] = global_link(t, o, q);
            return 2;
        }
    for (int64_t q1 = 0; q1 < t->globals; q1++) { /* 2: global, global via a third group */
        global_peer(t, ru, q1, &p, &pq);
        if ((q = port_to(t, p, Gv, rv)) >= 0) {
            out[0] = global_link(t, ru, q1);
            out[1] = global_link(t, p, q);
            return 2;
        }
    }
    for (int64_t o = Gu * a; o < (Gu + 1) * a; o++) /* 3: local, global, local */
        if ((q = port_to(t, o, Gv, -1)) >= 0) {
            global_peer(t, o, q, &p, &pq);
            out[0] = local_link(t, ru, o);
            out[1] = global_link(t, o, q);
            out[2] = local_link(t, p, rv);
            return 3;
        }
    return 0; /* not reached: every two groups are joined */
}

/* Valiant's intermediate router for the pair (a, b): in a group that is
 * neither end's, chosen by a hash of the pair. */
static int64_t valiant_router(const struct topology *t, int64_t a, int64_t b) {
    uint64_t x = (uint64_t)a * 0x9e3779b97f4a7c15ull ^ (uint64_t)b * 0xc2b2ae3d27d4eb4full;
    x ^= x >> 31;
    x *= 0x94d049bb133111ebull;
    x ^= x >> 29;
    int64_t Ga = a / t->per_router / t->routers, Gb = b / t->per_router / t->routers;
    int64_t G = (int64_t)(x % (uint64_t)t->groups);
    while (G == Ga || G == Gb)
        G = (G + 1) % t->groups;
    return G * t->routers + (int64_t)((x >> 20) % (uint64_t)t->routers);
}

static int df_route(struct topology *t, int64_t a, int64_t b, int64_t *out) {
    int64_t ru = a / t->per_router, rv = b / t->per_router;
    int n = 0;
    out[n++] = a; /* terminal link up */
    int64_t Gu = ru / t->routers, Gv = rv / t->routers;
    if (t->valiant && Gu != Gv) {
        int64_t mid = valiant_router(t, a, b);
        n += router_route(t, ru, mid, out + n);
        n += router_route(t, mid, rv, out + n);
    } else {
        n += router_route(t, ru, rv, out + n);
    }
    out[n++] = t->nodes + b; /* terminal link down */
    return n;
}

static int32_t df_distance(struct topology *t, int64_t a, int64_t b) {
    int64_t tmp[16];
    return df_route(t, a, b, tmp);
}

static bool df_link_ends(const struct topology *t, int64_t link, int64_t *from, int64_t *to) {
    int64_t N = t->nodes, a = t->routers, R = t->groups * a;
    if (link < N) {
        *from = link;
        *to = N + link / t->per_router;
        return true;
    }
    if (link < 2 * N) {
        *from = N + (link - N) / t->per_router;
        *to = link - N;
        return true;
    }
    int64_t l = link - 2 * N;
    if (l < R * a) {
        int64_t r = l / a, j = l % a;
        if (j == r % a) return false;
        *from = N + r;
        *to = N + (r / a) * a + j;
        return true;
    }
    l -= R * a;
    int64_t r = l / t->globals, q = l % t->globals, p, pq;
    global_peer(t, r, q, &p, &pq);
    *from = N + r;
    *to = N + p;
    return true;
}

static void df_coords(const struct topology *t, int64_t v, char *buf, size_t len) {
    int64_t r = v / t->per_router;
    snprintf(buf, len, "group %lld, router %lld, slot %lld", (long long)(r / t->routers),
             (long long)(r % t->routers), (long long)(v % t->per_router));
}

static int df_link_class(const struct topology *t, int64_t link) {
    int64_t N = t->nodes;
    if (link < 2 * N) return CL_TERMINAL;
    return link - 2 * N < t->groups * t->routers * t->routers ? CL_LOCAL : CL_GLOBAL;
}

static const char *const df_keys[] = {"groups",  "routers", "nodes_per_router",
                                      "globals", "routing", NULL};

const struct topo_ops topo_dragonfly = {"dragonfly",   df_init, df_distance, df_route, df_link_ends,
                                        df_link_class, NULL,    df_keys,     df_coords};
