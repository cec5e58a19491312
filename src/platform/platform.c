/* SPDX-License-Identifier: BSD-3-Clause */
/* Platform loading, validation, placement and display. */
#include "platform/platform.h"

#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "core/alloc.h"
#include "core/digest.h"
#include "core/readfile.h"
#include "core/units.h"
#include "platform/import.h"
#include "platform/keys.h"
#include "platform/yaml_load.h"

/* The keys a map of the platform accepts, as keys.c declares them. */
enum { MAX_MAP_KEYS = 64 };
static const char *const *keys_of(const char *prefix, const char **names) {
    platform_key_children(prefix, names, MAX_MAP_KEYS);
    return names;
}

static bool read_nodes(struct platform *p, struct sim_error *err) {
    const char *s = conf_get_scalar(p->conf, "", "nodes", err);
    if (!s) return false;
    if (strcmp(s, "auto") == 0) {
        p->nodes = 0;
        return true;
    }
    return conf_get_int(p->conf, "", "nodes", 1, INT32_MAX, &p->nodes, err);
}

static bool read_speed(struct platform *p, struct sim_error *err) {
    struct conf_node *v = conf_map_get(p->conf, "speed");
    p->speed = 1.0;
    p->flop_rate = 0;
    if (!v) return true;
    const char *s = conf_get_scalar(p->conf, "", "speed", err);
    if (!s) return false;
    const char *why;
    if (units_parse_number(s, &p->speed, &why) && p->speed > 0) return true;
    if (units_parse_flops(s, &p->flop_rate, &why) && p->flop_rate > 0) {
        p->speed = 1.0;
        return true;
    }
    return err_at(err, v->file, v->line,
                  "'speed': found '%s', expected a positive relative speed (e.g. 1.5) or a flop "
                  "rate (e.g. 10Gf)",
                  s);
}

/* instruction_rate: instructions per second of the simulated CPU; traced
 * bursts that carry an instruction count take count / rate. */
static bool read_instruction_rate(struct platform *p, struct sim_error *err) {
    struct conf_node *v = conf_map_get(p->conf, "instruction_rate");
    p->instruction_rate = 0;
    if (!v) return true;
    const char *s = conf_get_scalar(p->conf, "", "instruction_rate", err), *why;
    if (!s) return false;
    if (units_parse_number(s, &p->instruction_rate, &why) && p->instruction_rate > 0 &&
        p->instruction_rate < 1e15)
        return true;
    return err_at(err, v->file, v->line,
                  "'instruction_rate': found '%s', expected instructions per second (e.g. 2.5G "
                  "or 2.5e9)",
                  s);
}

static bool read_placement_list(struct platform *p, const struct conf_node *seq,
                                struct sim_error *err) {
    p->placement = PLACE_LIST;
    p->node_list_len = seq->count;
    p->node_list = xcalloc((size_t)seq->count, sizeof *p->node_list);
    for (int i = 0; i < seq->count; i++) {
        const struct conf_node *it = seq->items[i];
        char *end = NULL;
        long v = it->kind == CONF_SCALAR ? strtol(it->value, &end, 10) : -1;
        if (it->kind != CONF_SCALAR || end == it->value || *end || v < 0 ||
            (p->nodes > 0 && v >= p->nodes))
            return err_at(err, it->file, it->line,
                          "'placement' item %d: found '%s', expected a node number from 0 to "
                          "nodes-1",
                          i, it->kind == CONF_SCALAR ? it->value : "(not a value)");
        p->node_list[i] = (int32_t)v;
    }
    return true;
}

