/* SPDX-License-Identifier: BSD-3-Clause */
/* Faults of the platform: the `faults:` list read and checked against the
 * topology, the pending faults in time order (given ones, repairs, and the
 * next draw of each random entry), what is down now, and the shortest
 * route over what is up (breadth-first over the topology's links, built
 * into adjacency lists at the first need). docs/faults.md. */
#include "net/faults.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/alloc.h"
#include "core/heap.h"
#include "core/units.h"
#include "net/topology.h"
#include "platform/keys.h"

static bool event_before(const void *pa, const void *pb) {
    const struct fault_event *a = pa, *b = pb;
    return a->at != b->at ? a->at < b->at : a->order < b->order;
}

static void push_event(struct net_faults *f, struct fault_event e) {
    e.order = f->made++;
    heap_push(f->pending, &e);
}

/* --- random draws: splitmix64 to seed, xorshift64* to draw --- */

static uint64_t mix64(uint64_t z) {
    z += 0x9e3779b97f4a7c15ull;
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
    return z ^ (z >> 31);
}

static uint64_t draw64(uint64_t *state) {
    uint64_t x = *state;
    x ^= x >> 12;
    x ^= x << 25;
    x ^= x >> 27;
    *state = x;
    return x * 0x2545f4914f6cdd1dull;
}

/* A uniform number in (0, 1]. */
static double draw_unit(uint64_t *state) {
    return ((double)(draw64(state) >> 11) + 1.0) / 9007199254740992.0;
}

static void schedule_draw(struct net_faults *f, int idx, simtime_t now) {
    struct fault_random *r = &f->rnd[idx];
    simtime_t wait = simtime_from_seconds(-log(draw_unit(&r->rng)) / r->rate);
    if (wait == SIMTIME_NEVER) return;
    simtime_t at = simtime_add(now, wait + 1); /* strictly later */
    if (at == SIMTIME_NEVER) return;           /* beyond the largest time: no more */
    push_event(f, (struct fault_event){.at = at, .entry = idx, .what = FAULT_DRAW});
}

/* --- the topology's links, by vertex --- */

static void build_adjacency(struct net_faults *f) {
    if (f->adj_start || !f->topo) return;
    const struct topology *t = f->topo;
    int64_t v = f->vertices, from, to;
    f->adj_start = xcalloc((size_t)v + 1, sizeof *f->adj_start);
    for (int64_t l = 0; l < t->links; l++)
        if (topology_link_ends(t, l, &from, &to)) f->adj_start[from + 1]++;
    for (int64_t i = 0; i < v; i++)
        f->adj_start[i + 1] += f->adj_start[i];
    size_t room = (size_t)(f->adj_start[v] ? f->adj_start[v] : 1);
    f->adj_link = xmalloc(sizeof *f->adj_link * room);
    f->adj_to = xmalloc(sizeof *f->adj_to * room);
    int64_t *fill = xmalloc(sizeof *fill * (size_t)v);
    memcpy(fill, f->adj_start, sizeof *fill * (size_t)v);
    for (int64_t l = 0; l < t->links; l++)
        if (topology_link_ends(t, l, &from, &to)) {
            f->adj_to[fill[from]] = to;
            f->adj_link[fill[from]++] = l;
        }
    free(fill);
    f->prev_link = xmalloc(sizeof *f->prev_link * (size_t)v);
    f->prev_vertex = xmalloc(sizeof *f->prev_vertex * (size_t)v);
    f->queue = xmalloc(sizeof *f->queue * (size_t)v);
    f->seen = xcalloc((size_t)v, sizeof *f->seen);
}

static int64_t link_to(const struct net_faults *f, int64_t link) {
    int64_t from, to;
    return topology_link_ends(f->topo, link, &from, &to) ? to : -1;
}

/* Whether a link joins a and b (either way). */
static bool links_join(struct net_faults *f, int64_t a, int64_t b) {
    build_adjacency(f);
    for (int64_t i = f->adj_start[a]; i < f->adj_start[a + 1]; i++)
        if (f->adj_to[i] == b) return true;
    return false;
}

