/* SPDX-License-Identifier: BSD-3-Clause */
/* mesh, torus and twisted torus of any number of dimensions (`dims:
 * [8, 8, 4]`). Node coordinates: node = x0 + d0 * (x1 + d1 * (x2 + ...)),
 * dimension 0 varying fastest. Each node links to its neighbours at +-1 in
 * every dimension; a dimension that wraps (torus: `wrap: [1, 0, 1]`, all by
 * default; mesh: none) also links its last and first coordinates.
 *
 * Twisted torus (xSim's definition): crossing the wrap-around of dimension
 * d (from coordinate d_d-1 to 0, or back) also shifts dimension (d + t) mod
 * n by jump[d], in the direction of travel (+jump going up, -jump going
 * down), modulo that dimension's size; t is the toroidal degree (`twist`).
 *
 * Routes. Mesh and torus: dimension order (0 first), each dimension the
 * shorter way round, forward when both are as long. Twisted torus: a
 * shortest path found from a breadth-first table of the distances to the
 * destination (computed on first use, a few kept): from each node the first
 * link in the order (dimension 0 up, 0 down, 1 up, ...) that brings the
 * message one hop closer. Hop distances are exact in all three cases.
 *   link (v * n + d) * 2 + s: node v -> its neighbour in dimension d
 *   (s = 0 up, 1 down) */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/alloc.h"
#include "net/topology.h"

/* Breadth-first distance tables of a twisted torus, by destination. */
struct bfs_cache {
    int n, next;
    int64_t *dest;
    uint16_t **dist;
    int64_t *queue;
};

static bool grid_shape(struct topology *t, const struct conf_node *map, bool torus,
                       struct sim_error *err) {
    int n = topo_get_list(map, "dims", 1, INT32_MAX, t->dims, TOPO_MAX_DIMS, err);
    if (n < 0) return false;
    if (n == 0)
        return err_at(err, map->file, map->line,
                      "the %s topology needs network.dims, e.g. dims: [8, 8, 4]", t->ops->name);
    t->ndims = n;
    int64_t w[TOPO_MAX_DIMS];
    int nw = topo_get_list(map, "wrap", 0, 1, w, TOPO_MAX_DIMS, err);
    if (nw < 0) return false;
    if (nw > 0 && nw != n)
        return err_at(err, conf_map_get(map, "wrap")->file, conf_map_get(map, "wrap")->line,
                      "'network.wrap' has %d items for %d dimensions", nw, n);
    if (nw > 0 && !torus)
        return err_at(err, conf_map_get(map, "wrap")->file, conf_map_get(map, "wrap")->line,
                      "a mesh does not wrap: use topology: torus with wrap: [...]");
    t->nodes = 1;
    for (int d = 0; d < n; d++) {
        t->wrap[d] = (uint8_t)(nw ? w[d] : torus);
        if (t->nodes > INT64_MAX / 4 / TOPO_MAX_DIMS / t->dims[d])
            return err_set(err, "network.dims: too many nodes");
        t->nodes *= t->dims[d];
    }
    /* A bound of the diameter: half way round each wrapping dimension; in a
     * twisted torus, the route that never crosses a wrap-around (no twist). */
    int64_t longest = 0;
    bool twisted = t->ops == &topo_twisted_torus;
    for (int d = 0; d < n; d++)
        longest += t->wrap[d] && !twisted ? t->dims[d] / 2 : t->dims[d] - 1;
    if (longest > TOPO_MAX_HOPS)
        return err_set(err,
                       "this %s has routes of up to %lld hops; simpi follows routes of at most "
                       "%d hops (use more dimensions)",
                       t->ops->name, (long long)longest, TOPO_MAX_HOPS);
    t->vertices = t->nodes;
    t->links = t->nodes * n * 2;
    t->direct = true;
    topo_add_class(t, "link");
    return true;
}