static bool read_placement(struct platform *p, struct sim_error *err) {
    struct conf_node *v = conf_map_get(p->conf, "placement");
    p->placement = PLACE_BLOCK;
    if (!v) return true;
    if (v->kind == CONF_SEQ) return read_placement_list(p, v, err);
    if (v->kind == CONF_MAP) {
        struct conf_node *l = conf_map_get(v, "list");
        if (v->count == 1 && l && l->kind == CONF_SEQ) return read_placement_list(p, l, err);
        if (v->count == 1 && conf_map_get(v, "random")) {
            int64_t seed;
            if (!conf_get_int(v, "placement", "random", 0, INT64_MAX, &seed, err)) return false;
            p->placement = PLACE_RANDOM;
            p->seed = (uint64_t)seed;
            return true;
        }
        return err_at(err, v->file, v->line,
                      "'placement': expected block, cyclic, random, {random: SEED} or list: [...]");
    }
    static const char *const placements[] = {"block", "cyclic", "random", NULL};
    int i = conf_name_find(v->value, placements);
    if (i == 0) return true;
    if (i == 2) {
        p->placement = PLACE_RANDOM;
        p->seed = 1;
        return true;
    }
    if (i == 1) {
        p->placement = PLACE_CYCLIC;
        return true;
    }
    const char *near = conf_name_closest(v->value, placements);
    return err_at(err, v->file, v->line,
                  "'placement': found '%s'%s%s%s, expected block, cyclic, random, {random: SEED} "
                  "or list: [n0, n1, ...]",
                  v->value, near ? " (did you mean '" : "", near ? near : "", near ? "'?)" : "");
}

static bool read_mpi(struct platform *p, struct sim_error *err) {
    p->eager_limit = platform_key_default_size("mpi.eager_limit");
    p->poll_cost = platform_key_default_time("mpi.poll_cost"); /* a test that finds nothing */
    struct conf_node *m = conf_map_get(p->conf, "mpi");
    if (!m) return true;
    if (m->kind != CONF_MAP) return err_at(err, m->file, m->line, "'mpi' must be a map");
    const char *mpi_keys[MAX_MAP_KEYS];
    if (!conf_check_keys(m, "mpi", keys_of("mpi", mpi_keys), err)) return false;
    if (conf_map_get(m, "eager_limit") &&
        !conf_get_size(m, "mpi", "eager_limit", true, &p->eager_limit, err))
        return false;
    static const char *const times[] = {"send_overhead", "recv_overhead", "wait_overhead",
                                        "gap",           "gap_per_byte",  "poll_cost"};
    simtime_t *dst[] = {&p->send_overhead, &p->recv_overhead, &p->wait_overhead,
                        &p->gap,           &p->gap_per_byte,  &p->poll_cost};
    for (int i = 0; i < 6; i++) {
        double secs;
        if (!conf_map_get(m, times[i])) continue;
        if (!conf_get_time(m, "mpi", times[i], &secs, err)) return false;
        *dst[i] = simtime_from_seconds(secs);
    }
    if (conf_map_get(m, "recv_overhead_per_byte")) {
        double secs;
        if (!conf_get_time(m, "mpi", "recv_overhead_per_byte", &secs, err)) return false;
        p->recv_overhead_per_byte = simtime_from_seconds(secs);
    }
    static const char *const starts[] = {"send", "match", NULL};
    int start = 0;
    if (!conf_get_enum(m, "mpi", "transfer_start", starts, &start, err)) return false;
    p->transfer_at_match = start == 1;
    static const char *const rendezvous[] = {"handshake", "direct", NULL};
    int direct = 0;
    if (!conf_get_enum(m, "mpi", "rendezvous", rendezvous, &direct, err)) return false;
    p->rendezvous_direct = direct == 1;
    return true;
}

/* storage: where MPI-IO files live (docs/models.md, "File I/O"). */
static bool read_storage(struct platform *p, struct sim_error *err) {
    struct storage_model *st = &p->storage;
    *st = (struct storage_model){STORAGE_SHARED, platform_key_default_time("storage.latency"),
                                 platform_key_default_bandwidth("storage.bandwidth"),
                                 (int64_t)platform_key_default_number("storage.concurrency"), NULL};
    struct conf_node *m = conf_map_get(p->conf, "storage");
    if (!m) return true;
    if (m->kind != CONF_MAP) return err_at(err, m->file, m->line, "'storage' must be a map");
    const char *storage_keys[MAX_MAP_KEYS];
    if (!conf_check_keys(m, "storage", keys_of("storage", storage_keys), err)) return false;
    static const char *const kinds[] = {"shared", "local", NULL};
    int kind = st->kind == STORAGE_LOCAL;
    if (!conf_get_enum(m, "storage", "kind", kinds, &kind, err)) return false;
    st->kind = kind ? STORAGE_LOCAL : STORAGE_SHARED;
    double secs;
    if (conf_map_get(m, "latency")) {
        if (!conf_get_time(m, "storage", "latency", &secs, err)) return false;
        st->latency = simtime_from_seconds(secs);
    }
    if (conf_map_get(m, "bandwidth") &&
        !conf_get_bandwidth(m, "storage", "bandwidth", &st->bandwidth, err))
        return false;
    if (conf_map_get(m, "root") && !(st->root = conf_get_scalar(m, "storage", "root", err)))
        return false;
    return !conf_map_get(m, "concurrency") ||
           conf_get_int(m, "storage", "concurrency", 1, 1 << 20, &st->concurrency, err);
}

