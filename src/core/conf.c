/* SPDX-License-Identifier: BSD-3-Clause */
/* Configuration tree: construction, lookup, key checking, overrides, typed
 * getters and YAML dump. */
#include "core/conf.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/alloc.h"
#include "core/units.h"

struct conf_node *conf_new(enum conf_kind kind, const char *file, int line) {
    struct conf_node *n = xrealloc_or_die(NULL, sizeof *n);
    memset(n, 0, sizeof *n);
    n->kind = kind;
    n->file = file;
    n->line = line;
    return n;
}

void conf_free(struct conf_node *n) {
    if (!n) return;
    for (int i = 0; i < n->count; i++) {
        if (n->keys) free(n->keys[i]);
        conf_free(n->items[i]);
    }
    free(n->keys);
    free(n->items);
    free(n->index);
    free(n->value);
    free(n->owned_file);
    conf_free(n->layer);
    free(n);
}

static void grow(struct conf_node *n) {
    if (n->count < n->cap) return;
    n->cap = n->cap ? n->cap * 2 : 4;
    n->items = xrealloc_or_die(n->items, sizeof *n->items * (size_t)n->cap);
    if (n->kind == CONF_MAP) n->keys = xrealloc_or_die(n->keys, sizeof *n->keys * (size_t)n->cap);
}

/* Maps of more than INDEX_FROM keys get a hash index, so that a file of
 * 99,000 keys loads in linear time (it took 67 s by scans). */
#define INDEX_FROM 16

static size_t key_hash(const char *key, int cap) {
    uint64_t h = 1469598103934665603ull;
    for (; *key; key++)
        h = (h ^ (unsigned char)*key) * 1099511628211ull;
    return (size_t)(h & (uint64_t)(cap - 1));
}

static void index_add(struct conf_node *map, int entry) {
    size_t h = key_hash(map->keys[entry], map->index_cap);
    while (map->index[h])
        h = (h + 1) & (size_t)(map->index_cap - 1);
    map->index[h] = entry + 1;
}

/* (Re)builds the index when the map has grown past half of it. */
static void index_update(struct conf_node *map) {
    if (map->count < INDEX_FROM || (map->index && 2 * (map->count + 1) <= map->index_cap)) return;
    free(map->index);
    map->index_cap = 64;
    while (map->index_cap < 4 * (map->count + 1))
        map->index_cap *= 2;
    map->index = xcalloc((size_t)map->index_cap, sizeof *map->index);
    for (int i = 0; i < map->count; i++)
        index_add(map, i);
}

/* The entry of key in map, or -1. */
static int find_key(const struct conf_node *map, const char *key) {
    if (map->index) {
        for (size_t h = key_hash(key, map->index_cap); map->index[h];
             h = (h + 1) & (size_t)(map->index_cap - 1))
            if (strcmp(map->keys[map->index[h] - 1], key) == 0) return map->index[h] - 1;
        return -1;
    }
    for (int i = 0; i < map->count; i++)
        if (strcmp(map->keys[i], key) == 0) return i;
    return -1;
}

void conf_map_put(struct conf_node *map, const char *key, struct conf_node *value) {
    int i = find_key(map, key);
    if (i >= 0) {
        conf_free(map->items[i]);
        map->items[i] = value;
        return;
    }
    grow(map);
    map->keys[map->count] = strdup(key);
    map->items[map->count++] = value;
    if (map->index && 2 * (map->count + 1) <= map->index_cap)
        index_add(map, map->count - 1);
    else
        index_update(map);
}

void conf_seq_push(struct conf_node *seq, struct conf_node *item) {
    grow(seq);
    seq->items[seq->count++] = item;
}

struct conf_node *conf_map_get(const struct conf_node *map, const char *key) {
    if (!map || map->kind != CONF_MAP) return NULL;
    int i = find_key(map, key);
    return i >= 0 ? map->items[i] : NULL;
}

static const char *closest(const char *key, const char *const *allowed) {
    const char *best = NULL;
    int best_d = 3;
    for (int i = 0; allowed[i]; i++) {
        int d = err_edit_distance(key, allowed[i]);
        if (d < best_d) {
            best_d = d;
            best = allowed[i];
        }
    }
    return best;
}

static void join_allowed(const char *const *allowed, char *buf, size_t len) {
    buf[0] = '\0';
    for (int i = 0; allowed[i]; i++) {
        if (i) strncat(buf, ", ", len - strlen(buf) - 1);
        strncat(buf, allowed[i], len - strlen(buf) - 1);
    }
}