static bool twisted_params(struct topology *t, const struct conf_node *map, struct sim_error *err) {
    int64_t tw = 1;
    if (conf_map_get(map, "twist") &&
        !conf_get_int(map, "network", "twist", 1, TOPO_MAX_DIMS - 1, &tw, err))
        return false;
    t->twist = (int)tw;
    if (t->twist >= t->ndims)
        return err_at(err, conf_map_get(map, "twist")->file, conf_map_get(map, "twist")->line,
                      "'network.twist': the toroidal degree must be below the number of "
                      "dimensions (%d)",
                      t->ndims);
    int nj = topo_get_list(map, "jump", 0, INT32_MAX, t->jump, TOPO_MAX_DIMS, err);
    if (nj < 0) return false;
    const struct conf_node *jn = conf_map_get(map, "jump");
    if (nj != t->ndims)
        return err_at(err, jn ? jn->file : map->file, jn ? jn->line : map->line,
                      "the twisted_torus topology needs network.jump with one shift per "
                      "dimension (%d)",
                      t->ndims);
    for (int d = 0; d < t->ndims; d++) {
        int target = (d + t->twist) % t->ndims;
        if (t->jump[d] >= t->dims[target])
            return err_at(err, jn->file, jn->line,
                          "'network.jump[%d]' = %lld shifts dimension %d, whose size is %lld: "
                          "give a shift below the size",
                          d, (long long)t->jump[d], target, (long long)t->dims[target]);
        if (t->jump[d] && !t->wrap[d])
            return err_at(err, jn->file, jn->line,
                          "'network.jump[%d]': dimension %d does not wrap, so it cannot twist", d,
                          d);
    }
    return true;
}

static void coords(const struct topology *t, int64_t v, int64_t *x) {
    for (int d = 0; d < t->ndims; d++) {
        x[d] = v % t->dims[d];
        v /= t->dims[d];
    }
}

static void grid_coords(const struct topology *t, int64_t v, char *buf, size_t len) {
    int64_t x[TOPO_MAX_DIMS];
    coords(t, v, x);
    size_t at = 0;
    for (int d = 0; d < t->ndims && at < len; d++)
        at += (size_t)snprintf(buf + at, len - at, "%s%lld", d ? ", " : "(", (long long)x[d]);
    if (at < len) snprintf(buf + at, len - at, ")");
}

static int64_t index_of(const struct topology *t, const int64_t *x) {
    int64_t v = 0;
    for (int d = t->ndims - 1; d >= 0; d--)
        v = v * t->dims[d] + x[d];
    return v;
}

/* The neighbour of v across link (d, s), or -1 when there is no link. */
static int64_t neighbour(const struct topology *t, int64_t v, int d, int s) {
    int64_t x[TOPO_MAX_DIMS];
    int64_t k = t->dims[d];
    if (k < 2) return -1;
    coords(t, v, x);
    int64_t step = s ? -1 : 1;
    int64_t y = x[d] + step;
    if (y < 0 || y >= k) {
        if (!t->wrap[d]) return -1;
        y = (y + k) % k;
        if (t->twist && t->jump[d]) {
            int e = (d + t->twist) % t->ndims;
            x[e] = ((x[e] + step * t->jump[d]) % t->dims[e] + t->dims[e]) % t->dims[e];
        }
    }
    x[d] = y;
    return index_of(t, x);
}

static bool grid_link_ends(const struct topology *t, int64_t link, int64_t *from, int64_t *to) {
    int64_t v = link / (2 * t->ndims);
    int d = (int)(link / 2 % t->ndims), s = (int)(link % 2);
    *from = v;
    *to = neighbour(t, v, d, s);
    return *to >= 0;
}

static int64_t link_id(const struct topology *t, int64_t v, int d, int s) {
    return (v * t->ndims + d) * 2 + s;
}

/* Per dimension: hops and direction (0 up, 1 down) from coordinate a to b. */
static int64_t dim_hops(const struct topology *t, int d, int64_t a, int64_t b, int *s) {
    int64_t k = t->dims[d], f = ((b - a) % k + k) % k;
    if (!t->wrap[d]) {
        *s = b < a;
        return b < a ? a - b : b - a;
    }
    *s = k - f < f;
    return *s ? k - f : f;
}

static int32_t torus_distance(struct topology *t, int64_t a, int64_t b) {
    int64_t xa[TOPO_MAX_DIMS], xb[TOPO_MAX_DIMS], h = 0;
    coords(t, a, xa);
    coords(t, b, xb);
    for (int d = 0; d < t->ndims; d++) {
        int s;
        h += dim_hops(t, d, xa[d], xb[d], &s);
    }
    return (int32_t)h;
}

static int torus_route(struct topology *t, int64_t a, int64_t b, int64_t *out) {
    int64_t xa[TOPO_MAX_DIMS], xb[TOPO_MAX_DIMS];
    coords(t, a, xa);
    coords(t, b, xb);
    int n = 0;
    int64_t v = a;
    for (int d = 0; d < t->ndims; d++) {
        int s;
        int64_t h = dim_hops(t, d, xa[d], xb[d], &s);
        for (int64_t i = 0; i < h && n < TOPO_MAX_HOPS; i++) {
            out[n++] = link_id(t, v, d, s);
            v = neighbour(t, v, d, s);
        }
    }
    return n;
}