/* memory: a node's bandwidth and a burst's demand (both, or neither). */
static bool read_memory(struct platform *p, struct sim_error *err) {
    p->memory = (struct memory_model){0, 0};
    struct conf_node *m = conf_map_get(p->conf, "memory");
    if (!m) return true;
    if (m->kind != CONF_MAP)
        return err_at(err, m->file, m->line,
                      "'memory' must be a map: {bandwidth: 20GB/s, demand: 8GB/s}");
    const char *memory_keys[MAX_MAP_KEYS];
    if (!conf_check_keys(m, "memory", keys_of("memory", memory_keys), err)) return false;
    if (!conf_map_get(m, "bandwidth"))
        return err_at(err, m->file, m->line,
                      "'memory' needs 'bandwidth': a node's memory bandwidth (e.g. 20GB/s)");
    if (!conf_get_bandwidth(m, "memory", "bandwidth", &p->memory.bandwidth, err)) return false;
    /* demand 0 is allowed: the model is then off (every burst alone) */
    struct conf_node *d = conf_map_get(m, "demand");
    if (d && d->kind == CONF_SCALAR && strcmp(d->value, "0") == 0) return true;
    return !d || conf_get_bandwidth(m, "memory", "demand", &p->memory.demand, err);
}

/* ranks_per_node and cores_per_rank (optional, "auto" for the default):
 * neither may exceed cores_per_node, nor may their product; cores_per_rank
 * alone makes ranks_per_node the ranks that fit. */
static bool read_rank_cores(struct platform *p, struct sim_error *err) {
    p->ranks_per_node = p->cores_per_node;
    p->cores_per_rank = 0;
    const char *keys[] = {"ranks_per_node", "cores_per_rank"};
    int64_t *dest[] = {&p->ranks_per_node, &p->cores_per_rank};
    bool given[2] = {false, false};
    for (int i = 0; i < 2; i++) {
        struct conf_node *v = conf_map_get(p->conf, keys[i]);
        if (!v || (v->kind == CONF_SCALAR && strcmp(v->value, "auto") == 0)) continue;
        if (!conf_get_int(p->conf, "", keys[i], 1, p->cores_per_node, dest[i], err)) return false;
        given[i] = true;
    }
    /* cores_per_rank alone: as many ranks per node as have room */
    if (given[1] && !given[0]) p->ranks_per_node = p->cores_per_node / p->cores_per_rank;
    if (p->cores_per_rank * p->ranks_per_node <= p->cores_per_node) return true;
    struct conf_node *v = conf_map_get(p->conf, "cores_per_rank");
    return err_at(err, v->file, v->line,
                  "'cores_per_rank': %lld cores for each of %lld ranks per node (ranks_per_node) "
                  "exceed the node's %lld cores (cores_per_node); oversubscribed nodes are refused",
                  (long long)p->cores_per_rank, (long long)p->ranks_per_node,
                  (long long)p->cores_per_node);
}

/* fault_tolerance: abort (default) or ulfm. */
static bool read_fault_tolerance(struct platform *p, struct sim_error *err) {
    const struct conf_node *n = conf_map_get(p->conf, "fault_tolerance");
    if (!n) return true;
    const char *v = n->kind == CONF_SCALAR ? n->value : "";
    if (strcmp(v, "ulfm") != 0 && strcmp(v, "abort") != 0)
        return err_at(err, n->file, n->line,
                      "'fault_tolerance': found '%s', expected abort (mpirun's default: a "
                      "failed process ends the job) or ulfm (the job goes on, as mpiexec "
                      "--with-ft ulfm)",
                      v);
    p->ulfm = !strcmp(v, "ulfm");
    return true;
}

