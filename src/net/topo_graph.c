/* SPDX-License-Identifier: BSD-3-Clause */
/* graph: a network given link by link (docs/network.md), as SimGrid's
 * <host>/<link>/<route> zones describe one. Vertices are the named hosts
 * (the nodes, in order) then the named routers (switches); every named
 * link has its own latency and bandwidth (one link class per link, named
 * after it) and is one resource whichever way it is crossed. Routes are
 * given as lists of links:
 *   routing: full      every two hosts have a route of their own (a route
 *                      is used backwards too unless symmetrical: false);
 *   routing: shortest  each route is an edge between two vertices, and a
 *                      message takes the path of fewest edges (breadth
 *                      first, edges in file order: ties go to the first),
 *                      crossing the links of each edge.
 * Tables are per pair of hosts (full) or per host and vertex (shortest),
 * so a graph has at most GRAPH_MAX_VERTICES vertices. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/alloc.h"
#include "net/topology.h"

#define GRAPH_MAX_VERTICES 4096

/* A route used one way: an edge from -> to crossing links off..off+len-1
 * of the route table (backwards when rev). */
struct dedge {
    int32_t from, to, len;
    bool rev;
    int64_t off;
    const struct conf_node *where; /* the route (while the platform loads) */
};

struct graph {
    int64_t nv, nl;
    char **vnames, **lnames;
    int32_t *vsorted, *lsorted; /* indices sorted by name, for lookups */
    bool shortest;
    int64_t *rlinks; /* the links of every route, one after another */
    int64_t nrlinks, rlinks_cap;
    struct dedge *edges;
    int64_t nedges, edges_cap;
    int32_t *table;  /* full: edge of host pair (a, b); shortest: edge into v from host a */
    int32_t *length; /* shortest: links from host a to vertex v */
    int64_t *link_from, *link_to;
};

static const char *const *sort_names;

static int by_name(const void *a, const void *b) {
    return strcmp(sort_names[*(const int32_t *)a], sort_names[*(const int32_t *)b]);
}

/* Index of name in names (sorted by `sorted`), or -1. */
static int32_t find_name(char **names, const int32_t *sorted, int64_t n, const char *name) {
    int64_t lo = 0, hi = n;
    while (lo < hi) {
        int64_t mid = (lo + hi) / 2;
        int c = strcmp(names[sorted[mid]], name);
        if (!c) return sorted[mid];
        if (c < 0)
            lo = mid + 1;
        else
            hi = mid;
    }
    return -1;
}

/* Sorts the names' indices; a name given twice is an error at its node. */
static int32_t *sort_unique(char **names, int64_t n, const struct conf_node *const *where,
                            const char *what, struct sim_error *err) {
    int32_t *idx = xmalloc(sizeof *idx * (size_t)(n ? n : 1));
    for (int64_t i = 0; i < n; i++)
        idx[i] = (int32_t)i;
    sort_names = (const char *const *)names;
    qsort(idx, (size_t)n, sizeof *idx, by_name);
    for (int64_t i = 1; i < n; i++)
        if (!strcmp(names[idx[i]], names[idx[i - 1]])) {
            int32_t later = idx[i] > idx[i - 1] ? idx[i] : idx[i - 1];
            err_at(err, where[later]->file, where[later]->line,
                   "network: the %s '%s' is named twice", what, names[later]);
            free(idx);
            return NULL;
        }
    return idx;
}

static bool read_vertices(struct topology *t, struct graph *g, const struct conf_node *map,
                          struct sim_error *err) {
    const struct conf_node *hosts = conf_map_get(map, "hosts"),
                           *routers = conf_map_get(map, "routers");
    if (!hosts || hosts->kind != CONF_SEQ || hosts->count == 0)
        return err_at(err, hosts ? hosts->file : map->file, hosts ? hosts->line : map->line,
                      "the graph topology needs network.hosts: a list of the nodes' names");
    if (routers && routers->kind != CONF_SEQ)
        return err_at(err, routers->file, routers->line,
                      "'network.routers': expected a list of names");
    int64_t nr = routers ? routers->count : 0;
    g->nv = hosts->count + nr;
    if (g->nv > GRAPH_MAX_VERTICES)
        return err_at(err, hosts->file, hosts->line,
                      "the graph has %lld hosts and routers; at most %d are simulated",
                      (long long)g->nv, GRAPH_MAX_VERTICES);
    const struct conf_node **where = xmalloc(sizeof *where * (size_t)g->nv);
    g->vnames = xcalloc((size_t)g->nv, sizeof *g->vnames);
    for (int64_t i = 0; i < g->nv; i++) {
        const struct conf_node *item =
            i < hosts->count ? hosts->items[i] : routers->items[i - hosts->count];
        where[i] = item;
        if (item->kind != CONF_SCALAR) {
            free(where);
            return err_at(err, item->file, item->line, "network: a host or router is a name");
        }
        g->vnames[i] = xstrdup(item->value);
    }
    g->vsorted = sort_unique(g->vnames, g->nv, where, "host or router", err);
    free(where);
    t->nodes = hosts->count;
    t->vertices = g->nv;
    return g->vsorted != NULL;
}

