/* SPDX-License-Identifier: BSD-3-Clause */
/* MPICH's collective selection file (coll_selection.json, the tree MPICH 4
 * reads from MPIR_CVAR_COLL_SELECTION_TUNING_JSON_FILE), as the `mpich`
 * selector's rules: mpi.coll.selection: FILE. The tree is checked whole
 * when loaded (every condition understood; an algorithm simpi has no
 * schedule for is said once, and calls that reach it follow MPICH's
 * built-in rule) and walked per call as MPICH walks it: under
 * "collective=NAME", at each level the first key whose condition holds,
 * down to "algorithm=MPIR_...". A call's facts are those simpi knows: an
 * intra-communicator without node levels (comm_hierarchy=any), built-in
 * commutative operations, separate send buffers, regular blocks, count =
 * bytes / 8 (traces carry bytes only). Branches those facts never take
 * (comm_type=inter, is_commutative=no, ...) are not checked. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/readfile.h"
#include "mpi/coll/coll.h"
#include "platform/yaml_load.h"

/* The facts a condition is tested against. */
struct call_facts {
    int32_t n;
    int64_t avg, total, count;
};

/* MPICH's name of an operation in the file (a reduce-scatter of blocks is
 * its reduce_scatter_block). */
static const char *mpich_collective(enum coll_kind kind) {
    return kind == COLL_REDUCE_SCATTER ? "reduce_scatter_block" : sim_coll_name(kind);
}

/* Operations whose size is a block per rank: their total is n blocks. */
static bool per_rank_blocks(enum coll_kind kind) {
    return kind == COLL_GATHER || kind == COLL_SCATTER || kind == COLL_ALLGATHER ||
           kind == COLL_ALLTOALL || kind == COLL_REDUCE_SCATTER;
}

/* MPICH's names that differ from simpi's. */
static const char *const aliases[][2] = {
    {"brucks", "bruck"},
    {"reduce_scatter_allgather", "rabenseifner"},
    {"reduce_scatter_gather", "rabenseifner"},
    {"scatter_recursive_doubling_allgather", "scatter_rd_allgather"},
    {"k_dissemination", "dissemination"},
    {"scattered", "linear"},
    {"pairwise_sendrecv_replace", "pairwise"},
    {"permuted_sendrecv", "linear"},
};

/* simpi's algorithm for MPICH's "MPIR_<Op>_intra[_sched]_NAME" or
 * "MPIR_<Op>_allcomm[_sched]_NAME"; NULL if it has none. */
static const struct coll_algo *algo_for(enum coll_kind kind, const char *mpich) {
    static const char *const parts[] = {"_intra_sched_", "_allcomm_sched_", "_intra_", "_allcomm_"};
    const char *name = NULL;
    for (size_t i = 0; i < sizeof parts / sizeof *parts && !name; i++) {
        const char *p = strstr(mpich, parts[i]);
        if (p) name = p + strlen(parts[i]);
    }
    if (!name) return NULL;
    for (size_t i = 0; i < sizeof aliases / sizeof *aliases; i++)
        if (!strcmp(name, aliases[i][0])) name = aliases[i][1];
    return coll_find(kind, name);
}

/* Splits "name<op>value" at its operator ("<=", "<" or "="). */
static bool split_condition(const char *key, char *name, size_t n, char *op, const char **value) {
    size_t len = strcspn(key, "<=");
    if (!key[len] || len == 0 || len >= n) return false;
    memcpy(name, key, len);
    name[len] = '\0';
    const char *o = key + len;
    size_t olen = !strncmp(o, "<=", 2) ? 2 : 1;
    memcpy(op, o, olen);
    op[olen] = '\0';
    *value = o + olen;
    return **value != '\0';
}

/* Whether a numeric condition's value compares as op says: "any" always. */
static int compare(int64_t fact, const char *op, const char *value) {
    if (!strcmp(value, "any") && !strcmp(op, "=")) return 1;
    char *end;
    long long v = strtoll(value, &end, 10);
    if (*end) return -1;
    return !strcmp(op, "<") ? fact < v : !strcmp(op, "<=") ? fact <= v : fact == v;
}

/* Whether condition `key` holds for the call: 1, 0, or -1 if simpi does
 * not understand it. */