/* ideal: none (the default), network, cpu or network+cpu: the what-ifs
 * of a free network or free computation. An ideal network also frees the
 * MPI library's overheads (mpi.send_overhead and the like): a message
 * costs nothing but the wait for its partner. (A test that finds nothing
 * still costs mpi.poll_cost: a loop of them must see time pass.) */
static bool read_ideal(struct platform *p, struct sim_error *err) {
    const struct conf_node *n = conf_map_get(p->conf, "ideal");
    if (!n) return true;
    const char *v = n->kind == CONF_SCALAR ? n->value : "";
    static const char *const forms[] = {"none", "network", "cpu", "network+cpu", "cpu+network"};
    size_t i = 0;
    while (i < sizeof forms / sizeof forms[0] && strcmp(v, forms[i]))
        i++;
    if (i == sizeof forms / sizeof forms[0])
        return err_at(err, n->file, n->line,
                      "'ideal': found '%s', expected none, network (messages cost nothing: no "
                      "latency, no time on the wire, no contention, no MPI overheads), cpu "
                      "(computation costs nothing) or network+cpu",
                      v);
    p->ideal_network = strstr(v, "network") != NULL;
    p->ideal_cpu = strstr(v, "cpu") != NULL;
    if (p->ideal_network)
        p->send_overhead = p->recv_overhead = p->wait_overhead = p->gap = p->gap_per_byte =
            p->recv_overhead_per_byte = 0;
    return true;
}

/* scale: {latency: F, bandwidth: F, overhead: F, speed: F}, each a positive
 * factor (default 1): every network latency (intra, inter, a topology's
 * links), every bandwidth, the MPI overheads (mpi.send_overhead...,
 * network.overhead) and the speed of computation multiplied by it. The
 * network's are applied by network_init. */
static bool read_scale(struct platform *p, struct sim_error *err) {
    p->scale_latency = p->scale_bandwidth = p->scale_overhead = p->scale_speed = 1;
    const struct conf_node *m = conf_map_get(p->conf, "scale");
    if (!m) return true;
    const char *keys[MAX_MAP_KEYS];
    keys_of("scale", keys);
    if (m->kind != CONF_MAP)
        return err_at(err, m->file, m->line,
                      "'scale': expected a map of factors, e.g. {latency: 2, speed: 0.5}");
    if (!conf_check_keys(m, "scale", keys, err)) return false;
    double *f[] = {&p->scale_latency, &p->scale_bandwidth, &p->scale_overhead, &p->scale_speed};
    for (int i = 0; i < 4; i++) {
        const struct conf_node *v = conf_map_get(m, keys[i]);
        if (!v) continue;
        const char *why;
        if (v->kind != CONF_SCALAR || !units_parse_number(v->value, f[i], &why) || !(*f[i] > 0) ||
            *f[i] > 1e6)
            return err_at(err, v->file, v->line,
                          "'scale.%s': found '%s', expected a factor above 0 (2: twice the "
                          "given value)",
                          keys[i], v->kind == CONF_SCALAR ? v->value : "");
    }
    p->speed *= p->scale_speed;
    p->flop_rate *= p->scale_speed;
    p->instruction_rate *= p->scale_speed;
    simtime_t *o[] = {&p->send_overhead, &p->recv_overhead, &p->wait_overhead,
                      &p->gap,           &p->gap_per_byte,  &p->recv_overhead_per_byte};
    for (int i = 0; i < 6; i++)
        *o[i] = (simtime_t)((double)*o[i] * p->scale_overhead + 0.5);
    return true;
}

const char *platform_ideal(const struct platform *p) {
    return p->ideal_network ? (p->ideal_cpu ? "network+cpu" : "network")
                            : (p->ideal_cpu ? "cpu" : "none");
}

