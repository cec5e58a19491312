/* SPDX-License-Identifier: BSD-3-Clause */
/* Several jobs on one platform (docs/jobs.md): the jobs read from the
 * command line or a --jobs YAML file, and their placement. Explicit node
 * lists are taken first; the other jobs then take, in their order, the
 * nodes their policy picks among those still free. A job's ranks fill its
 * nodes block-wise, ranks_per_node to a node. */
#include "replay/jobs.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/alloc.h"
#include "core/readfile.h"
#include "core/units.h"
#include "platform/yaml_load.h"

#define JOBS_MAX_LISTED (1 << 24) /* nodes a job's list may name */

static const char *const policy_names[] = {"contiguous", "random", "round_robin", NULL};

/* A name for a job from its trace's path: the file's name, with the job's
 * number after it when an earlier job has it already. */
static char *name_from_path(const struct job_set *js, const char *path, int32_t index) {
    const char *slash = strrchr(path, '/');
    const char *base = slash && slash[1] ? slash + 1 : path;
    for (int32_t j = 0; j < index; j++)
        if (js->job[j].name && !strcmp(js->job[j].name, base)) {
            char buf[512];
            snprintf(buf, sizeof buf, "%s#%d", base, index + 1);
            return xstrdup(buf);
        }
    return xstrdup(base);
}

void jobs_from_traces(struct job_set *js, char *const *traces, int n) {
    memset(js, 0, sizeof *js);
    js->job = xcalloc((size_t)n, sizeof *js->job);
    js->n = n;
    js->seed = 1;
    for (int j = 0; j < n; j++) {
        struct job_spec *job = &js->job[j];
        job->trace = xstrdup(traces[j]);
        job->name = name_from_path(js, traces[j], j);
        snprintf(job->where, sizeof job->where, "job %d (%s)", j + 1, traces[j]);
    }
}

void jobs_free(struct job_set *js) {
    for (int32_t j = 0; j < js->n; j++) {
        free(js->job[j].name);
        free(js->job[j].trace);
        free(js->job[j].nodes);
    }
    free(js->job);
    memset(js, 0, sizeof *js);
}

/* One item of a node list: a node number or a range "A-B". */
static bool read_node_item(const struct conf_node *item, const char *path, struct job_spec *job,
                           struct sim_error *err) {
    long long a, b;
    char tail;
    const char *v = item->kind == CONF_SCALAR ? item->value : "";
    int got = sscanf(v, "%lld - %lld %c", &a, &b, &tail);
    if (got == 1) b = a;
    if ((got != 1 && got != 2) || a < 0 || b < a || b >= INT32_MAX)
        return err_set(err, "%s:%d: %s: found '%s', expected a node number or a range such as 4-7",
                       item->file, item->line, path, v);
    if (job->nnodes + (b - a + 1) > JOBS_MAX_LISTED)
        return err_set(err, "%s:%d: %s: the list names more than %d nodes", item->file, item->line,
                       path, JOBS_MAX_LISTED);
    job->nodes =
        xrealloc_or_die(job->nodes, sizeof *job->nodes * (size_t)(job->nnodes + b - a + 1));
    for (long long k = a; k <= b; k++)
        job->nodes[job->nnodes++] = (int32_t)k;
    return true;
}

static bool read_node_list(const struct conf_node *seq, const char *path, struct job_spec *job,
                           struct sim_error *err) {
    job->policy = JOB_LIST;
    if (seq->count == 0)
        return err_set(err, "%s:%d: %s: the list of nodes is empty", seq->file, seq->line, path);
    for (int i = 0; i < seq->count; i++)
        if (!read_node_item(seq->items[i], path, job, err)) return false;
    return true;
}

/* placement: a policy's name or a list of nodes; nodes: a list. */
static bool read_policy(const struct conf_node *m, const char *path, struct job_spec *job,
                        int default_policy, struct sim_error *err) {
    char where[96];
    job->policy = (enum job_policy)default_policy;
    const struct conf_node *nodes = conf_map_get(m, "nodes");
    const struct conf_node *pl = conf_map_get(m, "placement");
    if (nodes && pl)
        return err_set(err, "%s:%d: %s: give 'nodes' or 'placement', not both", m->file, m->line,
                       path);
    snprintf(where, sizeof where, "%s.%s", path, nodes ? "nodes" : "placement");
    if (nodes && nodes->kind != CONF_SEQ)
        return err_set(err, "%s:%d: %s: expected a list of nodes such as [0, 1, 8-15]", nodes->file,
                       nodes->line, where);
    if (nodes || (pl && pl->kind == CONF_SEQ))
        return read_node_list(nodes ? nodes : pl, where, job, err);
    int policy = default_policy;
    if (!conf_get_enum(m, path, "placement", policy_names, &policy, err)) return false;
    job->policy = (enum job_policy)policy;
    return true;
}

