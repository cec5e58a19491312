/* SPDX-License-Identifier: BSD-3-Clause */
/* `simpi topo`: the statistics of the platform's topology that xSim's
 * study reports: nodes, switches, links, diameter, average hop distance
 * between uniformly random pairs and between neighbours (node i to i+1),
 * the bisection width (by formula) and the histogram of hop distances.
 * Up to 4,096 nodes every pair is
 * measured; beyond, the pairs from 16 source nodes (node 0 and 15 chosen
 * by a fixed seed) to every node, and the figures say so. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli/cli.h"
#include "core/alloc.h"
#include "core/memstat.h"
#include "core/outfile.h"
#include "core/units.h"
#include "net/network.h"

#define EXACT_NODES 4096
#define SAMPLE_SOURCES 16

struct topo_stats {
    int64_t nodes, switches, links, pairs, hist_len, bisection; /* -1: not computed */
    const char *bisection_how;
    int64_t *hist; /* pairs at each distance */
    int32_t diameter;
    double avg_random, avg_neighbour, seconds;
    bool exact;
};

static int64_t count_links(const struct topology *t) {
    if (t->ops == &topo_full) return t->nodes * (t->nodes - 1);
    int64_t n = 0, from, to;
    for (int64_t l = 0; l < t->links; l++)
        n += topology_link_ends(t, l, &from, &to);
    return n;
}

/* Bisection width: directed links from one half of the nodes to the
 * other, by the shape's formula (an upper bound of the true minimum, which
 * these cuts reach for the regular shapes below). */
static int64_t bisection(const struct topology *t, const char **how) {
    int64_t n = t->nodes;
    *how = "formula";
    if (t->ops == &topo_ring) return t->bidirectional ? 2 : 1;
    if (t->ops == &topo_full) return (n / 2) * (n - n / 2);
    if (t->ops == &topo_star) return n / 2;
    if (t->ops == &topo_mesh || t->ops == &topo_torus) {
        int d = 0; /* cut across the largest dimension */
        for (int i = 1; i < t->ndims; i++)
            if (t->dims[i] > t->dims[d]) d = i;
        *how = "formula: a cut across the largest dimension";
        return n / t->dims[d] * (t->wrap[d] && t->dims[d] > 2 ? 2 : 1);
    }
    if (t->ops == &topo_fat_tree && t->arity) return n / 2; /* k-ary n-trees: full */
    if (t->ops == &topo_tree) return t->arity / 2;
    if (t->ops == &topo_dragonfly) {
        *how = "formula: half of the groups against the other half";
        int64_t per_pair = t->routers * t->globals / (t->groups - 1);
        return (t->groups / 2) * (t->groups - t->groups / 2) * per_pair;
    }
    *how = "not computed for this shape";
    return -1;
}

/* Distances from every node to source s (symmetric networks: from s). */
static void add_source(struct topology *t, int64_t s, struct topo_stats *st, double *sum) {
    for (int64_t b = 0; b < t->nodes; b++) {
        if (b == s) continue;
        int32_t d = topology_distance(t, b, s);
        if (d >= st->hist_len) d = (int32_t)st->hist_len - 1;
        st->hist[d]++;
        st->pairs++;
        *sum += d;
        if (d > st->diameter) st->diameter = d;
    }
}

static void measure(struct topology *t, struct topo_stats *st) {
    double t0 = memstat_wall_seconds(), sum = 0;
    st->nodes = t->nodes;
    st->switches = t->vertices - t->nodes;
    st->links = count_links(t);
    st->bisection = bisection(t, &st->bisection_how);
    st->hist_len = TOPO_MAX_HOPS + 1;
    st->hist = xcalloc((size_t)st->hist_len, sizeof *st->hist);
    st->exact = t->nodes <= EXACT_NODES;
    uint64_t x = 0x2545f4914f6cdd1dull;
    int nsrc = st->exact ? (int)t->nodes : SAMPLE_SOURCES;
    for (int i = 0; i < nsrc; i++) {
        int64_t s = i;
        if (!st->exact && i > 0) {
            x ^= x << 13, x ^= x >> 7, x ^= x << 17;
            s = (int64_t)(x % (uint64_t)t->nodes);
        }
        add_source(t, s, st, &sum);
    }
    st->avg_random = st->pairs ? sum / (double)st->pairs : 0;
    double nsum = 0;
    for (int64_t i = 0; i + 1 < t->nodes; i++)
        nsum += topology_distance(t, i, i + 1);
    st->avg_neighbour = t->nodes > 1 ? nsum / (double)(t->nodes - 1) : 0;
    while (st->hist_len > 1 && st->hist[st->hist_len - 1] == 0)
        st->hist_len--;
    st->seconds = memstat_wall_seconds() - t0;
}