static int holds(const char *key, const struct call_facts *f) {
    char name[64], op[3];
    const char *value;
    if (!split_condition(key, name, sizeof name, op, &value)) return -1;
    bool eq = !strcmp(op, "=");
    if (!strcmp(name, "comm_type") && eq)
        return !strcmp(value, "intra") ? 1 : !strcmp(value, "inter") ? 0 : -1;
    if (!strcmp(name, "comm_hierarchy") && eq) /* a flat communicator: no node levels */
        return !strcmp(value, "any");
    if (!strcmp(name, "comm_size") && eq && !strcmp(value, "pow2")) return coll_pow2(f->n);
    if (!strcmp(name, "comm_size") && eq && !strcmp(value, "node_comm_size")) return 0;
    if (!strcmp(name, "comm_size")) return compare(f->n, op, value);
    if (!strcmp(name, "avg_msg_size")) return compare(f->avg, op, value);
    if (!strcmp(name, "total_msg_size")) return compare(f->total, op, value);
    if (!strcmp(name, "count") && !strcmp(op, "<") && !strcmp(value, "pow2"))
        return f->count < coll_pof2_floor(f->n);
    if (!strcmp(name, "count")) return compare(f->count, op, value);
    static const char *const yes[] = {"is_op_built_in", "is_commutative", "is_block_regular",
                                      "is_node_consecutive"};
    static const char *const no[] = {"is_sendbuf_inplace"};
    bool yes_no = eq && (!strcmp(value, "yes") || !strcmp(value, "no"));
    for (size_t i = 0; yes_no && i < sizeof yes / sizeof *yes; i++)
        if (!strcmp(name, yes[i])) return !strcmp(value, "yes");
    for (size_t i = 0; yes_no && i < sizeof no / sizeof *no; i++)
        if (!strcmp(name, no[i])) return !strcmp(value, "no");
    return -1;
}

/* Walks the levels below `node` for the call; the MPICH algorithm's key,
 * with the keys taken appended to path, or NULL. */
static const char *walk(const struct conf_node *node, const struct call_facts *f, char *path,
                        size_t n) {
    while (node && node->kind == CONF_MAP) {
        const struct conf_node *next = NULL;
        for (int i = 0; i < node->count && !next; i++) {
            const char *key = node->keys[i];
            if (path) snprintf(path + strlen(path), n - strlen(path), " > %s", key);
            if (!strncmp(key, "algorithm=", 10)) return key + 10;
            if (holds(key, f) == 1)
                next = node->items[i];
            else if (path)
                path[strlen(path) - strlen(key) - 3] = '\0';
        }
        node = next;
    }
    return NULL;
}

const struct coll_algo *coll_selection_pick(const struct conf_node *tree, enum coll_kind kind,
                                            int32_t n, int64_t size, bool nonblocking, char *path,
                                            size_t pathlen) {
    char top[64];
    const struct conf_node *c = NULL;
    if (nonblocking) {
        snprintf(top, sizeof top, "collective=i%s", mpich_collective(kind));
        c = conf_map_get(tree, top);
    }
    if (!c) {
        snprintf(top, sizeof top, "collective=%s", mpich_collective(kind));
        c = conf_map_get(tree, top);
    }
    if (!c) return NULL;
    struct call_facts f = {n, size, per_rank_blocks(kind) ? size * n : size, size / 8};
    if (path) snprintf(path, pathlen, "%s", top);
    const char *mpich = walk(c, &f, path, pathlen);
    return mpich ? algo_for(kind, mpich) : NULL;
}

/* --- checking the whole file when loaded --- */

/* MPICH's collectives that simpi schedules under other kinds (variable
 * counts, neighbourhoods) or not at all: their rules are not used. */
static bool mpich_only(const char *collective) {
    static const char *const names[] = {
        "gatherv",           "scatterv",           "allgatherv",         "alltoallv",
        "alltoallw",         "reduce_scatter",     "neighbor_allgather", "neighbor_allgatherv",
        "neighbor_alltoall", "neighbor_alltoallv", "neighbor_alltoallw"};
    const char *c = collective[0] == 'i' ? collective + 1 : collective;
    for (size_t i = 0; i < sizeof names / sizeof *names; i++)
        if (!strcmp(collective, names[i]) || !strcmp(c, names[i])) return true;
    return false;
}