/* --- reading the faults: list --- */

/* A time that is not negative (the unit parser says the rest). */
static bool read_time(const struct conf_node *m, const char *path, const char *key, simtime_t *out,
                      struct sim_error *err) {
    const struct conf_node *v = conf_map_get(m, key);
    if (v && v->kind == CONF_SCALAR && v->value[0] == '-')
        return err_at(err, v->file, v->line,
                      "'%s.%s': found '%s': a fault's time cannot be negative", path, key,
                      v->value);
    double sec;
    if (!conf_get_time(m, path, key, &sec, err)) return false;
    *out = simtime_from_seconds(sec);
    return true;
}

/* A vertex: a number, or "node N" / "switch N" as `simpi topo --route`
 * prints them. */
static bool read_vertex(const struct net_faults *f, const struct conf_node *v, const char *what,
                        int64_t *out, struct sim_error *err) {
    if (v->kind != CONF_SCALAR)
        return err_at(err, v->file, v->line, "'%s': expected a node or switch number", what);
    const char *s = v->value;
    bool node = !strncmp(s, "node ", 5), sw = !strncmp(s, "switch ", 7);
    const char *num = node ? s + 5 : sw ? s + 7 : s;
    char *end;
    long long n = strtoll(num, &end, 10);
    if (end == num || *end || n < 0 || n >= f->vertices)
        return err_at(err, v->file, v->line,
                      "'%s': found '%s', expected a vertex of the topology: a node 0..%lld%s "
                      "(numbers as simpi topo --route prints them)",
                      what, s, (long long)f->nodes - 1,
                      f->vertices > f->nodes ? " or a switch" : "");
    if ((node && n >= f->nodes) || (sw && n < f->nodes))
        return err_at(err, v->file, v->line, "'%s': %s is a %s of this topology", what, s,
                      n < f->nodes ? "node" : "switch");
    *out = n;
    return true;
}

static bool read_node(const struct net_faults *f, const struct conf_node *m, const char *path,
                      int64_t *out, struct sim_error *err) {
    const struct conf_node *v = conf_map_get(m, "node");
    if (!v) return err_at(err, m->file, m->line, "'%s': a crash names its node (node: N)", path);
    char what[96];
    snprintf(what, sizeof what, "%s.node", path);
    if (!read_vertex(f, v, what, out, err)) return false;
    if (*out >= f->nodes)
        return err_at(err, v->file, v->line, "'%s': %lld is a switch, not a node", what,
                      (long long)*out);
    return true;
}

static bool read_link(struct net_faults *f, const struct conf_node *m, const char *path, int64_t *a,
                      int64_t *b, struct sim_error *err) {
    const struct conf_node *v = conf_map_get(m, "link");
    char what[96];
    snprintf(what, sizeof what, "%s.link", path);
    if (!f->vertices || !f->topo->links)
        return err_at(err, v->file, v->line,
                      "'%s': the flat network (inter:) has no links to fail; choose a topology "
                      "(network.topology) or crash a node",
                      what);
    if (v->kind != CONF_SEQ || v->count != 2)
        return err_at(err, v->file, v->line,
                      "'%s': expected the link's two ends, e.g. [3, 4] or [node 0, switch 16]",
                      what);
    if (!read_vertex(f, v->items[0], what, a, err) || !read_vertex(f, v->items[1], what, b, err))
        return false;
    if (!links_join(f, *a, *b) && !links_join(f, *b, *a))
        return err_at(err, v->file, v->line,
                      "'%s': no link joins %lld and %lld in this topology (simpi topo --route "
                      "shows the links a route crosses)",
                      what, (long long)*a, (long long)*b);
    return true;
}