static bool read_link(struct topology *t, struct graph *g, int64_t i, const struct conf_node *m,
                      const struct link_params *def, struct sim_error *err) {
    char path[300];
    snprintf(path, sizeof path, "network.links.%s", g->lnames[i]);
    if (m->kind != CONF_MAP)
        return err_at(err, m->file, m->line,
                      "'%s': expected a map {latency: TIME, bandwidth: RATE, sharing: shared}",
                      path);
    static const char *const keys[] = {"latency", "bandwidth", "sharing", NULL};
    if (!conf_check_keys(m, path, keys, err)) return false;
    int c = topo_add_class(t, g->lnames[i]);
    struct link_params *p = &t->cls[c];
    *p = *def;
    if (!topo_read_link_params(m, path, p, err)) return false;
    static const char *const sharings[] = {"shared", "fatpipe", NULL};
    int fatpipe = p->fatpipe;
    if (!conf_get_enum(m, path, "sharing", sharings, &fatpipe, err)) return false;
    p->fatpipe = fatpipe == 1;
    return true;
}

static bool read_links(struct topology *t, struct graph *g, const struct conf_node *net,
                       struct sim_error *err) {
    const struct conf_node *links = conf_map_get(net, "links");
    if (!links || links->kind != CONF_MAP || links->count == 0)
        return err_at(err, links ? links->file : net->file, links ? links->line : net->line,
                      "the graph topology needs network.links: a map of link names to "
                      "{latency, bandwidth}");
    struct link_params def;
    if (!topo_link_defaults(net, &def, err)) return false;
    g->nl = links->count;
    g->lnames = xcalloc((size_t)g->nl, sizeof *g->lnames);
    for (int64_t i = 0; i < g->nl; i++)
        g->lnames[i] = xstrdup(links->keys[i]);
    g->lsorted =
        sort_unique(g->lnames, g->nl, (const struct conf_node *const *)links->items, "link", err);
    if (!g->lsorted) return false;
    for (int64_t i = 0; i < g->nl; i++)
        if (!read_link(t, g, i, links->items[i], &def, err)) return false;
    t->links = g->nl;
    t->own_params = true;
    return true;
}

static void push_edge(struct graph *g, struct dedge e) {
    if (g->nedges == g->edges_cap) {
        g->edges_cap = g->edges_cap ? 2 * g->edges_cap : 64;
        g->edges = xrealloc_or_die(g->edges, sizeof *g->edges * (size_t)g->edges_cap);
    }
    g->edges[g->nedges++] = e;
}

static int32_t route_end(const struct graph *g, const struct conf_node *r, const char *key,
                         struct sim_error *err) {
    const struct conf_node *v = conf_map_get(r, key);
    if (!v || v->kind != CONF_SCALAR)
        return err_at(err, r->file, r->line, "network.routes: a route needs %s: a host or router",
                      key),
               -1;
    int32_t i = find_name(g->vnames, g->vsorted, g->nv, v->value);
    if (i < 0)
        err_at(err, v->file, v->line, "network.routes: no host or router named '%s'", v->value);
    return i;
}

/* One route {from, to, links: [...], symmetrical}: its links appended to
 * the route table, an edge each way it may be used. */
static bool read_route(struct graph *g, const struct conf_node *r, struct sim_error *err) {
    static const char *const keys[] = {"from", "to", "links", "symmetrical", NULL};
    if (r->kind != CONF_MAP)
        return err_at(err, r->file, r->line, "network.routes: a route is a map {from, to, links}");
    if (!conf_check_keys(r, "network.routes", keys, err)) return false;
    int32_t from = route_end(g, r, "from", err), to = from < 0 ? -1 : route_end(g, r, "to", err);
    if (to < 0) return false;
    if (from == to)
        return err_at(err, r->file, r->line, "network.routes: a route from '%s' to itself",
                      g->vnames[from]);
    const struct conf_node *ls = conf_map_get(r, "links");
    if (!ls || ls->kind != CONF_SEQ || ls->count == 0 || ls->count > TOPO_MAX_HOPS)
        return err_at(err, ls ? ls->file : r->file, ls ? ls->line : r->line,
                      "network.routes: a route's links are a list of 1 to %d link names",
                      TOPO_MAX_HOPS);
    if (g->nrlinks + ls->count > g->rlinks_cap) {
        g->rlinks_cap = 2 * (g->nrlinks + ls->count);
        g->rlinks = xrealloc_or_die(g->rlinks, sizeof *g->rlinks * (size_t)g->rlinks_cap);
    }
    for (int i = 0; i < ls->count; i++) {
        const struct conf_node *l = ls->items[i];
        int32_t id =
            l->kind == CONF_SCALAR ? find_name(g->lnames, g->lsorted, g->nl, l->value) : -1;
        if (id < 0)
            return err_at(err, l->file, l->line, "network.routes: no link named '%s'",
                          l->kind == CONF_SCALAR ? l->value : "(a list or map)");
        g->rlinks[g->nrlinks + i] = id;
    }
    bool symmetrical = true;
    const struct conf_node *sy = conf_map_get(r, "symmetrical");
    if (sy) {
        if (sy->kind != CONF_SCALAR || (strcmp(sy->value, "true") && strcmp(sy->value, "false")))
            return err_at(err, sy->file, sy->line, "network.routes: symmetrical is true or false");
        symmetrical = !strcmp(sy->value, "true");
    }
    push_edge(g, (struct dedge){from, to, ls->count, false, g->nrlinks, r});
    if (symmetrical) push_edge(g, (struct dedge){to, from, ls->count, true, g->nrlinks, r});
    g->nrlinks += ls->count;
    return true;
}