static bool read_job(struct job_set *js, int32_t j, const struct conf_node *m, const char *dir,
                     int default_policy, struct sim_error *err) {
    static const char *const keys[] = {"name",      "trace", "program",        "n", "start",
                                       "placement", "nodes", "ranks_per_node", NULL};
    char path[64], buf[4096];
    snprintf(path, sizeof path, "jobs[%d]", j);
    if (m->kind != CONF_MAP)
        return err_set(err, "%s:%d: %s: expected a map with trace:, start: and placement:", m->file,
                       m->line, path);
    if (!conf_check_keys(m, path, keys, err)) return false;
    struct job_spec *job = &js->job[j];
    snprintf(job->where, sizeof job->where, "%s:%d", m->file, m->line);
    const struct conf_node *prog = conf_map_get(m, "program");
    if (prog)
        return err_set(err,
                       "%s:%d: %s.program: on-line programs as jobs are not simulated yet (simpi "
                       "run simulates one program); record its trace with simpi run --trace-out "
                       "FILE.sbt and give that file as trace:",
                       prog->file, prog->line, path);
    const char *trace = conf_get_scalar(m, path, "trace", err);
    if (!trace) return false;
    job->trace = xstrdup(
        trace[0] == '/' || !dir[0] ? trace : (snprintf(buf, sizeof buf, "%s/%s", dir, trace), buf));
    const struct conf_node *n = conf_map_get(m, "n");
    if (n)
        return err_set(err,
                       "%s:%d: %s.n: the rank count belongs to an on-line program:; a trace "
                       "says its own",
                       n->file, n->line, path);
    const struct conf_node *name = conf_map_get(m, "name");
    if (name && (name->kind != CONF_SCALAR || !name->value[0]))
        return err_set(err, "%s:%d: %s.name: expected a name such as halo", name->file, name->line,
                       path);
    job->name = name ? xstrdup(name->value) : name_from_path(js, trace, j);
    double start = 0;
    if (conf_map_get(m, "start") && !conf_get_time(m, path, "start", &start, err)) return false;
    if (start < 0 || start > 1e6)
        return err_set(err, "%s:%d: %s.start: expected a time from 0 to 1e6 s", m->file, m->line,
                       path);
    job->start = simtime_from_seconds(start);
    if (conf_map_get(m, "ranks_per_node") &&
        !conf_get_int(m, path, "ranks_per_node", 1, INT32_MAX, &job->ranks_per_node, err))
        return false;
    return read_policy(m, path, job, default_policy, err);
}

/* The folder of path ("" for the current one). */
static void folder_of(const char *path, char *dir, size_t n) {
    const char *slash = strrchr(path, '/');
    size_t len = slash ? (size_t)(slash - path) : 0;
    if (len >= n) len = n - 1;
    memcpy(dir, path, len);
    dir[len] = 0;
    if (slash && len == 0) snprintf(dir, n, "/");
}

static bool read_jobs(struct job_set *js, const struct conf_node *root, const char *dir,
                      struct sim_error *err) {
    static const char *const keys[] = {"jobs", "placement", "seed", NULL};
    if (!conf_check_keys(root, "", keys, err)) return false;
    int policy = JOB_CONTIGUOUS;
    if (!conf_get_enum(root, "", "placement", policy_names, &policy, err)) return false;
    int64_t seed = 1;
    if (conf_map_get(root, "seed") && !conf_get_int(root, "", "seed", 0, INT64_MAX, &seed, err))
        return false;
    js->seed = (uint64_t)seed;
    const struct conf_node *list = conf_map_get(root, "jobs");
    if (!list || list->kind != CONF_SEQ || list->count == 0)
        return err_set(err,
                       "%s:%d: jobs: expected a list of jobs, each with its trace:", root->file,
                       list ? list->line : root->line);
    js->job = xcalloc((size_t)list->count, sizeof *js->job);
    js->n = list->count;
    for (int32_t j = 0; j < js->n; j++) {
        if (!read_job(js, j, list->items[j], dir, policy, err)) return false;
        for (int32_t k = 0; k < j; k++) /* names key the reports (a sweep's per job) */
            if (!strcmp(js->job[k].name, js->job[j].name))
                return err_set(err, "%s: jobs[%d]: the name '%s' is jobs[%d]'s already",
                               js->job[j].where, j, js->job[j].name, k);
    }
    return true;
}

