/* SPDX-License-Identifier: BSD-3-Clause */
/* A configuration tree (maps, sequences, scalars) that remembers where each
 * node came from, so that every later check can name file, line and key.
 * Filled by the platform's YAML loader and by --set overrides; read by the
 * platform and by the network models. */
#ifndef SIMPI_CONF_H
#define SIMPI_CONF_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "core/error.h"

enum conf_kind { CONF_SCALAR, CONF_MAP, CONF_SEQ };

struct conf_node {
    enum conf_kind kind;
    int line;
    const char *file; /* owned by the root; shared by all nodes */
    char *value;      /* scalar text */
    int count;        /* map entries or sequence items */
    int cap;
    char **keys;              /* map keys */
    struct conf_node **items; /* map values or sequence items */
    char *owned_file;         /* set on the root only */
    struct conf_node *layer;  /* root: the tree merged into this one (kept for its file name) */
    int32_t *index;           /* large maps: key -> entry + 1, open addressing (or NULL) */
    int index_cap;
};

struct conf_node *conf_new(enum conf_kind kind, const char *file, int line);
void conf_free(struct conf_node *n);
/* Appends to a map (key copied) or a sequence. */
void conf_map_put(struct conf_node *map, const char *key, struct conf_node *value);
void conf_seq_push(struct conf_node *seq, struct conf_node *item);
struct conf_node *conf_map_get(const struct conf_node *map, const char *key);

/* Checks that every key of map is in allowed (NULL-terminated); the error names
 * the file, line and path, with a "did you mean" when a key is close. */
bool conf_check_keys(const struct conf_node *map, const char *path, const char *const *allowed,
                     struct sim_error *err);

/* Applies one "a.b.c=value" override: creates missing map keys, indexes
 * sequences by number. */
bool conf_set_path(struct conf_node *root, const char *assignment, struct sim_error *err);
/* The same with the value given as a node (taken, freed on failure): a
 * flow list or map written after '=' ("placement=[0,1]"), parsed. */
bool conf_set_path_node(struct conf_node *root, const char *assignment, struct conf_node *value,
                        struct sim_error *err);

/* Typed getters on map[key]; each error names file, line, path and expectation.
 * When the key is absent: returns false with *present = false if present != NULL,
 * otherwise reports a missing key. */
bool conf_get_time(const struct conf_node *map, const char *path, const char *key, double *seconds,
                   struct sim_error *err);
bool conf_get_size(const struct conf_node *map, const char *path, const char *key, bool inf_ok,
                   int64_t *out, struct sim_error *err);
bool conf_get_bandwidth(const struct conf_node *map, const char *path, const char *key, double *out,
                        struct sim_error *err);
bool conf_get_int(const struct conf_node *map, const char *path, const char *key, int64_t min,
                  int64_t max, int64_t *out, struct sim_error *err);
/* The scalar text at map[key], or an error. */
const char *conf_get_scalar(const struct conf_node *map, const char *path, const char *key,
                            struct sim_error *err);

/* Enumerated values. simpi spells every name with underscores (fat_tree,
 * recursive_doubling, link_latency); a hyphen is read as an underscore and
 * letters' case is ignored, so `fat-tree`, `Recursive-Doubling` and
 * `FAT_TREE` name the same thing. conf_name_eq compares two names that way;
 * conf_name_find returns given's index in names (NULL-terminated) or -1;
 * conf_name_closest the nearest of names within a few edits, or NULL. */
bool conf_name_eq(const char *a, const char *b);
int conf_name_find(const char *given, const char *const *names);
const char *conf_name_closest(const char *given, const char *const *names);
/* Writes "found 'X' (did you mean 'Y'?), expected one of: a, b, c" into buf. */
void conf_name_expected(const char *given, const char *const *names, char *buf, size_t len);
/* map[key] as an index into names, with a "did you mean" error naming the
 * file, line and path; *out is left alone when the key is absent. */
bool conf_get_enum(const struct conf_node *map, const char *path, const char *key,
                   const char *const *names, int *out, struct sim_error *err);

/* Layers `over` (a map) onto `base` (a map), taking over's nodes: its keys
 * replace base's, maps present in both are merged key by key, except that
 * a map naming a different `model:` replaces the base's whole map (a model
 * has its own keys). `over` is then owned by base. */
void conf_merge(struct conf_node *base, struct conf_node *over);

/* Writes the tree back as YAML (for `platform show`), each value followed
 * by where it came from (# file:line, # --set ...). */
void conf_dump_origins(const struct conf_node *n, int indent, void *file);

#endif