static bool read_routes(struct graph *g, const struct conf_node *net, struct sim_error *err) {
    static const char *const routings[] = {"full", "shortest", NULL};
    int shortest = 0;
    if (!conf_get_enum(net, "network", "routing", routings, &shortest, err)) return false;
    g->shortest = shortest == 1;
    const struct conf_node *routes = conf_map_get(net, "routes");
    if (!routes || routes->kind != CONF_SEQ)
        return err_at(err, routes ? routes->file : net->file, routes ? routes->line : net->line,
                      "the graph topology needs network.routes: a list of {from, to, links}");
    for (int i = 0; i < routes->count; i++)
        if (!read_route(g, routes->items[i], err)) return false;
    return true;
}

/* Full routing: the edge of every ordered pair of hosts; a pair given
 * twice, or without a route, is an error. */
static bool full_table(struct graph *g, int64_t n, const struct conf_node *net,
                       struct sim_error *err) {
    g->table = xmalloc(sizeof *g->table * (size_t)(n * n));
    for (int64_t i = 0; i < n * n; i++)
        g->table[i] = -1;
    for (int64_t e = 0; e < g->nedges; e++) {
        const struct dedge *d = &g->edges[e];
        if (d->from >= n || d->to >= n) continue; /* routes to routers: no use here */
        int32_t *slot = &g->table[d->from * n + d->to];
        if (*slot >= 0)
            return err_at(err, d->where->file, d->where->line,
                          "network.routes: two routes from '%s' to '%s' (a symmetrical route also "
                          "goes back)",
                          g->vnames[d->from], g->vnames[d->to]);
        *slot = (int32_t)e;
    }
    for (int64_t a = 0; a < n; a++)
        for (int64_t b = 0; b < n; b++)
            if (a != b && g->table[a * n + b] < 0)
                return err_at(err, net->file, net->line,
                              "network.routes: no route from '%s' to '%s' (routing: full needs one "
                              "for every two hosts; routing: shortest finds paths)",
                              g->vnames[a], g->vnames[b]);
    return true;
}

/* Shortest routing: a breadth-first search from every host over the
 * edges (in the order given), keeping the edge into each vertex. */
static bool shortest_tables(struct graph *g, int64_t n, const struct conf_node *net,
                            struct sim_error *err) {
    int64_t nv = g->nv;
    int64_t *start = xcalloc((size_t)nv + 1, sizeof *start),
            *adj = xmalloc(sizeof *adj * (size_t)(g->nedges + 1));
    for (int64_t e = 0; e < g->nedges; e++)
        start[g->edges[e].from + 1]++;
    for (int64_t v = 0; v < nv; v++)
        start[v + 1] += start[v];
    int64_t *fill = xcalloc((size_t)nv, sizeof *fill);
    for (int64_t e = 0; e < g->nedges; e++) {
        int32_t v = g->edges[e].from;
        adj[start[v] + fill[v]++] = e;
    }
    free(fill);
    g->table = xmalloc(sizeof *g->table * (size_t)(n * nv));
    g->length = xmalloc(sizeof *g->length * (size_t)(n * nv));
    int32_t *queue = xmalloc(sizeof *queue * (size_t)nv);
    bool ok = true;
    for (int64_t a = 0; ok && a < n; a++) {
        int32_t *into = &g->table[a * nv], *len = &g->length[a * nv];
        for (int64_t v = 0; v < nv; v++)
            into[v] = -1, len[v] = -1;
        int64_t head = 0, tail = 0;
        queue[tail++] = (int32_t)a;
        len[a] = 0;
        while (head < tail) {
            int32_t u = queue[head++];
            for (int64_t k = start[u]; k < start[u + 1]; k++) {
                const struct dedge *d = &g->edges[adj[k]];
                if (len[d->to] >= 0) continue;
                len[d->to] = len[u] + d->len;
                into[d->to] = (int32_t)adj[k];
                queue[tail++] = d->to;
            }
        }
        for (int64_t b = 0; ok && b < n; b++) {
            if (len[b] < 0)
                ok = err_at(err, net->file, net->line, "network.routes: no path from '%s' to '%s'",
                            g->vnames[a], g->vnames[b]);
            else if (len[b] > TOPO_MAX_HOPS)
                ok = err_at(
                    err, net->file, net->line,
                    "network.routes: the path from '%s' to '%s' crosses %d links; at most %d",
                    g->vnames[a], g->vnames[b], len[b], TOPO_MAX_HOPS);
        }
    }
    free(queue);
    free(start);
    free(adj);
    return ok;
}