static bool validate(struct platform *p, struct sim_error *err) {
    const char *top_keys[MAX_MAP_KEYS];
    if (!conf_check_keys(p->conf, "", keys_of("", top_keys), err) || !read_fault_tolerance(p, err))
        return false;
    if (!read_nodes(p, err)) return false;
    if (!conf_get_int(p->conf, "", "cores_per_node", 1, 1 << 20, &p->cores_per_node, err) ||
        !read_rank_cores(p, err))
        return false;
    if (!read_speed(p, err) || !read_instruction_rate(p, err) || !read_mpi(p, err) ||
        !read_placement(p, err) || !read_storage(p, err) || !read_memory(p, err) ||
        !read_scale(p, err) || !read_ideal(p, err))
        return false;
    const char *nets[] = {"intra", "inter"};
    for (int i = 0; i < 2; i++) {
        struct conf_node *n = conf_map_get(p->conf, nets[i]);
        if (!n) return err_at(err, p->source, 0, "missing key '%s'", nets[i]);
        if (n->kind != CONF_MAP)
            return err_at(err, n->file, n->line, "'%s' must be a map (model:, latency:, ...)",
                          nets[i]);
    }
    return true;
}

/* Names a tree taken from --fault by the option (its own copy of it). */
static void name_origin(struct conf_node *n, const char *file) {
    n->file = file;
    n->line = 0;
    for (int i = 0; i < n->count; i++)
        name_origin(n->items[i], file);
}

/* A subtree taken from a parsed snippet owns its own copy of the origin
 * its errors name (the snippet's, freed with it). */
static void take_origin(struct conf_node *n, const char *origin) {
    n->owned_file = xstrdup(origin);
    name_origin(n, n->owned_file);
}

/* --fault SPEC (given as the override "faults+=SPEC"): one more entry of
 * the faults: list, written as YAML ({at: 1ms, node: 3, kind: crash}) or
 * as KEY=VALUE pairs (at=1ms,node=3,kind=crash). */
static bool append_fault(struct conf_node *root, const char *spec, struct sim_error *err) {
    size_t len = strlen(spec);
    if (spec[0] != '{' && spec[strcspn(spec, " \t[{")] &&
        strchr(" \t", spec[strcspn(spec, " \t[{")]))
        return err_set(err,
                       "--fault %.120s: KEY=VALUE pairs are separated by commas, not spaces "
                       "(e.g. --fault at=1ms,node=3,kind=crash)",
                       spec);
    char *text = xmalloc(2 * len + 32), *o = text;
    o += sprintf(o, "faults:\n  - ");
    bool yaml = spec[0] == '{';
    if (!yaml) *o++ = '{';
    int depth = 0;
    for (const char *c = spec; *c; c++) { /* KEY=VALUE: '=' outside brackets becomes ': ' */
        depth += *c == '[' || *c == '{';
        depth -= *c == ']' || *c == '}';
        if (!yaml && *c == '=' && depth == 0) {
            *o++ = ':';
            *o++ = ' ';
        } else {
            *o++ = *c;
        }
    }
    if (!yaml) *o++ = '}';
    *o++ = '\n';
    char name[160];
    snprintf(name, sizeof name, "--fault %.120s", spec);
    struct conf_node *t = yaml_load_buffer(text, (size_t)(o - text), name, err);
    free(text);
    if (!t) return false;
    struct conf_node *list = conf_map_get(root, "faults"), *mine = conf_map_get(t, "faults");
    if (list && list->kind != CONF_SEQ) {
        conf_free(t);
        return err_at(err, list->file, list->line, "'faults': expected a list of faults");
    }
    if (!list) {
        list = conf_new(CONF_SEQ, NULL, 0);
        list->owned_file = xstrdup(name);
        list->file = list->owned_file;
        conf_map_put(root, "faults", list);
    }
    for (int i = 0; i < mine->count; i++) {
        struct conf_node *entry = mine->items[i];
        take_origin(entry, name); /* t's file name goes with t */
        conf_seq_push(list, entry);
        mine->items[i] = NULL;
    }
    mine->count = 0;
    conf_free(t);
    return true;
}

/* A --set whose value is a YAML flow list or map ("placement=[0, 1]",
 * "x={random: 3}"): the value parsed, then set at the path. */
