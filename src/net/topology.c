/* SPDX-License-Identifier: BSD-3-Clause */
/* The topology registry and what all topologies share: the `network:` map's
 * common keys, link classes and their parameters. */
#include "net/topology.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/alloc.h"
#include "platform/keys.h"

static const struct topo_ops *const all_topologies[] = {
    &topo_flat,          &topo_star, &topo_full,     &topo_ring,      &topo_mesh,  &topo_torus,
    &topo_twisted_torus, &topo_tree, &topo_fat_tree, &topo_dragonfly, &topo_graph,
};
#define NTOPOLOGIES (sizeof all_topologies / sizeof all_topologies[0])

int topo_get_list(const struct conf_node *map, const char *key, int64_t min, int64_t max,
                  int64_t *out, int maxn, struct sim_error *err) {
    const struct conf_node *seq = conf_map_get(map, key);
    if (!seq) return 0;
    if (seq->kind != CONF_SEQ || seq->count == 0 || seq->count > maxn) {
        err_at(err, seq->file, seq->line, "'network.%s': expected a list of 1 to %d integers", key,
               maxn);
        return -1;
    }
    for (int i = 0; i < seq->count; i++) {
        const struct conf_node *item = seq->items[i];
        char *end = NULL;
        long long v = item->kind == CONF_SCALAR ? strtoll(item->value, &end, 10) : 0;
        if (!end || end == item->value || *end || v < min || v > max) {
            err_at(err, item->file, item->line,
                   "'network.%s[%d]': found '%s', expected an integer from %lld to %lld", key, i,
                   item->kind == CONF_SCALAR ? item->value : "a list or map", (long long)min,
                   (long long)max);
            return -1;
        }
        out[i] = v;
    }
    return seq->count;
}

int topo_add_class(struct topology *t, const char *name) {
    if (t->nclasses == t->class_cap) {
        t->class_cap = t->class_cap ? 2 * t->class_cap : 8;
        t->class_names =
            xrealloc_or_die(t->class_names, sizeof *t->class_names * (size_t)t->class_cap);
        t->cls = xrealloc_or_die(t->cls, sizeof *t->cls * (size_t)t->class_cap);
    }
    t->class_names[t->nclasses] = name;
    t->cls[t->nclasses] = (struct link_params){0};
    return t->nclasses++;
}

bool topo_read_link_params(const struct conf_node *m, const char *path, struct link_params *p,
                           struct sim_error *err) {
    if (conf_map_get(m, "latency") && !conf_get_time(m, path, "latency", &p->latency, err))
        return false;
    return !conf_map_get(m, "bandwidth") ||
           conf_get_bandwidth(m, path, "bandwidth", &p->bandwidth, err);
}

static bool read_class(struct topology *t, const struct conf_node *net, int c,
                       const struct link_params *def, struct sim_error *err) {
    t->cls[c] = *def;
    if (!strcmp(t->class_names[c], "nic") || !strcmp(t->class_names[c], "backbone"))
        t->cls[c].latency = 0; /* they add no hop */
    const struct conf_node *m = net ? conf_map_get(net, t->class_names[c]) : NULL;
    if (!m) return true;
    char path[64];
    snprintf(path, sizeof path, "network.%s", t->class_names[c]);
    if (m->kind != CONF_MAP)
        return err_at(err, m->file, m->line,
                      "'%s': expected a map {latency: TIME, bandwidth: RATE}", path);
    static const char *const keys[] = {"latency", "bandwidth", NULL};
    return conf_check_keys(m, path, keys, err) && topo_read_link_params(m, path, &t->cls[c], err);
}

/* Every key of network: must be common or a class of this topology. */
static bool check_network_keys(const struct topology *t, const struct conf_node *net,
                               struct sim_error *err) {
    /* the keys every topology takes (platform/keys.c), its shape's, its
     * link classes */
    const char *allowed[64 + TOPO_MAX_CLASSES];
    int n = platform_key_children("network", allowed, 32);
    for (const char *const *k = t->ops->keys; *k; k++)
        allowed[n++] = *k;
    for (int c = 0; !t->own_params && c < t->nclasses; c++)
        allowed[n++] = t->class_names[c];
    allowed[n] = NULL;
    return conf_check_keys(net, "network", allowed, err);
}

bool topo_link_defaults(const struct conf_node *net, struct link_params *def,
                        struct sim_error *err) {
    *def = (struct link_params){0};
    def->latency = simtime_to_seconds(platform_key_default_time("network.link_latency"));
    def->bandwidth = platform_key_default_bandwidth("network.link_bandwidth");
    if (net && conf_map_get(net, "link_latency") &&
        !conf_get_time(net, "network", "link_latency", &def->latency, err))
        return false;
    if (net && conf_map_get(net, "link_bandwidth") &&
        !conf_get_bandwidth(net, "network", "link_bandwidth", &def->bandwidth, err))
        return false;
    return true;
}