static bool mesh_init(struct topology *t, const struct conf_node *map, struct sim_error *err) {
    return grid_shape(t, map, false, err);
}

static bool torus_init(struct topology *t, const struct conf_node *map, struct sim_error *err) {
    return grid_shape(t, map, true, err);
}

/* --- twisted torus: breadth-first distance tables --- */

static bool twisted_init(struct topology *t, const struct conf_node *map, struct sim_error *err) {
    if (!grid_shape(t, map, true, err) || !twisted_params(t, map, err)) return false;
    if (t->nodes > (INT64_C(1) << 26))
        return err_set(err, "the twisted_torus topology has at most 2^26 nodes (its distance "
                            "tables take 2 bytes per node)");
    struct bfs_cache *c = xcalloc(1, sizeof *c);
    int64_t budget = (INT64_C(64) << 20) / (t->nodes * 2);
    c->n = budget < 2 ? 2 : budget > 64 ? 64 : (int)budget;
    c->dest = xcalloc((size_t)c->n, sizeof *c->dest);
    c->dist = xcalloc((size_t)c->n, sizeof *c->dist);
    for (int i = 0; i < c->n; i++)
        c->dest[i] = -1;
    t->priv = c;
    return true;
}

static void twisted_destroy(struct topology *t) {
    struct bfs_cache *c = t->priv;
    if (!c) return;
    for (int i = 0; i < c->n; i++)
        free(c->dist[i]);
    free(c->dist);
    free(c->dest);
    free(c->queue);
    free(c);
}

static void bfs_fill(struct topology *t, struct bfs_cache *c, uint16_t *dist, int64_t dest) {
    if (!c->queue) c->queue = xmalloc(sizeof *c->queue * (size_t)t->nodes);
    memset(dist, 0xff, sizeof *dist * (size_t)t->nodes);
    int64_t head = 0, tail = 0;
    dist[dest] = 0;
    c->queue[tail++] = dest;
    while (head < tail) {
        int64_t v = c->queue[head++];
        for (int d = 0; d < t->ndims; d++)
            for (int s = 0; s < 2; s++) {
                int64_t w = neighbour(t, v, d, s); /* links come in inverse pairs */
                if (w >= 0 && dist[w] == UINT16_MAX) {
                    dist[w] = (uint16_t)(dist[v] + 1);
                    c->queue[tail++] = w;
                }
            }
    }
}

/* The distances of every node to dest. */
static const uint16_t *table_to(struct topology *t, int64_t dest) {
    struct bfs_cache *c = t->priv;
    for (int i = 0; i < c->n; i++)
        if (c->dest[i] == dest) return c->dist[i];
    int slot = c->next;
    c->next = (c->next + 1) % c->n;
    if (!c->dist[slot]) c->dist[slot] = xmalloc(sizeof(uint16_t) * (size_t)t->nodes);
    c->dest[slot] = dest;
    bfs_fill(t, c, c->dist[slot], dest);
    return c->dist[slot];
}

static int32_t twisted_distance(struct topology *t, int64_t a, int64_t b) {
    return table_to(t, b)[a];
}

static int twisted_route(struct topology *t, int64_t a, int64_t b, int64_t *out) {
    const uint16_t *dist = table_to(t, b);
    int n = 0;
    for (int64_t v = a; v != b && v >= 0 && n < TOPO_MAX_HOPS;) {
        int64_t next = -1;
        for (int d = 0; d < t->ndims && next < 0; d++)
            for (int s = 0; s < 2 && next < 0; s++) {
                int64_t w = neighbour(t, v, d, s);
                if (w >= 0 && dist[w] + 1 == dist[v]) {
                    out[n++] = link_id(t, v, d, s);
                    next = w;
                }
            }
        v = next;
    }
    return n;
}

static const char *const mesh_keys[] = {"dims", NULL};
static const char *const torus_keys[] = {"dims", "wrap", NULL};
static const char *const twisted_keys[] = {"dims", "wrap", "twist", "jump", NULL};

const struct topo_ops topo_mesh = {"mesh", mesh_init, torus_distance, torus_route, grid_link_ends,
                                   NULL,   NULL,      mesh_keys,      grid_coords};
const struct topo_ops topo_torus = {"torus",     torus_init,     torus_distance,
                                    torus_route, grid_link_ends, NULL,
                                    NULL,        torus_keys,     grid_coords};
const struct topo_ops topo_twisted_torus = {"twisted_torus", twisted_init,   twisted_distance,
                                            twisted_route,   grid_link_ends, NULL,
                                            twisted_destroy, twisted_keys,   grid_coords};
