/* SPDX-License-Identifier: BSD-3-Clause */
/* tree and fat_tree, both as extended generalized fat trees (XGFT, Ohring
 * et al.): XGFT(h; m1..mh; w1..wh) has the nodes at level 0; each vertex of
 * level l >= 1 has m_l children and each vertex of level l-1 has w_l
 * parents. `fat_tree` takes `levels: h`, `down: [m1..mh]`, `up: [w1..wh]`,
 * or `arity: k` for the k-ary n-tree (m_l = k, w_1 = 1, w_l = k above);
 * `tree` is the k-ary tree of `arity: k` and `levels: h` (all w_l = 1).
 *
 * Labels: a level-l vertex has digits x_{l+1}..x_h (x_i < m_i, which
 * subtree) and y_1..y_l (y_i < w_i, which of the parallel switches); its
 * index is Y + W_l * X with W_l = w_1 * .. * w_l, Y = y_1 + w_1 * (y_2 + ..)
 * and X = x_{l+1} + m_{l+1} * (x_{l+2} + ..). A node's number is its X.
 *
 * Two nodes whose highest differing digit is x_L are 2L hops apart: L up,
 * L down. Going up, the parent y_{l+1} = (destination / W_l) mod w_{l+1}
 * (destination-mod-k, so that messages to one node share the way down);
 * going down the way is unique. Links between levels l-1 and l are of
 * class "level<l>" (parameters network.level1, network.level2, ...).
 *   up links: from each vertex of level l < h to each of its parents,
 *   numbered by level, vertex index, then y; the down link of the same
 *   pair has the up link's number + (number of up links). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/alloc.h"
#include "net/topology.h"

struct xgft {
    int64_t count[TOPO_MAX_DIMS + 1];  /* vertices per level */
    int64_t offset[TOPO_MAX_DIMS + 1]; /* first vertex number of each level */
    int64_t upbase[TOPO_MAX_DIMS + 1]; /* first up link from each level */
    int64_t W[TOPO_MAX_DIMS + 1];      /* w_1 * .. * w_l */
    int64_t M[TOPO_MAX_DIMS + 1];      /* m_1 * .. * m_l */
    int64_t uplinks;
    char names[TOPO_MAX_DIMS][24];
};

static bool check_product(int64_t a, int64_t b, struct sim_error *err) {
    if (b > 0 && a > (INT64_C(1) << 40) / b)
        return err_set(err, "this fat tree is too large (more than 2^40 vertices or links)");
    return true;
}

static bool xgft_build(struct topology *t, struct sim_error *err) {
    struct xgft *g = xcalloc(1, sizeof *g);
    t->priv = g;
    int h = (int)t->levels;
    g->W[0] = g->M[0] = 1;
    for (int l = 1; l <= h; l++) {
        if (!check_product(g->W[l - 1], t->up[l - 1], err) ||
            !check_product(g->M[l - 1], t->down[l - 1], err))
            return false;
        g->W[l] = g->W[l - 1] * t->up[l - 1];
        g->M[l] = g->M[l - 1] * t->down[l - 1];
    }
    int64_t vertices = 0, links = 0;
    for (int l = 0; l <= h; l++) {
        g->count[l] = (g->M[h] / g->M[l]) * g->W[l];
        g->offset[l] = vertices;
        g->upbase[l] = links;
        if (!check_product(g->count[l], l < h ? t->up[l] : 1, err)) return false;
        vertices += g->count[l];
        if (l < h) links += g->count[l] * t->up[l];
    }
    g->uplinks = links;
    t->nodes = g->M[h];
    t->vertices = vertices;
    t->links = 2 * links;
    for (int l = 1; l <= h; l++) {
        snprintf(g->names[l - 1], sizeof g->names[l - 1], "level%d", l);
        topo_add_class(t, g->names[l - 1]);
    }
    return true;
}

static bool read_levels(struct topology *t, const struct conf_node *map, struct sim_error *err) {
    if (!conf_map_get(map, "levels"))
        return err_at(err, map->file, map->line, "the %s topology needs network.levels",
                      t->ops->name);
    return conf_get_int(map, "network", "levels", 1, TOPO_MAX_DIMS, &t->levels, err);
}

static bool tree_init(struct topology *t, const struct conf_node *map, struct sim_error *err) {
    if (!read_levels(t, map, err)) return false;
    if (!conf_map_get(map, "arity"))
        return err_at(err, map->file, map->line, "the tree topology needs network.arity");
    if (!conf_get_int(map, "network", "arity", 2, 1 << 20, &t->arity, err)) return false;
    for (int l = 0; l < t->levels; l++) {
        t->down[l] = t->arity;
        t->up[l] = 1;
    }
    return xgft_build(t, err);
}