static const struct topo_ops *find_topology(const struct conf_node *net, struct sim_error *err) {
    const struct conf_node *tn = net ? conf_map_get(net, "topology") : NULL;
    if (!tn) return &topo_flat;
    const char *name = conf_get_scalar(net, "network", "topology", err);
    if (!name) return NULL;
    const char *names[NTOPOLOGIES + 1] = {NULL};
    for (size_t i = 0; i < NTOPOLOGIES; i++)
        names[i] = all_topologies[i]->name;
    int i = conf_name_find(name, names);
    if (i >= 0) return all_topologies[i];
    char why[768];
    conf_name_expected(name, names, why, sizeof why);
    err_at(err, tn->file, tn->line, "'network.topology': %s", why);
    return NULL;
}

bool topology_init(struct topology *t, const struct conf_node *net, int64_t nodes_wanted,
                   struct sim_error *err) {
    memset(t, 0, sizeof *t);
    if (net && net->kind != CONF_MAP)
        return err_at(err, net->file, net->line, "'network': expected a map");
    t->ops = find_topology(net, err);
    if (!t->ops) return false;
    t->nodes = nodes_wanted;
    static const struct conf_node empty = {.kind = CONF_MAP};
    if (!t->ops->init(t, net ? net : &empty, err)) {
        topology_destroy(t);
        return false;
    }
    if (t->direct) topo_add_class(t, "nic");
    struct link_params def;
    bool ok = (!net || check_network_keys(t, net, err)) && topo_link_defaults(net, &def, err);
    for (int c = 0; ok && !t->own_params && c < t->nclasses; c++)
        ok = read_class(t, net, c, &def, err);
    if (ok && t->nodes > INT32_MAX) {
        const struct conf_node *tn = conf_map_get(net, "topology");
        ok = err_at(err, tn->file, tn->line,
                    "the %s topology has %lld nodes; simpi simulates at most %d nodes",
                    t->ops->name, (long long)t->nodes, INT32_MAX);
    }
    if (ok && nodes_wanted > 0 && t->ops != &topo_flat && nodes_wanted != t->nodes) {
        const struct conf_node *tn = conf_map_get(net, "topology");
        ok = err_at(err, tn->file, tn->line,
                    "the %s topology has %lld nodes but the platform says nodes: %lld (leave "
                    "nodes: out or set it to auto to take the topology's)",
                    t->ops->name, (long long)t->nodes, (long long)nodes_wanted);
    }
    if (!ok) topology_destroy(t);
    return ok;
}

void topology_destroy(struct topology *t) {
    if (t->ops && t->ops->destroy) t->ops->destroy(t);
    t->priv = NULL;
    free(t->class_names);
    free(t->cls);
    t->class_names = NULL;
    t->cls = NULL;
    t->nclasses = t->class_cap = 0;
}

bool topology_is_flat(const struct topology *t) {
    return t->ops == &topo_flat;
}

int64_t topology_group_size(const struct topology *t) {
    if (t->ops == &topo_dragonfly) return t->routers * t->per_router;
    if (t->ops == &topo_fat_tree || t->ops == &topo_tree) return t->down[0]; /* a leaf switch */
    return 0;
}

int32_t topology_distance(struct topology *t, int64_t a, int64_t b) {
    return a == b ? 0 : t->ops->distance(t, a, b);
}

int topology_route(struct topology *t, int64_t a, int64_t b, int64_t *out) {
    return a == b ? 0 : t->ops->route(t, a, b, out);
}

bool topology_link_ends(const struct topology *t, int64_t link, int64_t *from, int64_t *to) {
    return link >= 0 && link < t->links && t->ops->link_ends(t, link, from, to);
}

int topology_link_class(const struct topology *t, int64_t link) {
    return t->ops->link_class ? t->ops->link_class(t, link) : 0;
}

bool topo_need_nodes(const struct topology *t, struct sim_error *err) {
    if (t->nodes >= 1) return true;
    return err_set(err, "the %s topology takes its size from the platform: set nodes: to a number",
                   t->ops->name);
}

void topology_coords(const struct topology *t, int64_t node, char *buf, size_t len) {
    if (t->ops->coords)
        t->ops->coords(t, node, buf, len);
    else
        snprintf(buf, len, "node %lld", (long long)node);
}