static bool read_switch(struct net_faults *f, const struct conf_node *m, const char *path,
                        int64_t *out, struct sim_error *err) {
    const struct conf_node *v = conf_map_get(m, "switch");
    char what[96];
    snprintf(what, sizeof what, "%s.switch", path);
    if (!read_vertex(f, v, what, out, err)) return false;
    if (*out < f->nodes)
        return err_at(err, v->file, v->line,
                      "'%s': %lld is a node; a node crashes (kind: crash, node: N)", what,
                      (long long)*out);
    return true;
}

/* kind: down, with link: or switch:, at:, and until: after at. */
static bool read_down(struct net_faults *f, const struct conf_node *m, const char *path, int idx,
                      struct sim_error *err) {
    struct fault_event e = {.entry = idx};
    bool link = conf_map_get(m, "link") != NULL, sw = conf_map_get(m, "switch") != NULL;
    if (link == sw)
        return err_at(err, m->file, m->line,
                      "'%s': kind: down names one link: [A, B] or one switch: N", path);
    if (link ? !read_link(f, m, path, &e.a, &e.b, err) : !read_switch(f, m, path, &e.a, err))
        return false;
    if (!read_time(m, path, "at", &e.at, err)) return false;
    e.what = link ? FAULT_LINK_DOWN : FAULT_SWITCH_DOWN;
    push_event(f, e);
    if (!conf_map_get(m, "until")) return true;
    const struct conf_node *u = conf_map_get(m, "until");
    simtime_t until;
    if (!read_time(m, path, "until", &until, err)) return false;
    if (until <= e.at)
        return err_at(err, u->file, u->line,
                      "'%s.until': %s is not after at: (the repair comes after the failure)", path,
                      u->value);
    e.at = until;
    e.what = link ? FAULT_LINK_UP : FAULT_SWITCH_UP;
    push_event(f, e);
    return true;
}

static bool read_crash(struct net_faults *f, const struct conf_node *m, const char *path, int idx,
                       struct sim_error *err) {
    struct fault_event e = {.entry = idx, .what = FAULT_CRASH};
    const struct conf_node *u = conf_map_get(m, "until");
    if (u)
        return err_at(err, u->file, u->line,
                      "'%s.until': a crashed node's ranks do not come back (MPI has no restart); "
                      "until: belongs to kind: down",
                      path);
    if (!read_node(f, m, path, &e.a, err) || !read_time(m, path, "at", &e.at, err)) return false;
    push_event(f, e);
    return true;
}

static void collect_pairs(struct net_faults *f) {
    build_adjacency(f);
    int64_t from, to;
    f->pairs = xmalloc(sizeof *f->pairs * (size_t)(f->topo->links ? f->topo->links : 1));
    for (int64_t l = 0; l < f->topo->links; l++)
        if (topology_link_ends(f->topo, l, &from, &to) && (from < to || !links_join(f, to, from)))
            f->pairs[f->npairs++] = l;
}

static bool read_mtbf(struct net_faults *f, const struct conf_node *m, const char *path,
                      struct fault_random *r, struct sim_error *err) {
    const struct conf_node *each = conf_map_get(m, "mtbf"), *all = conf_map_get(m, "system_mtbf");
    if (!each == !all)
        return err_at(err, m->file, m->line,
                      "'%s': kind: random needs one of mtbf: (each element's mean time between "
                      "failures) or system_mtbf: (the whole set's)",
                      path);
    const struct conf_node *v = each ? each : all;
    double sec;
    const char *why;
    if (v->kind != CONF_SCALAR || !units_parse_seconds(v->value, &sec, &why) || sec <= 0)
        return err_at(err, v->file, v->line,
                      "'%s.%s': found '%s', expected a positive time (e.g. 10h)", path,
                      each ? "mtbf" : "system_mtbf", v->kind == CONF_SCALAR ? v->value : "a map");
    r->rate = each ? (double)r->elements / sec : 1.0 / sec;
    if (r->rate > 1e9) /* the draws would outnumber any run's events */
        return err_at(err, v->file, v->line,
                      "'%s.%s': %s over %lld element%s is more than one failure per nanosecond",
                      path, each ? "mtbf" : "system_mtbf", v->value, (long long)r->elements,
                      r->elements == 1 ? "" : "s");
    (void)f;
    return true;
}