/* A link's ends, for reports: those of the first one-link edge over it. */
static void link_ends_table(struct graph *g) {
    g->link_from = xmalloc(sizeof *g->link_from * (size_t)g->nl);
    g->link_to = xmalloc(sizeof *g->link_to * (size_t)g->nl);
    for (int64_t l = 0; l < g->nl; l++)
        g->link_from[l] = g->link_to[l] = -1;
    for (int64_t e = 0; e < g->nedges; e++) {
        const struct dedge *d = &g->edges[e];
        int64_t l = g->rlinks[d->off];
        if (d->len == 1 && g->link_from[l] < 0) g->link_from[l] = d->from, g->link_to[l] = d->to;
    }
}

static void graph_destroy(struct topology *t) {
    struct graph *g = t->priv;
    if (!g) return;
    for (int64_t i = 0; g->vnames && i < g->nv; i++)
        free(g->vnames[i]);
    for (int64_t i = 0; g->lnames && i < g->nl; i++)
        free(g->lnames[i]);
    free(g->vnames);
    free(g->lnames);
    free(g->vsorted);
    free(g->lsorted);
    free(g->rlinks);
    free(g->edges);
    free(g->table);
    free(g->length);
    free(g->link_from);
    free(g->link_to);
    free(g);
    t->priv = NULL;
}

static bool graph_init(struct topology *t, const struct conf_node *map, struct sim_error *err) {
    struct graph *g = xcalloc(1, sizeof *g);
    t->priv = g;
    if (!read_vertices(t, g, map, err) || !read_links(t, g, map, err) || !read_routes(g, map, err))
        return false;
    bool ok =
        g->shortest ? shortest_tables(g, t->nodes, map, err) : full_table(g, t->nodes, map, err);
    if (ok) link_ends_table(g);
    return ok;
}

/* Appends edge e's links to out (backwards when the edge is a route used
 * the other way); returns how many. */
static int edge_links(const struct graph *g, int32_t e, int64_t *out) {
    const struct dedge *d = &g->edges[e];
    for (int i = 0; i < d->len; i++)
        out[i] = g->rlinks[d->off + (d->rev ? d->len - 1 - i : i)];
    return d->len;
}

static int graph_route(struct topology *t, int64_t a, int64_t b, int64_t *out) {
    const struct graph *g = t->priv;
    if (!g->shortest) return edge_links(g, g->table[a * t->nodes + b], out);
    const int32_t *into = &g->table[a * g->nv];
    int n = g->length[a * g->nv + b];
    int at = n;
    for (int64_t v = b; v != a;) { /* from the end: each edge's links before the last ones */
        const struct dedge *d = &g->edges[into[v]];
        at -= d->len;
        edge_links(g, into[v], out + at);
        v = d->from;
    }
    return n;
}

static int32_t graph_distance(struct topology *t, int64_t a, int64_t b) {
    const struct graph *g = t->priv;
    if (g->shortest) return g->length[a * g->nv + b];
    return g->edges[g->table[a * t->nodes + b]].len;
}

static bool graph_link_ends(const struct topology *t, int64_t link, int64_t *from, int64_t *to) {
    const struct graph *g = t->priv;
    *from = g->link_from[link];
    *to = g->link_to[link];
    return true;
}

static int graph_link_class(const struct topology *t, int64_t link) {
    (void)t;
    return (int)link;
}

static void graph_coords(const struct topology *t, int64_t node, char *buf, size_t len) {
    const struct graph *g = t->priv;
    snprintf(buf, len, "%s", g->vnames[node]);
}

static const char *const graph_keys[] = {"hosts", "routers", "links", "routing", "routes", NULL};

const struct topo_ops topo_graph = {"graph",       graph_init,      graph_distance,
                                    graph_route,   graph_link_ends, graph_link_class,
                                    graph_destroy, graph_keys,      graph_coords};