bool conf_check_keys(const struct conf_node *map, const char *path, const char *const *allowed,
                     struct sim_error *err) {
    for (int i = 0; i < map->count; i++) {
        const char *k = map->keys[i];
        bool ok = false;
        for (int j = 0; allowed[j] && !ok; j++)
            ok = strcmp(k, allowed[j]) == 0;
        if (ok) continue;
        const char *near = closest(k, allowed);
        char list[512];
        join_allowed(allowed, list, sizeof list);
        const char *sep = path[0] ? "." : "";
        const char *file = map->items[i]->file;
        if (near)
            return err_at(err, file, map->items[i]->line,
                          "unknown key '%s%s%s' (did you mean '%s'?); expected one of: %s", path,
                          sep, k, near, list);
        return err_at(err, file, map->items[i]->line, "unknown key '%s%s%s'; expected one of: %s",
                      path, sep, k, list);
    }
    return true;
}

/* One character of a name as compared: lower case, '-' read as '_'. */
static int name_char(char c) {
    if (c == '-') return '_';
    return c >= 'A' && c <= 'Z' ? c - 'A' + 'a' : (unsigned char)c;
}

bool conf_name_eq(const char *a, const char *b) {
    for (; *a && *b; a++, b++)
        if (name_char(*a) != name_char(*b)) return false;
    return *a == *b;
}

int conf_name_find(const char *given, const char *const *names) {
    for (int i = 0; names[i]; i++)
        if (conf_name_eq(given, names[i])) return i;
    return -1;
}

static void name_fold(const char *in, char *out, size_t len) {
    size_t i = 0;
    for (; in[i] && i + 1 < len; i++)
        out[i] = (char)name_char(in[i]);
    out[i] = '\0';
}

const char *conf_name_closest(const char *given, const char *const *names) {
    char g[64], n[64];
    name_fold(given, g, sizeof g);
    const char *best = NULL;
    int best_d = strlen(g) > 8 ? 4 : 3;
    for (int i = 0; names[i]; i++) {
        name_fold(names[i], n, sizeof n);
        int d = err_edit_distance(g, n);
        if (d < best_d) {
            best_d = d;
            best = names[i];
        }
    }
    return best;
}

void conf_name_expected(const char *given, const char *const *names, char *buf, size_t len) {
    char list[512];
    join_allowed(names, list, sizeof list);
    const char *near = conf_name_closest(given, names);
    if (near)
        snprintf(buf, len, "found '%s' (did you mean '%s'?), expected one of: %s", given, near,
                 list);
    else
        snprintf(buf, len, "found '%s', expected one of: %s", given, list);
}

bool conf_get_enum(const struct conf_node *map, const char *path, const char *key,
                   const char *const *names, int *out, struct sim_error *err) {
    const struct conf_node *v = conf_map_get(map, key);
    if (!v) return true;
    const char *given = conf_get_scalar(map, path, key, err);
    if (!given) return false;
    int i = conf_name_find(given, names);
    if (i >= 0) {
        *out = i;
        return true;
    }
    char why[768];
    conf_name_expected(given, names, why, sizeof why);
    return err_at(err, v->file, v->line, "'%s%s%s': %s", path, path[0] ? "." : "", key, why);
}

static bool is_index(const char *s) {
    if (!*s) return false;
    for (; *s; s++)
        if (*s < '0' || *s > '9') return false;
    return true;
}

/* A node made by --set: errors about it name the --set, not a file. */
static struct conf_node *set_node(enum conf_kind kind, const char *assignment) {
    size_t n = strlen(assignment) + 7;
    char *origin = xrealloc_or_die(NULL, n);
    snprintf(origin, n, "--set %s", assignment);
    struct conf_node *c = conf_new(kind, origin, 0);
    c->owned_file = origin;
    return c;
}

/* Walks one path component, creating a map child when missing. */
static struct conf_node *step(struct conf_node *n, const char *comp, const char *full,
                              struct sim_error *err) {
    if (n->kind == CONF_SEQ) {
        if (!is_index(comp)) {
            err_set(err, "--set %s: '%s' is a list; use a number to index it", full, comp);
            return NULL;
        }
        long idx = strtol(comp, NULL, 10);
        if (idx >= n->count) {
            err_set(err, "--set %s: index %ld is past the end of the list (%d items)", full, idx,
                    n->count);
            return NULL;
        }
        return n->items[idx];
    }
    if (n->kind != CONF_MAP) {
        err_set(err, "--set %s: '%s' is inside a plain value, not a map", full, comp);
        return NULL;
    }
    struct conf_node *c = conf_map_get(n, comp);
    if (!c) {
        c = set_node(CONF_MAP, full);
        conf_map_put(n, comp, c);
    }
    return c;
}