bool jobs_load_buffer(struct job_set *js, const char *text, size_t len, const char *path,
                      struct sim_error *err) {
    memset(js, 0, sizeof *js);
    struct conf_node *root = yaml_load_buffer(text, len, path, err);
    if (!root) return false;
    char dir[4096];
    folder_of(path, dir, sizeof dir);
    bool ok = read_jobs(js, root, dir, err);
    conf_free(root);
    if (!ok) jobs_free(js);
    return ok;
}

bool jobs_load(struct job_set *js, const char *path, struct sim_error *err) {
    memset(js, 0, sizeof *js);
    size_t len;
    char *text = readfile(path, 64 << 20, &len, "jobs file", err);
    if (!text) return false;
    bool ok = jobs_load_buffer(js, text, len, path, err);
    free(text);
    return ok;
}

/* --- placement --- */

struct node_pool {
    int32_t *owner; /* per node: the job holding it + 1, or 0 */
    int64_t nodes;
};

static uint64_t splitmix(uint64_t *x) {
    uint64_t z = (*x += 0x9e3779b97f4a7c15ull);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
    return z ^ (z >> 31);
}

/* The free nodes in order, in a new array (*n of them). */
static int32_t *free_nodes(const struct node_pool *pool, int64_t *n) {
    int32_t *f = xcalloc((size_t)pool->nodes + 1, sizeof *f);
    *n = 0;
    for (int64_t v = 0; v < pool->nodes; v++)
        if (!pool->owner[v]) f[(*n)++] = (int32_t)v;
    return f;
}

/* A free node and its place in a round-robin deal. */
struct dealt {
    int64_t key; /* its rank among its group's free nodes, then its group */
    int32_t node;
};

static int by_deal(const void *a, const void *b) {
    const struct dealt *x = a, *y = b;
    return x->key < y->key ? -1 : x->key > y->key;
}

/* The free nodes in a round-robin deal over the groups: each group's first
 * free node in group order, then each one's second, and so on. */
static void deal_round_robin(int32_t *f, int64_t n, int64_t group) {
    int64_t groups = f[n - 1] / group + 1;
    int64_t *seen = xcalloc((size_t)groups, sizeof *seen);
    struct dealt *d = xcalloc((size_t)n, sizeof *d);
    for (int64_t i = 0; i < n; i++) {
        int64_t g = f[i] / group;
        d[i] = (struct dealt){seen[g]++ * groups + g, f[i]};
    }
    qsort(d, (size_t)n, sizeof *d, by_deal);
    for (int64_t i = 0; i < n; i++)
        f[i] = d[i].node;
    free(seen);
    free(d);
}

/* Orders the free nodes as policy takes them (the first `want` matter). */
static void order_free(int32_t *f, int64_t n, int64_t want, enum job_policy policy, uint64_t seed,
                       int64_t group) {
    if (policy == JOB_RANDOM) { /* the first `want` of a seeded Fisher-Yates shuffle */
        for (int64_t i = 0; i < want && i < n; i++) {
            int64_t k = i + (int64_t)(splitmix(&seed) % (uint64_t)(n - i));
            int32_t t = f[i];
            f[i] = f[k];
            f[k] = t;
        }
    } else if (policy == JOB_ROUND_ROBIN) {
        deal_round_robin(f, n, group);
    }
}

/* The nodes job j needs for its ranks. */
static int64_t nodes_needed(int64_t ranks, int64_t per_node) {
    return (ranks + per_node - 1) / per_node;
}

int64_t jobs_ranks_per_node(const struct job_spec *job, const struct platform *p) {
    return job->ranks_per_node ? job->ranks_per_node : p->ranks_per_node;
}

/* Takes the listed nodes of job j (policy JOB_LIST). */
static bool take_listed(struct node_pool *pool, const struct job_set *js, int32_t j,
                        const int64_t *ranks, const struct platform *p, struct sim_error *err) {
    const struct job_spec *job = &js->job[j];
    int64_t need = nodes_needed(ranks[j], jobs_ranks_per_node(job, p));
    if (job->nnodes < need)
        return err_set(err,
                       "%s: job %s lists %lld nodes but its %lld ranks need %lld (%lld a node)",
                       job->where, job->name, (long long)job->nnodes, (long long)ranks[j],
                       (long long)need, (long long)jobs_ranks_per_node(job, p));
    for (int64_t i = 0; i < job->nnodes; i++) {
        int32_t v = job->nodes[i];
        if (v >= pool->nodes)
            return err_set(err, "%s: job %s lists node %d, but the platform has %lld nodes",
                           job->where, job->name, v, (long long)pool->nodes);
        if (pool->owner[v])
            return err_set(err, "%s: job %s lists node %d, which job %s holds already", job->where,
                           job->name, v, js->job[pool->owner[v] - 1].name);
        pool->owner[v] = j + 1;
    }
    return true;
}