static bool set_flow(struct conf_node *root, const char *assignment, struct sim_error *err) {
    const char *eq = strchr(assignment, '=');
    size_t n = strlen(eq + 1) + 8;
    char *text = xmalloc(n);
    snprintf(text, n, "v: %s\n", eq + 1);
    size_t nlen = strlen(assignment) + 7;
    char *name = xmalloc(nlen);
    snprintf(name, nlen, "--set %s", assignment);
    struct conf_node *doc = yaml_load_buffer(text, strlen(text), name, err);
    free(text);
    if (!doc) {
        free(name);
        return false;
    }
    struct conf_node *v = NULL;
    for (int i = 0; i < doc->count; i++)
        if (!strcmp(doc->keys[i], "v")) {
            v = doc->items[i];
            doc->items[i] = NULL; /* taken */
        }
    conf_free(doc);
    if (v) take_origin(v, name); /* doc's file name went with doc: errors name the --set */
    free(name);
    return v && conf_set_path_node(root, assignment, v, err);
}

/* Applies the overrides to a loaded tree (taking ownership) and validates. */
static struct platform *platform_from_tree(struct conf_node *root, const char *const *sets,
                                           int nsets, struct sim_error *err) {
    if (!root) return NULL;
    for (int i = 0; i < nsets; i++) {
        const char *eq = strchr(sets[i], '=');
        bool flow = eq && (eq[1] == '[' || eq[1] == '{');
        if (!strncmp(sets[i], "faults+=", 8) ? !append_fault(root, sets[i] + 8, err)
            : flow                           ? !set_flow(root, sets[i], err)
                                             : !conf_set_path(root, sets[i], err)) {
            conf_free(root);
            return NULL;
        }
    }
    struct platform *p = xcalloc(1, sizeof *p);
    p->conf = root;
    p->source = root->owned_file;
    if (!validate(p, err)) {
        platform_free(p);
        return NULL;
    }
    return p;
}

/* The YAML of an imported platform (SimGrid XML, Dimemas .cfg), loaded
 * under the name "FILE, converted to YAML" so that its errors' lines are
 * read in `simpi platform convert FILE`, not in FILE. */
static struct conf_node *load_imported(const char *yaml, const char *path, struct sim_error *err) {
    if (!yaml) return NULL;
    char name[4096];
    snprintf(name, sizeof name, "%s, converted to YAML", path);
    return yaml_load_buffer(yaml, strlen(yaml), name, err);
}

/* Platform files are layers over the built-in platform (every key is
 * optional); --set overrides come last. */
struct platform *platform_load(const char *path, const char *const *sets, int nsets,
                               struct sim_error *err) {
    struct conf_node *base = yaml_load_buffer(platform_default_yaml, strlen(platform_default_yaml),
                                              "<built-in platform>", err);
    if (!base || !path) return platform_from_tree(base, sets, nsets, err);
    size_t len; /* read once: SimGrid XML and Dimemas .cfg are imported, YAML parsed */
    char *text = readfile(path, READFILE_PLATFORM_LIMIT, &len, "platform file", err);
    bool imported = false;
    char *yaml = text ? platform_import_text(text, len, path, &imported, err) : NULL;
    struct conf_node *over = !text      ? NULL
                             : imported ? load_imported(yaml, path, err)
                                        : yaml_load_buffer(text, len, path, err);
    free(yaml);
    free(text);
    if (!over) {
        conf_free(base);
        return NULL;
    }
    conf_merge(base, over);
    struct platform *p = platform_from_tree(base, sets, nsets, err);
    if (p) p->source = over->owned_file;
    return p;
}

struct platform *platform_load_buffer(const char *text, size_t len, const char *name,
                                      const char *const *sets, int nsets, struct sim_error *err) {
    bool imported;
    char *yaml = platform_import_text(text, len, name, &imported, err);
    struct conf_node *tree =
        imported ? load_imported(yaml, name, err) : yaml_load_buffer(text, len, name, err);
    free(yaml);
    return platform_from_tree(tree, sets, nsets, err);
}

void platform_free(struct platform *p) {
    if (!p) return;
    conf_free(p->conf);
    free(p->node_list);
    free(p);
}

/* A placement list may not put more ranks on a node than it has cores (or
 * more than it has room for at cores_per_rank each). */
static bool check_list_cores(const struct platform *p, int64_t nranks, struct sim_error *err) {
    int32_t *used = xcalloc((size_t)p->nodes, sizeof *used);
    int64_t each = p->cores_per_rank > 0 ? p->cores_per_rank : 1;
    bool ok = true;
    for (int64_t i = 0; i < nranks && ok; i++) {
        int32_t nd = p->node_list[i];
        if (++used[nd] * each > p->cores_per_node)
            ok = err_set(err,
                         "%s: 'placement' puts rank %lld on node %d, which already holds %lld "
                         "ranks of %lld cores each on its %lld cores (cores_per_node); "
                         "oversubscribed nodes are refused",
                         p->source, (long long)i, nd, (long long)(used[nd] - 1), (long long)each,
                         (long long)p->cores_per_node);
    }
    free(used);
    return ok;
}