/* `--set X.model=M` naming another model than X's: X's keys from the file
 * or the built-in platform belong to the old model and go (as when a file
 * names another model, see conf_merge); keys set by --set stay. */
static void drop_other_model_keys(struct conf_node *map, const char *model) {
    const struct conf_node *old = conf_map_get(map, "model");
    const char *was = old && old->kind == CONF_SCALAR ? old->value : "affine";
    if (!strcmp(was, model)) return;
    int kept = 0;
    for (int i = 0; i < map->count; i++) {
        const struct conf_node *v = map->items[i];
        if (!strcmp(map->keys[i], "model") || (v->file && !strncmp(v->file, "--set ", 6))) {
            map->keys[kept] = map->keys[i];
            map->items[kept++] = map->items[i];
        } else {
            free(map->keys[i]);
            conf_free(map->items[i]);
        }
    }
    map->count = kept;
    free(map->index); /* entries moved: rebuilt on the next put */
    map->index = NULL;
    map->index_cap = 0;
    index_update(map);
}

bool conf_set_path(struct conf_node *root, const char *assignment, struct sim_error *err) {
    return conf_set_path_node(root, assignment, NULL, err);
}

/* Whether a key path has an empty part ("inter..latency", ".x", "x."), not
 * counting those a bracket makes ("faults[0].seed"). */
static bool empty_part(const char *path, size_t len) {
    for (size_t i = 0; i < len; i++)
        if (path[i] == '.' && (i == 0 || i + 1 == len || path[i + 1] == '.' || path[i + 1] == '['))
            return true;
    return false;
}

bool conf_set_path_node(struct conf_node *root, const char *assignment, struct conf_node *value,
                        struct sim_error *err) {
    const char *eq = strchr(assignment, '=');
    if (!eq || eq == assignment || !eq[1]) {
        conf_free(value);
        return err_set(err, "--set '%s': expected KEY.PATH=VALUE (e.g. inter.latency=2us)",
                       assignment);
    }
    char path[256];
    size_t plen = (size_t)(eq - assignment);
    if (plen >= sizeof path || empty_part(assignment, plen)) {
        conf_free(value);
        return err_set(err, "--set '%s': %s", assignment,
                       plen >= sizeof path ? "key path too long"
                                           : "an empty part in the key path (two dots?)");
    }
    memcpy(path, assignment, plen);
    path[plen] = '\0';
    for (char *c = path; *c; c++) /* faults[0].seed is faults.0.seed (empty parts are skipped) */
        if (*c == '[' || *c == ']') *c = '.';
    struct conf_node *n = root, *parent = NULL;
    char *save = NULL, *last = NULL;
    for (char *c = strtok_r(path, ".", &save); c; c = strtok_r(NULL, ".", &save)) {
        if (last) {
            parent = n;
            n = step(n, last, assignment, err);
            if (!n) {
                conf_free(value);
                return false;
            }
        }
        last = c;
    }
    if (!last) {
        conf_free(value);
        return err_set(err, "--set '%s': empty key", assignment);
    }
    struct conf_node *v = value;
    if (!v) {
        v = set_node(CONF_SCALAR, assignment);
        v->value = strdup(eq + 1);
    }
    (void)parent;
    if (n->kind == CONF_SEQ) {
        if (!is_index(last) || strtol(last, NULL, 10) >= n->count) {
            conf_free(v);
            return err_set(err, "--set %s: bad list index '%s'", assignment, last);
        }
        long idx = strtol(last, NULL, 10);
        conf_free(n->items[idx]);
        n->items[idx] = v;
        return true;
    }
    if (n->kind != CONF_MAP) {
        conf_free(v);
        return err_set(err, "--set %s: parent of '%s' is a plain value", assignment, last);
    }
    if (!strcmp(last, "model")) drop_other_model_keys(n, v->value);
    conf_map_put(n, last, v);
    return true;
}

const char *conf_get_scalar(const struct conf_node *map, const char *path, const char *key,
                            struct sim_error *err) {
    struct conf_node *v = conf_map_get(map, key);
    const char *sep = path[0] ? "." : "";
    if (!v) {
        err_at(err, map->file, map->line, "missing key '%s%s%s'", path, sep, key);
        return NULL;
    }
    if (v->kind != CONF_SCALAR) {
        err_at(err, v->file, v->line, "'%s%s%s' must be a single value, found a %s", path, sep, key,
               v->kind == CONF_MAP ? "map" : "list");
        return NULL;
    }
    return v->value;
}