/* Job j's nodes in the order its ranks fill them, into nodes (room for
 * need). */
static bool take_by_policy(struct node_pool *pool, const struct job_set *js, int32_t j,
                           int64_t need, int64_t group, int32_t *nodes, struct sim_error *err) {
    const struct job_spec *job = &js->job[j];
    if (job->policy == JOB_ROUND_ROBIN && group <= 0)
        return err_set(err,
                       "%s: job %s: round_robin deals nodes from the topology's groups "
                       "(dragonfly groups, fat-tree leaves); this network has none: use "
                       "contiguous, random or a list",
                       job->where, job->name);
    int64_t nfree;
    int32_t *f = free_nodes(pool, &nfree);
    bool ok = nfree >= need;
    if (!ok)
        err_set(err,
                "%s: job %s needs %lld nodes but only %lld of the platform's %lld are free "
                "(add nodes, e.g. --set nodes=%lld)",
                job->where, job->name, (long long)need, (long long)nfree, (long long)pool->nodes,
                (long long)(pool->nodes + need - nfree));
    if (ok && nfree)
        order_free(f, nfree, need, job->policy, js->seed * 0x100000001b3ull + (uint64_t)j, group);
    for (int64_t i = 0; ok && i < need; i++) {
        nodes[i] = f[i];
        pool->owner[f[i]] = j + 1;
    }
    free(f);
    return ok;
}

int64_t jobs_nodes_needed(const struct job_set *js, const int64_t *ranks,
                          const struct platform *p) {
    int64_t n = 0, listed = 0;
    for (int32_t j = 0; j < js->n; j++) {
        const struct job_spec *job = &js->job[j];
        if (job->policy != JOB_LIST) n += nodes_needed(ranks[j], jobs_ranks_per_node(job, p));
        for (int64_t i = 0; job->policy == JOB_LIST && i < job->nnodes; i++) {
            n++;
            if (job->nodes[i] + 1 > listed) listed = job->nodes[i] + 1;
        }
    }
    return n > listed ? n : listed;
}

int32_t *jobs_place(const struct job_set *js, const int64_t *ranks, struct platform *p,
                    int64_t group, struct sim_error *err) {
    if (p->nodes == 0) p->nodes = jobs_nodes_needed(js, ranks, p);
    int64_t total = 0;
    for (int32_t j = 0; j < js->n; j++)
        total += ranks[j];
    if (total > INT32_MAX) {
        err_set(err, "the jobs have %lld ranks in all; at most %d can be simulated at once",
                (long long)total, INT32_MAX);
        return NULL;
    }
    struct node_pool pool = {xcalloc((size_t)p->nodes, sizeof *pool.owner), p->nodes};
    int32_t **nodes = xcalloc((size_t)js->n, sizeof *nodes);
    bool ok = true;
    for (int32_t j = 0; ok && j < js->n; j++)
        if (js->job[j].policy == JOB_LIST) ok = take_listed(&pool, js, j, ranks, p, err);
    for (int32_t j = 0; ok && j < js->n; j++) {
        const struct job_spec *job = &js->job[j];
        int64_t need = nodes_needed(ranks[j], jobs_ranks_per_node(job, p));
        nodes[j] = xcalloc((size_t)need + 1, sizeof **nodes);
        if (job->policy == JOB_LIST)
            memcpy(nodes[j], job->nodes, sizeof *job->nodes * (size_t)need);
        else
            ok = take_by_policy(&pool, js, j, need, group, nodes[j], err);
    }
    int32_t *list = ok ? xcalloc((size_t)total + 1, sizeof *list) : NULL;
    for (int64_t j = 0, at = 0; ok && j < js->n; j++) {
        int64_t per = jobs_ranks_per_node(&js->job[j], p);
        for (int64_t i = 0; i < ranks[j]; i++)
            list[at++] = nodes[j][i / per];
    }
    for (int32_t j = 0; j < js->n; j++)
        free(nodes[j]);
    free(nodes);
    free(pool.owner);
    return list;
}