static void print_text(const struct topology *t, const struct topo_stats *st) {
    printf("topology %s: %lld nodes, %lld switches, %lld links (%s)\n", t->ops->name,
           (long long)st->nodes, (long long)st->switches, (long long)st->links,
           t->own_params ? "each used both ways" : "directed");
    const char *how = st->exact ? "all pairs" : "pairs from 16 sampled nodes to every node";
    printf("diameter %s%d hops (%s)\n", st->exact ? "" : "at least ", st->diameter, how);
    printf("average hops: %.4f between random pairs (%s), %.4f between neighbours (node i "
           "to i+1)\n",
           st->avg_random, how, st->avg_neighbour);
    if (st->bisection >= 0)
        printf("bisection width %lld links each way (%s)\n", (long long)st->bisection,
               st->bisection_how);
    else
        printf("bisection width: %s\n", st->bisection_how);
    printf("hops  pairs\n");
    for (int64_t d = 1; d < st->hist_len; d++)
        if (st->hist[d]) printf("%4lld  %lld\n", (long long)d, (long long)st->hist[d]);
}

static bool write_json(const char *path, const struct topology *t, const struct topo_stats *st,
                       struct sim_error *err) {
    struct outfile o;
    if (!outfile_open(&o, path, err)) return false;
    fprintf(o.f,
            "{\"topology\": \"%s\", \"nodes\": %lld, \"switches\": %lld, \"links\": %lld, "
            "\"diameter\": %d, \"exact\": %s, \"pairs\": %lld, \"average_hops_random\": %.6f, "
            "\"average_hops_neighbour\": %.6f, \"bisection_width\": %lld, \"wall_time\": %.6f, "
            "\"histogram\": [",
            t->ops->name, (long long)st->nodes, (long long)st->switches, (long long)st->links,
            st->diameter, st->exact ? "true" : "false", (long long)st->pairs, st->avg_random,
            st->avg_neighbour, (long long)st->bisection, st->seconds);
    for (int64_t d = 0; d < st->hist_len; d++)
        fprintf(o.f, "%s%lld", d ? ", " : "", (long long)st->hist[d]);
    fprintf(o.f, "]}\n");
    return outfile_commit(&o, err);
}

/* The flat platform's statistics as JSON, in the keys of write_json: every
 * two nodes one hop apart, no switch, no link of the topology's own. */
static bool write_flat_json(const char *path, int64_t nodes, struct sim_error *err) {
    struct outfile o;
    if (!outfile_open(&o, path, err)) return false;
    char count[32] = "null", pairs[32] = "null"; /* null: as many nodes as the run needs */
    if (nodes > 0) {
        snprintf(count, sizeof count, "%lld", (long long)nodes);
        snprintf(pairs, sizeof pairs, "%lld", (long long)(nodes * (nodes - 1)));
    }
    fprintf(o.f,
            "{\"topology\": \"flat\", \"nodes\": %s, \"switches\": 0, \"links\": 0, "
            "\"diameter\": 1, \"exact\": true, \"pairs\": %s, \"average_hops_random\": 1, "
            "\"average_hops_neighbour\": 1, \"histogram\": [0, %s]}\n",
            count, pairs, pairs);
    return outfile_commit(&o, err);
}

/* The faults that took effect by `at` (--at, default 0), applied to the
 * network and listed. False on a bad platform or time. */
static bool apply_faults(struct network *net, struct platform *p, const char *at_text) {
    struct sim_error err = {0};
    simtime_t at = 0;
    const char *why;
    if (at_text && !units_parse_time(at_text, &at, &why)) {
        fprintf(stderr, "simpi topo: --at: found '%s', expected %s\n", at_text, why);
        return false;
    }
    if (!network_faults_init(net, p, &err)) {
        err_print(&err);
        return false;
    }
    struct fault_event e;
    while (faults_next_time(net->faults) <= at) {
        if (!faults_pop(net->faults, &e)) continue;
        char what[160], tb[48];
        faults_describe(&e, &net->topo, what, sizeof what);
        printf("at %s: %s\n", units_format_time(e.at, tb, sizeof tb), what);
    }
    network_faults_changed(net);
    return true;
}