static bool read_random(struct net_faults *f, const struct conf_node *m, const char *path,
                        uint64_t run_seed, struct sim_error *err) {
    struct fault_random r = {.entry = (int32_t)f->nrnd};
    static const char *const targets[] = {"nodes", "links", NULL};
    int links = -1;
    if (!conf_get_enum(m, path, "target", targets, &links, err)) return false;
    if (links < 0) return err_at(err, m->file, m->line, "'%s': missing key 'target'", path);
    r.links = links == 1;
    const char *target = targets[links];
    if (r.links && (!f->vertices || !f->topo->links))
        return err_at(err, m->file, m->line,
                      "'%s': the flat network (inter:) has no links to fail; choose a topology "
                      "(network.topology)",
                      path);
    if (r.links && !f->pairs) collect_pairs(f);
    r.elements = r.links ? f->npairs : f->nodes;
    if (r.elements == 0)
        return err_at(err, m->file, m->line, "'%s': the topology has no %s to fail", path, target);
    if (!read_mtbf(f, m, path, &r, err)) return false;
    const struct conf_node *rep = conf_map_get(m, "repair");
    if (rep && !r.links)
        return err_at(err, rep->file, rep->line,
                      "'%s.repair': a crashed node's ranks do not come back; repair: belongs to "
                      "target: links",
                      path);
    if (rep && !read_time(m, path, "repair", &r.repair, err)) return false;
    if (rep && r.repair == 0)
        return err_at(err, rep->file, rep->line, "'%s.repair': a repair takes some time", path);
    int64_t seed = 1;
    if (conf_map_get(m, "seed") && !conf_get_int(m, path, "seed", 0, INT64_MAX, &seed, err))
        return false;
    r.rng = mix64((uint64_t)seed ^ mix64(run_seed)) | 1;
    const struct conf_node *at = conf_map_get(m, "at");
    if (at)
        return err_at(err, at->file, at->line,
                      "'%s.at': a random entry's failures come from its mtbf, not at a time", path);
    f->rnd = xrealloc_or_die(f->rnd, sizeof *f->rnd * (size_t)(f->nrnd + 1));
    f->rnd[f->nrnd++] = r;
    schedule_draw(f, f->nrnd - 1, 0);
    return true;
}

static bool read_entry(struct net_faults *f, const struct conf_node *m, int idx, uint64_t run_seed,
                       struct sim_error *err) {
    char path[48];
    snprintf(path, sizeof path, "faults[%d]", idx);
    if (m->kind != CONF_MAP)
        return err_at(err, m->file, m->line,
                      "'%s': expected a map, e.g. {at: 1.5ms, node: 12, kind: crash}", path);
    const char *entry_keys[16]; /* as platform/keys.c declares them */
    platform_key_children("faults[]", entry_keys, 16);
    if (!conf_check_keys(m, path, entry_keys, err)) return false;
    static const char *const kinds[] = {"crash", "down", "random", NULL};
    int kind = -1;
    if (!conf_get_enum(m, path, "kind", kinds, &kind, err)) return false;
    if (kind == 0) return read_crash(f, m, path, idx, err);
    if (kind == 1) return read_down(f, m, path, idx, err);
    if (kind == 2) return read_random(f, m, path, run_seed, err);
    return err_at(err, m->file, m->line,
                  "'%s': missing key 'kind' (crash: a node, down: a link or switch, random)", path);
}