bool platform_fit_ranks(struct platform *p, int64_t nranks, struct sim_error *err) {
    if (p->placement == PLACE_LIST) {
        if (p->node_list_len < nranks)
            return err_set(err,
                           "%s: 'placement' lists %lld ranks but the run has %lld; give one node "
                           "per rank",
                           p->source, (long long)p->node_list_len, (long long)nranks);
        if (p->nodes == 0) {
            for (int64_t i = 0; i < p->node_list_len; i++)
                if (p->node_list[i] >= p->nodes) p->nodes = p->node_list[i] + 1;
        }
        if (p->node_list_len > nranks)
            fprintf(stderr,
                    "simpi: warning: %s: 'placement' lists %lld ranks but the run has %lld; the "
                    "last %lld entries are not used\n",
                    p->source, (long long)p->node_list_len, (long long)nranks,
                    (long long)(p->node_list_len - nranks));
        return check_list_cores(p, nranks, err);
    }
    /* a block placement fills ranks_per_node slots of each node; the others
     * may use every core */
    bool block = p->placement == PLACE_BLOCK;
    int64_t slots = block ? p->ranks_per_node : p->cores_per_node;
    if (p->nodes == 0) p->nodes = (nranks + slots - 1) / slots;
    if (p->nodes == 0) p->nodes = 1;
    if (p->nodes * slots >= nranks) return true;
    bool fewer = slots < p->cores_per_node;
    if (p->nodes_fixed_by) /* nodes: would be refused; more per node is the way */
        return err_set(err,
                       "%s: the run has %lld ranks but the platform has only %lld %s (%lld nodes "
                       "x %lld %s), and the %s topology fixes the node count: put more ranks on "
                       "each node, e.g. --set %s=%lld, or make the topology larger",
                       p->source, (long long)nranks, (long long)(p->nodes * slots),
                       fewer ? "rank slots" : "cores", (long long)p->nodes, (long long)slots,
                       fewer ? "ranks_per_node" : "cores_per_node", p->nodes_fixed_by,
                       fewer ? "ranks_per_node" : "cores_per_node",
                       (long long)((nranks + p->nodes - 1) / p->nodes));
    return err_set(err,
                   "%s: the run has %lld ranks but the platform has only %lld %s (%lld nodes x "
                   "%lld %s); add nodes, e.g. --set nodes=%lld",
                   p->source, (long long)nranks, (long long)(p->nodes * slots),
                   fewer ? "rank slots" : "cores", (long long)p->nodes, (long long)slots,
                   fewer ? "ranks_per_node" : "cores_per_node",
                   (long long)((nranks + slots - 1) / slots));
}

static uint64_t mix64(uint64_t x) {
    x ^= x >> 33;
    x *= 0xff51afd7ed558ccdull;
    x ^= x >> 33;
    x *= 0xc4ceb9fe1a85ec53ull;
    return x ^ (x >> 33);
}

/* A permutation of [0, m) chosen by seed: a 4-round Feistel network on the
 * smallest even power of two >= m, walking the cycle until the value falls
 * below m (so it stays a bijection), without a table. */
static int64_t permute(int64_t i, int64_t m, uint64_t seed) {
    int bits = 2;
    while (bits < 62 && (INT64_C(1) << bits) < m)
        bits += 2;
    int h = bits / 2;
    uint64_t mask = (UINT64_C(1) << h) - 1, x = (uint64_t)i;
    do {
        uint64_t l = x >> h, r = x & mask;
        for (uint64_t round = 0; round < 4; round++) {
            uint64_t f = mix64(r ^ mix64(seed * 4 + round)) & mask;
            uint64_t nl = r;
            r = l ^ f;
            l = nl;
        }
        x = l << h | r;
    } while (x >= (uint64_t)m);
    return (int64_t)x;
}