/* --route A B: both ends' coordinates, the hop count and every link, with
 * the route's latency and bottleneck bandwidth. */
static int print_route(struct network *net, const char *a_text, const char *b_text) {
    char *end_a, *end_b;
    long long a = strtoll(a_text, &end_a, 10), b = strtoll(b_text, &end_b, 10);
    int64_t n = net->topo.nodes;
    if (*end_a || *end_b || end_a == a_text || end_b == b_text || a < 0 || b < 0 || a >= n ||
        b >= n) {
        fprintf(stderr, "simpi topo: --route needs two node numbers from 0 to %lld\n",
                (long long)n - 1);
        return EXIT_USAGE;
    }
    char ca[96], cb[96], name[160];
    topology_coords(&net->topo, a, ca, sizeof ca);
    topology_coords(&net->topo, b, cb, sizeof cb);
    int64_t *links = xmalloc(sizeof *links * (TOPO_MAX_HOPS + 3));
    int *classes = xmalloc(sizeof *classes * (TOPO_MAX_HOPS + 3));
    int hops, k = a == b ? 0 : network_route(net, (int32_t)a, (int32_t)b, links, classes, &hops);
    if (a == b) hops = 0;
    if (k < 0) {
        printf("node %lld %s -> node %lld %s: no route over the links and switches that are up "
               "(a partition)\n",
               a, ca, b, cb);
        free(links);
        free(classes);
        return EXIT_APP_ERROR;
    }
    printf("node %lld %s -> node %lld %s: %d hop%s\n", a, ca, b, cb, hops, hops == 1 ? "" : "s");
    for (int i = 0; i < k; i++) {
        network_link_name(net, links[i], name, sizeof name);
        printf("  %s\n", name);
    }
    if (a != b) {
        const struct path_cost *p = network_path(net, (int32_t)a, (int32_t)b);
        char lat[48];
        printf("latency %s (with the overhead), slowest link %.6g B/s\n",
               units_format_time(simtime_from_seconds(p->latency), lat, sizeof lat), p->bandwidth);
        if (p->extra_hops > 0)
            printf("a detour around the faults: %d hop%s and %s more than the topology's route\n",
                   p->extra_hops, p->extra_hops == 1 ? "" : "s",
                   units_format_time(simtime_from_seconds(p->extra_latency), lat, sizeof lat));
    }
    free(links);
    free(classes);
    return 0;
}

int cmd_topo(int argc, char **argv) {
    struct platform_opts o = {0};
    const char *json = NULL, *route_a = NULL, *route_b = NULL, *at = NULL;
    for (int i = 1; i < argc; i++) {
        int r = cli_platform_option(&o, argc, argv, &i);
        if (r < 0) return EXIT_USAGE;
        if (r == 1) continue;
        if (!strcmp(argv[i], "--json") && i + 1 < argc) {
            json = argv[++i];
        } else if (!strcmp(argv[i], "--at") && i + 1 < argc) {
            at = argv[++i];
        } else if (!strcmp(argv[i], "--route") && i + 2 < argc) {
            route_a = argv[++i];
            route_b = argv[++i];
        } else {
            fprintf(stderr, "simpi topo: unexpected argument '%s' (see simpi topo --help)\n",
                    argv[i]);
            return EXIT_USAGE;
        }
    }
    struct network net;
    struct platform *p = cli_load_platform(&o, &net);
    if (!p) return EXIT_INPUT_ERROR;
    struct sim_error err = {0};
    int rc = 0;
    if (route_a && !topology_is_flat(&net.topo)) {
        rc = apply_faults(&net, p, at) ? print_route(&net, route_a, route_b) : EXIT_INPUT_ERROR;
    } else if (topology_is_flat(&net.topo)) {
        printf("topology flat: every two nodes one hop apart (the platform's inter model); "
               "choose a topology under network: (docs/network.md)\n");
        if (json && !write_flat_json(json, p->nodes, &err)) {
            err_print(&err);
            rc = EXIT_INPUT_ERROR;
        }
    } else {
        struct topo_stats st = {0};
        measure(&net.topo, &st);
        print_text(&net.topo, &st);
        if (json && !write_json(json, &net.topo, &st, &err)) {
            err_print(&err);
            rc = EXIT_INPUT_ERROR;
        }
        free(st.hist);
    }
    network_destroy(&net);
    platform_free(p);
    return rc;
}