/* Reports a value that failed to parse. */
static bool bad_value(const struct conf_node *map, const char *path, const char *key,
                      const char *why, struct sim_error *err) {
    struct conf_node *v = conf_map_get(map, key);
    return err_at(err, v->file, v->line, "'%s%s%s': found '%s', expected %s", path,
                  path[0] ? "." : "", key, v->value, why);
}

bool conf_get_time(const struct conf_node *map, const char *path, const char *key, double *seconds,
                   struct sim_error *err) {
    const char *s = conf_get_scalar(map, path, key, err), *why;
    if (!s) return false;
    if (!units_parse_seconds(s, seconds, &why)) return bad_value(map, path, key, why, err);
    if (simtime_from_seconds(*seconds) == SIMTIME_NEVER)
        return bad_value(map, path, key,
                         "a time below the largest simulated time (" SIMTIME_LIMIT_TEXT ")", err);
    return true;
}

bool conf_get_size(const struct conf_node *map, const char *path, const char *key, bool inf_ok,
                   int64_t *out, struct sim_error *err) {
    const char *s = conf_get_scalar(map, path, key, err), *why;
    if (!s) return false;
    if (!units_parse_size(s, false, inf_ok, out, &why))
        return bad_value(map, path, key, inf_ok ? "a size with unit (e.g. 64KiB) or inf" : why,
                         err);
    return true;
}

bool conf_get_bandwidth(const struct conf_node *map, const char *path, const char *key, double *out,
                        struct sim_error *err) {
    const char *s = conf_get_scalar(map, path, key, err), *why;
    if (!s) return false;
    if (!units_parse_bandwidth(s, out, &why)) return bad_value(map, path, key, why, err);
    return true;
}

bool conf_get_int(const struct conf_node *map, const char *path, const char *key, int64_t min,
                  int64_t max, int64_t *out, struct sim_error *err) {
    const char *s = conf_get_scalar(map, path, key, err);
    if (!s) return false;
    char *end = NULL;
    errno = 0;
    long long v = strtoll(s, &end, 10);
    if (end == s || *end || errno == ERANGE || v < min || v > max) { /* (2^64: not INT64_MAX) */
        char why[96];
        snprintf(why, sizeof why, "an integer from %lld to %lld", (long long)min, (long long)max);
        return bad_value(map, path, key, why, err);
    }
    *out = v;
    return true;
}

/* Whether two maps name different point-to-point models (or one names one). */
static bool other_model(const struct conf_node *a, const struct conf_node *b) {
    const struct conf_node *ma = conf_map_get(a, "model"), *mb = conf_map_get(b, "model");
    if (!mb) return false; /* over does not change the model */
    const char *va = ma && ma->kind == CONF_SCALAR ? ma->value : "affine";
    return mb->kind != CONF_SCALAR || strcmp(va, mb->value) != 0;
}

static void merge_into(struct conf_node *base, struct conf_node *over) {
    for (int i = 0; i < over->count; i++) {
        struct conf_node *o = over->items[i], *b = conf_map_get(base, over->keys[i]);
        if (b && b->kind == CONF_MAP && o->kind == CONF_MAP && !other_model(b, o)) {
            merge_into(b, o);
            continue; /* o's children were taken; o itself stays with over */
        }
        over->items[i] = NULL; /* taken */
        conf_map_put(base, over->keys[i], o);
    }
}

void conf_merge(struct conf_node *base, struct conf_node *over) {
    merge_into(base, over);
    over->layer = base->layer;
    base->layer = over;
}

void conf_dump_origins(const struct conf_node *n, int indent, void *file) {
    FILE *f = file;
    for (int i = 0; i < n->count; i++) {
        const struct conf_node *c = n->items[i];
        if (n->kind == CONF_MAP)
            fprintf(f, "%*s%s:", indent, "", n->keys[i]);
        else
            fprintf(f, "%*s-", indent, "");
        if (c->kind == CONF_SCALAR) {
            fprintf(f, " %-*s # %s",
                    24 - indent - (n->kind == CONF_MAP ? (int)strlen(n->keys[i]) : 0),
                    c->value ? c->value : "", c->file);
            if (c->line) fprintf(f, ":%d", c->line);
            fprintf(f, "\n");
        } else {
            fprintf(f, "\n");
            conf_dump_origins(c, indent + 2, f);
        }
    }
}