bool faults_init(struct net_faults *f, const struct conf_node *root, const struct topology *t,
                 int64_t nodes, struct sim_error *err) {
    memset(f, 0, sizeof *f);
    f->st.first = SIMTIME_NEVER;
    f->pending = xcalloc(1, sizeof *f->pending);
    heap_init(f->pending, sizeof(struct fault_event), event_before);
    const struct conf_node *list = conf_map_get(root, "faults");
    int64_t run_seed = 0;
    if (conf_map_get(root, "fault_seed") &&
        !conf_get_int(root, "", "fault_seed", 0, INT64_MAX, &run_seed, err))
        return false;
    if (!list) return true;
    if (list->kind != CONF_SEQ)
        return err_at(err, list->file, list->line,
                      "'faults': expected a list of faults, e.g. [{at: 1.5ms, node: 12, kind: "
                      "crash}]");
    f->configured = list->count > 0;
    f->topo = t;
    f->nodes = nodes;
    f->vertices = t->ops && !topology_is_flat(t) ? t->vertices : nodes;
    for (int i = 0; i < list->count; i++)
        if (!read_entry(f, list->items[i], i, (uint64_t)run_seed, err)) return false;
    f->vertex_down =
        xcalloc((size_t)(f->vertices > nodes ? f->vertices : nodes), sizeof *f->vertex_down);
    if (t->links > 0 && !topology_is_flat(t))
        f->link_down = xcalloc((size_t)t->links, sizeof *f->link_down);
    return true;
}

void faults_destroy(struct net_faults *f) {
    if (f->pending) heap_free(f->pending);
    free(f->pending);
    free(f->rnd);
    free(f->link_down);
    free(f->vertex_down);
    free(f->adj_start);
    free(f->adj_link);
    free(f->adj_to);
    free(f->prev_vertex);
    free(f->prev_link);
    free(f->queue);
    free(f->seen);
    free(f->pairs);
    memset(f, 0, sizeof *f);
}

simtime_t faults_next_time(const struct net_faults *f) {
    return f->pending && f->pending->n
               ? ((const struct fault_event *)(const void *)f->pending->v)->at
               : SIMTIME_NEVER;
}

/* --- applying faults --- */

static void hold_down(struct net_faults *f, uint16_t *count, int delta) {
    if (delta > 0 && (*count)++ == 0) f->down++;
    if (delta < 0 && *count > 0 && --*count == 0) f->down--;
}

static void set_links(struct net_faults *f, int64_t a, int64_t b, int delta) {
    build_adjacency(f);
    for (int side = 0; side < 2; side++) {
        int64_t from = side ? b : a, to = side ? a : b;
        for (int64_t i = f->adj_start[from]; i < f->adj_start[from + 1]; i++)
            if (f->adj_to[i] == to) hold_down(f, &f->link_down[f->adj_link[i]], delta);
    }
}

/* A random entry's failure: an element drawn; false if it is down. */
static bool draw_failure(struct net_faults *f, struct fault_event *e) {
    struct fault_random *r = &f->rnd[e->entry];
    int32_t idx = e->entry;
    schedule_draw(f, idx, e->at);
    int64_t pick = (int64_t)(draw64(&r->rng) % (uint64_t)r->elements);
    e->entry = r->entry;
    if (!r->links) {
        if (f->vertex_down[pick]) return false;
        e->what = FAULT_CRASH;
        e->a = pick;
        return true;
    }
    int64_t from, to;
    topology_link_ends(f->topo, f->pairs[pick], &from, &to);
    if (f->link_down[f->pairs[pick]]) return false;
    e->what = FAULT_LINK_DOWN;
    e->a = from;
    e->b = to;
    if (r->repair) {
        struct fault_event up = *e;
        up.what = FAULT_LINK_UP;
        up.at = simtime_add(e->at, r->repair);
        if (up.at != SIMTIME_NEVER) push_event(f, up);
    }
    return true;
}