int32_t platform_node_of(const struct platform *p, int64_t rank) {
    switch (p->placement) {
    case PLACE_RANDOM: /* a random core of the whole machine per rank */
        return (int32_t)(permute(rank, p->nodes * p->cores_per_node, p->seed) / p->cores_per_node);
    case PLACE_CYCLIC:
        return (int32_t)(rank % p->nodes);
    case PLACE_LIST:
        return p->node_list[rank];
    default:
        return (int32_t)(rank / p->ranks_per_node);
    }
}

int64_t platform_rank_cores(const struct platform *p, int64_t ranks_on_node) {
    if (p->cores_per_rank > 0) return p->cores_per_rank;
    int64_t cores = ranks_on_node > 0 ? p->cores_per_node / ranks_on_node : p->cores_per_node;
    return cores > 0 ? cores : 1;
}

double platform_scale_seconds(const struct platform *p, double seconds) {
    return seconds / p->speed;
}

double platform_flops_seconds(const struct platform *p, double flops) {
    double rate = p->flop_rate > 0 ? p->flop_rate : p->speed * PLATFORM_REFERENCE_FLOP_RATE;
    return flops / rate;
}

void platform_show(const struct platform *p, FILE *out) {
    fprintf(out, "# platform: %s (layered over the built-in platform); each value's origin\n",
            p->source);
    conf_dump_origins(p->conf, 0, out);
}

void platform_show_notes(const struct platform *p, FILE *out) {
    const struct conf_node *net = conf_map_get(p->conf, "network");
    const struct conf_node *topo = net ? conf_map_get(net, "topology") : NULL;
    if (topo && topo->kind == CONF_SCALAR && strcmp(topo->value, "flat"))
        fprintf(out,
                "# which applies: between nodes, messages follow the routes of network.topology "
                "(%s): its link latencies and bandwidths%s; inter: is not used (docs/network.md)\n",
                topo->value, conf_map_get(net, "overhead") ? " and network.overhead" : "");
    else if (net && (conf_map_get(net, "link_latency") || conf_map_get(net, "link_bandwidth")))
        fprintf(out, "# which applies: between nodes, inter:; network.link_latency and "
                     "link_bandwidth are not used (topology flat, docs/network.md)\n");
    const struct conf_node *c = net ? conf_map_get(net, "contention") : NULL;
    const struct conf_node *in = net ? conf_map_get(net, "interfaces") : NULL;
    bool none = !c || (c->kind == CONF_SCALAR && !strcmp(c->value, "none"));
    bool unlimited = in && in->kind == CONF_SCALAR && !strcmp(in->value, "unlimited");
    if (p->ideal_network)
        fprintf(out, "# the network: ideal (messages cost nothing, docs/models.md)\n");
    else if (none && !unlimited)
        fprintf(out, "# the network's model: serial interfaces (contention: none, the default): "
                     "each node's interface carries one message at a time each way; inner "
                     "links are not shared (flow shares them; docs/network.md)\n");
}

const char *platform_beside_file(const char *origin, const char *path, char *buf, size_t n) {
    struct stat st;
    const char *slash = origin ? strrchr(origin, '/') : NULL;
    if (path[0] == '/' || !slash || stat(origin, &st) != 0 || !S_ISREG(st.st_mode)) return path;
    snprintf(buf, n, "%.*s/%s", (int)(slash - origin), origin, path);
    return buf;
}

/* The files the platform names by path, by content: two processes with
 * the same text but different selection files do not agree. */
static uint64_t digest_named_files(const struct platform *p, uint64_t h) {
    const struct conf_node *mpi = conf_map_get(p->conf, "mpi");
    const struct conf_node *coll = mpi ? conf_map_get(mpi, "coll") : NULL;
    const struct conf_node *sel = coll ? conf_map_get(coll, "selection") : NULL;
    if (!sel || sel->kind != CONF_SCALAR) return h;
    char beside[4096];
    return digest_path(h, platform_beside_file(sel->file, sel->value, beside, sizeof beside));
}

uint64_t platform_digest(const struct platform *p) {
    char *text = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&text, &len);
    if (!f) return 0;
    platform_show(p, f);
    fclose(f);
    uint64_t h = digest_named_files(p, digest_bytes(DIGEST_START, text, len));
    free(text);
    return h;
}