static int kind_of(const char *collective, bool *nonblocking) {
    *nonblocking = false;
    for (int pass = 0; pass < 2; pass++)
        for (int k = 0; k < COLL_KINDS; k++) {
            const char *name = mpich_collective((enum coll_kind)k);
            if (pass == 1 && collective[0] == 'i' && !strcmp(collective + 1, name)) {
                *nonblocking = true;
                return k;
            }
            if (pass == 0 && !strcmp(collective, name)) return k;
        }
    return COLL_KINDS;
}

/* Whether a condition tests a fact that is the same for every call (so
 * that holding or not, it does so always). */
static bool constant_condition(const char *key) {
    return !strncmp(key, "comm_type=", 10) || !strncmp(key, "comm_hierarchy=", 15) ||
           !strncmp(key, "is_", 3) || !strcmp(key, "comm_size=node_comm_size");
}

/* Every condition below `node` understood, every algorithm simpi's. */
static bool check_level(const struct conf_node *node, enum coll_kind kind, struct sim_error *err) {
    if (node->kind != CONF_MAP)
        return err_at(err, node->file, node->line, "expected a map of conditions ({...})");
    for (int i = 0; i < node->count; i++) {
        const char *key = node->keys[i];
        const struct conf_node *v = node->items[i];
        if (!strncmp(key, "algorithm=", 10)) {
            if (algo_for(kind, key + 10)) continue;
            const char *names[COLL_ALGOS + 1];
            int k = coll_names(kind, names, COLL_ALGOS);
            char list[512] = "";
            for (int j = 0; j < k; j++)
                snprintf(list + strlen(list), sizeof list - strlen(list), "%s%s", j ? ", " : "",
                         names[j]);
            fprintf(stderr,
                    "simpi: warning: %s:%d: '%s': simpi has no schedule for this MPICH "
                    "algorithm (its %s algorithms: %s); calls that reach it follow MPICH's "
                    "built-in rule\n",
                    v->file, v->line, key + 10, sim_coll_name(kind), list);
            continue;
        }
        struct call_facts probe = {4, 8, 8, 1};
        if (holds(key, &probe) < 0)
            return err_at(err, v->file, v->line,
                          "condition '%s' is not one simpi evaluates (comm_type, comm_hierarchy, "
                          "comm_size, avg_msg_size, total_msg_size, count, is_op_built_in, "
                          "is_commutative, is_sendbuf_inplace, is_block_regular, "
                          "is_node_consecutive)",
                          key);
        if (constant_condition(key) && holds(key, &probe) == 0) continue; /* never taken */
        if (!check_level(v, kind, err)) return false;
    }
    return true;
}

struct conf_node *coll_selection_load(const char *path, struct sim_error *err) {
    size_t len;
    char *text = readfile(path, (size_t)16 << 20, &len, "collective selection file", err);
    if (!text) return NULL;
    struct conf_node *tree = yaml_load_buffer(text, len, path, err);
    free(text);
    if (!tree) return NULL;
    for (int i = 0; i < tree->count; i++) {
        const char *key = tree->keys[i];
        bool nonblocking;
        if (strncmp(key, "collective=", 11)) {
            err_at(err, tree->items[i]->file, tree->items[i]->line,
                   "'%s': expected collective=NAME at the top of MPICH's selection file", key);
            conf_free(tree);
            return NULL;
        }
        int kind = kind_of(key + 11, &nonblocking);
        if (kind == COLL_KINDS && mpich_only(key + 11)) continue; /* rules simpi does not use */
        if (kind == COLL_KINDS) {
            err_at(err, tree->items[i]->file, tree->items[i]->line,
                   "'%s': not one of MPICH's collectives (bcast, allreduce, ... as in MPICH "
                   "4's coll_selection.json; an i prefix for the non-blocking ones)",
                   key);
            conf_free(tree);
            return NULL;
        }
        if (!check_level(tree->items[i], (enum coll_kind)kind, err)) {
            conf_free(tree);
            return NULL;
        }
    }
    return tree;
}