bool faults_pop(struct net_faults *f, struct fault_event *out) {
    heap_pop(f->pending, out);
    if (out->what == FAULT_DRAW && !draw_failure(f, out)) return false;
    switch (out->what) {
    case FAULT_CRASH:
        hold_down(f, &f->vertex_down[out->a], 1);
        f->st.crashes++;
        break;
    case FAULT_LINK_DOWN:
    case FAULT_LINK_UP:
        set_links(f, out->a, out->b, out->what == FAULT_LINK_DOWN ? 1 : -1);
        if (out->what == FAULT_LINK_DOWN) f->st.links_down++;
        break;
    default:
        hold_down(f, &f->vertex_down[out->a], out->what == FAULT_SWITCH_DOWN ? 1 : -1);
        if (out->what == FAULT_SWITCH_DOWN) f->st.switches_down++;
        break;
    }
    f->st.last = out->at;
    if (out->what == FAULT_LINK_UP || out->what == FAULT_SWITCH_UP)
        f->st.repairs++;
    else if (f->st.first == SIMTIME_NEVER)
        f->st.first = out->at;
    return true;
}

bool faults_node_down(const struct net_faults *f, int64_t node) {
    return f->vertex_down && f->vertex_down[node] > 0;
}

bool faults_route_blocked(struct net_faults *f, const int64_t *links, int k) {
    for (int i = 0; i < k; i++) {
        if (f->link_down && f->link_down[links[i]]) return true;
        if (i + 1 < k && f->vertex_down[link_to(f, links[i])]) return true;
    }
    return false;
}

int faults_detour(struct net_faults *f, int64_t a, int64_t b, int64_t *out) {
    build_adjacency(f);
    if (++f->seen_gen == 0) { /* the stamps wrapped: clear them */
        memset(f->seen, 0, sizeof *f->seen * (size_t)f->vertices);
        f->seen_gen = 1;
    }
    int64_t head = 0, tail = 0;
    f->queue[tail++] = a;
    f->seen[a] = f->seen_gen;
    while (head < tail && f->seen[b] != f->seen_gen) {
        int64_t v = f->queue[head++];
        if (v != a && f->vertex_down[v]) continue; /* a failed switch or node forwards nothing */
        for (int64_t i = f->adj_start[v]; i < f->adj_start[v + 1]; i++) {
            int64_t l = f->adj_link[i], w = f->adj_to[i];
            if (f->link_down[l] || f->seen[w] == f->seen_gen) continue;
            if (w >= f->nodes || w == b || f->topo->direct) { /* nodes forward on direct networks */
                f->seen[w] = f->seen_gen;
                f->prev_link[w] = l;
                f->prev_vertex[w] = v;
                f->queue[tail++] = w;
            }
        }
    }
    if (f->seen[b] != f->seen_gen || f->vertex_down[b]) return -1;
    int k = 0;
    for (int64_t v = b; v != a; k++, v = f->prev_vertex[v]) {
        if (k >= 4096) return -1; /* longer than any route may be */
        out[k] = f->prev_link[v];
    }
    for (int i = 0; i < k / 2; i++) { /* written from the end */
        int64_t x = out[i];
        out[i] = out[k - 1 - i];
        out[k - 1 - i] = x;
    }
    return k;
}

bool faults_reached(const struct net_faults *f, int64_t v) {
    return f->seen && f->seen[v] == f->seen_gen;
}

static void vertex_name(const struct topology *t, int64_t v, char *buf, size_t len) {
    snprintf(buf, len, "%s %lld", v < t->nodes || topology_is_flat(t) ? "node" : "switch",
             (long long)v);
}

void faults_describe(const struct fault_event *e, const struct topology *t, char *buf, size_t len) {
    char a[48], b[48];
    vertex_name(t, e->a, a, sizeof a);
    vertex_name(t, e->b, b, sizeof b);
    switch (e->what) {
    case FAULT_CRASH:
        snprintf(buf, len, "%s crashes", a);
        break;
    case FAULT_LINK_DOWN:
        snprintf(buf, len, "link %s - %s goes down", a, b);
        break;
    case FAULT_LINK_UP:
        snprintf(buf, len, "link %s - %s is repaired", a, b);
        break;
    case FAULT_SWITCH_DOWN:
        snprintf(buf, len, "%s goes down", a);
        break;
    case FAULT_SWITCH_UP:
        snprintf(buf, len, "%s is repaired", a);
        break;
    default:
        snprintf(buf, len, "a random fault");
        break;
    }
}