static bool fat_tree_init(struct topology *t, const struct conf_node *map, struct sim_error *err) {
    if (!read_levels(t, map, err)) return false;
    int h = (int)t->levels;
    if (conf_map_get(map, "arity")) {
        if (!conf_get_int(map, "network", "arity", 2, 1 << 20, &t->arity, err)) return false;
        for (int l = 0; l < h; l++) {
            t->down[l] = t->arity;
            t->up[l] = l == 0 ? 1 : t->arity;
        }
    }
    int nd = topo_get_list(map, "down", 1, 1 << 20, t->down, TOPO_MAX_DIMS, err);
    int nu = nd < 0 ? -1 : topo_get_list(map, "up", 1, 1 << 20, t->up, TOPO_MAX_DIMS, err);
    if (nd < 0 || nu < 0) return false;
    if (!t->arity && (nd != h || nu != h))
        return err_at(err, map->file, map->line,
                      "the fat_tree topology needs arity: K (a K-ary n-tree), or down: and up: "
                      "lists of %d items (children and parents per level)",
                      h);
    if ((nd && nd != h) || (nu && nu != h))
        return err_at(err, map->file, map->line,
                      "network.down and network.up need one item per level (%d)", h);
    return xgft_build(t, err);
}

/* A node's digits x_h .. x_1: the subtree it is in at each level. */
static void xgft_coords(const struct topology *t, int64_t v, char *buf, size_t len) {
    int64_t x[TOPO_MAX_DIMS];
    for (int l = 0; l < t->levels; l++) {
        x[l] = v % t->down[l];
        v /= t->down[l];
    }
    size_t at = 0;
    for (int l = (int)t->levels - 1; l >= 0 && at < len; l--)
        at += (size_t)snprintf(buf + at, len - at, "%s%lld", l == t->levels - 1 ? "[" : ".",
                               (long long)x[l]);
    if (at < len) snprintf(buf + at, len - at, "]");
}

static void xgft_destroy(struct topology *t) {
    free(t->priv);
}

/* The highest level at which leaves a and b differ (0 when equal). */
static int split_level(const struct topology *t, int64_t a, int64_t b) {
    int L = 0;
    for (int l = 1; l <= t->levels; l++) {
        int64_t m = t->down[l - 1];
        if (a % m != b % m) L = l;
        a /= m;
        b /= m;
    }
    return L;
}

static int32_t xgft_distance(struct topology *t, int64_t a, int64_t b) {
    return 2 * split_level(t, a, b);
}

static int xgft_route(struct topology *t, int64_t a, int64_t b, int64_t *out) {
    const struct xgft *g = t->priv;
    int L = split_level(t, a, b), n = 0;
    int64_t X = a, Y = 0; /* current vertex at level l: index Y + W_l * X */
    for (int l = 0; l < L; l++) {
        int64_t w = t->up[l], y = (b / g->W[l]) % w;
        int64_t idx = Y + g->W[l] * X;
        out[n++] = g->upbase[l] + idx * w + y;
        X /= t->down[l];
        Y += g->W[l] * y;
    }
    int64_t bx[TOPO_MAX_DIMS + 1]; /* b's X at each level */
    bx[0] = b;
    for (int l = 1; l <= L; l++)
        bx[l] = bx[l - 1] / t->down[l - 1];
    for (int l = L; l > 0; l--) { /* from level l down to l-1 */
        int64_t cY = Y % g->W[l - 1], cX = bx[l - 1];
        int64_t y = Y / g->W[l - 1]; /* the parent's y_l: which parent the child uses */
        int64_t child = cY + g->W[l - 1] * cX;
        out[n++] = g->uplinks + g->upbase[l - 1] + child * t->up[l - 1] + y;
        Y = cY;
    }
    return n;
}

static bool xgft_link_ends(const struct topology *t, int64_t link, int64_t *from, int64_t *to) {
    const struct xgft *g = t->priv;
    bool down = link >= g->uplinks;
    int64_t up = down ? link - g->uplinks : link;
    int l = 0;
    while (l + 1 < t->levels && up >= g->upbase[l + 1])
        l++;
    int64_t rel = up - g->upbase[l], w = t->up[l];
    int64_t idx = rel / w, y = rel % w;
    int64_t X = idx / g->W[l], Y = idx % g->W[l];
    int64_t parent = (Y + g->W[l] * y) + g->W[l + 1] * (X / t->down[l]);
    int64_t lo = g->offset[l] + idx, hi = g->offset[l + 1] + parent;
    *from = down ? hi : lo;
    *to = down ? lo : hi;
    return true;
}

static int xgft_link_class(const struct topology *t, int64_t link) {
    const struct xgft *g = t->priv;
    int64_t up = link >= g->uplinks ? link - g->uplinks : link;
    int l = 0;
    while (l + 1 < t->levels && up >= g->upbase[l + 1])
        l++;
    return l;
}

static const char *const tree_keys[] = {"arity", "levels", NULL};
static const char *const fat_tree_keys[] = {"arity", "levels", "down", "up", NULL};

const struct topo_ops topo_tree = {"tree",       tree_init,      xgft_distance,
                                   xgft_route,   xgft_link_ends, xgft_link_class,
                                   xgft_destroy, tree_keys,      xgft_coords};
const struct topo_ops topo_fat_tree = {"fat_tree",   fat_tree_init,  xgft_distance,
                                       xgft_route,   xgft_link_ends, xgft_link_class,
                                       xgft_destroy, fat_tree_keys,  xgft_coords};
