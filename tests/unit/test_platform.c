/* SPDX-License-Identifier: BSD-3-Clause */
/* Unit tests for platform loading, overrides, placement and error messages. */
#include <stdlib.h>
#include <string.h>

#include "net/network.h"
#include "platform/keys.h"
#include "platform/platform.h"
#include "test.h"

static struct platform *load_text(const char *yaml, const char *const *sets, int nsets,
                                  struct sim_error *err) {
    const char *path = test_write_temp(".yaml", yaml);
    return platform_load(path, sets, nsets, err);
}

static void test_default(void) {
    struct sim_error err = {0};
    struct platform *p = platform_load(NULL, NULL, 0, &err);
    CHECK(p != NULL);
    if (!p) return;
    CHECK_EQ_INT(p->nodes, 0); /* auto */
    CHECK_EQ_INT(p->cores_per_node, 8);
    CHECK_EQ_INT(p->eager_limit, 65536);
    CHECK(platform_fit_ranks(p, 20, &err));
    CHECK_EQ_INT(p->nodes, 3); /* ceil(20 / 8) */
    CHECK_EQ_INT(platform_node_of(p, 17), 2);
    platform_free(p);
}

static void test_examples(void) {
    const char *files[] = {SIMPI_SOURCE_DIR "/examples/platforms/default.yaml",
                           SIMPI_SOURCE_DIR "/examples/platforms/piecewise-cluster.yaml",
                           SIMPI_SOURCE_DIR "/examples/platforms/table-cluster.yaml"};
    for (int i = 0; i < 3; i++) {
        struct sim_error err = {0};
        struct platform *p = platform_load(files[i], NULL, 0, &err);
        struct network n;
        CHECK(p && network_init(&n, p, &err));
        if (err.set) fprintf(stderr, "%s\n", err.msg);
        if (p && !err.set) network_destroy(&n);
        platform_free(p);
    }
}

static const char *base =
    "nodes: 4\ncores_per_node: 2\nintra: {model: affine, latency: 1us, bandwidth: 1GB/s}\n"
    "inter: {model: affine, latency: 10us, bandwidth: 100MB/s}\n";

static void test_placement(void) {
    struct sim_error err = {0};
    struct platform *p = load_text(base, NULL, 0, &err);
    CHECK(p && platform_fit_ranks(p, 8, &err));
    CHECK_EQ_INT(platform_node_of(p, 3), 1); /* block: 3 / 2 */
    platform_free(p);
    const char *cyc[] = {"placement=cyclic"};
    p = load_text(base, cyc, 1, &err);
    CHECK(p && platform_fit_ranks(p, 8, &err));
    CHECK_EQ_INT(platform_node_of(p, 5), 1); /* cyclic: 5 % 4 */
    platform_free(p);
    char text[512];
    snprintf(text, sizeof text, "%splacement: [3, 2, 1, 0]\n", base);
    p = load_text(text, NULL, 0, &err);
    CHECK(p && platform_fit_ranks(p, 4, &err));
    CHECK(p && platform_node_of(p, 0) == 3);
    CHECK(p && !platform_fit_ranks(p, 5, &err));
    CHECK_CONTAINS(err.msg, "lists 4 ranks");
    platform_free(p);
}

static void test_too_many_ranks(void) {
    struct sim_error err = {0};
    struct platform *p = load_text(base, NULL, 0, &err);
    CHECK(p && !platform_fit_ranks(p, 9, &err));
    CHECK_CONTAINS(err.msg, "only 8 cores");
    CHECK_CONTAINS(err.msg, "--set nodes=5");
    platform_free(p);
}

static void test_overrides(void) {
    struct sim_error err = {0};
    const char *sets[] = {"inter.latency=2us", "nodes=16", "mpi.eager_limit=1KiB", "speed=10Gf"};
    struct platform *p = load_text(base, sets, 4, &err);
    CHECK(p != NULL);
    if (!p) return;
    CHECK_EQ_INT(p->nodes, 16);
    CHECK_EQ_INT(p->eager_limit, 1024);
    CHECK(p->flop_rate == 10e9);
    struct network n;
    CHECK(network_init(&n, p, &err));
    /* inter cost of 0 bytes = new latency 2us */
    CHECK_EQ_INT(network_control_cost(&n, 0, 1), 2 * PS_PER_US);
    network_destroy(&n);
    platform_free(p);
}

/* Loads text (with overrides) and expects an error containing each needle. */
static void expect_error(const char *text, const char *set, const char *n1, const char *n2) {
    struct sim_error err = {0};
    const char *sets[] = {set};
    struct platform *p = load_text(text, sets, set ? 1 : 0, &err);
    struct network n;
    if (p && network_init(&n, p, &err)) {
        network_destroy(&n);
        CHECK(!"expected an error");
    }
    CHECK(err.set);
    CHECK_CONTAINS(err.msg, n1);
    if (n2) CHECK_CONTAINS(err.msg, n2);
    platform_free(p);
}

/* A file is a layer over the built-in platform: it names only what it
 * changes (built-in: 8 cores per node, intra 0.5 us + S / 10 GB/s, inter
 * 1.5 us + S / 12.5 GB/s). */
static void test_layers(void) {
    struct sim_error err = {0};
    struct platform *p = load_text("nodes: 4\n", NULL, 0, &err);
    CHECK(p && p->nodes == 4 && p->cores_per_node == 8);
    platform_free(p);
    p = load_text("inter: {latency: 2us}\n", NULL, 0, &err);
    struct network n;
    CHECK(p && network_init(&n, p, &err));
    if (p && !err.set) {
        /* 2 us + 12500 B / 12.5 GB/s = 2 us + 1 us */
        CHECK_EQ_INT(network_cost(&n, 0, 1, 12500), 3 * PS_PER_US);
        /* intra unchanged: 0.5 us + 10000 B / 10 GB/s = 1.5 us */
        CHECK_EQ_INT(network_cost(&n, 0, 0, 10000), 1500 * PS_PER_NS);
        network_destroy(&n);
    }
    platform_free(p);
    /* a different model replaces the built-in map (its keys are its own) */
    p = load_text("inter: {model: table, points: [[0, 1us], [1000, 2us]]}\n", NULL, 0, &err);
    CHECK(p && network_init(&n, p, &err));
    if (p && !err.set) {
        CHECK_EQ_INT(network_cost(&n, 0, 1, 500), 1500 * PS_PER_NS); /* halfway: 1.5 us */
        network_destroy(&n);
    }
    platform_free(p);
    if (err.set) fprintf(stderr, "%s\n", err.msg);
}

static void test_errors(void) {
    expect_error("nodes: 4\ncores_pre_node: 2\n", NULL, ":2:", "did you mean 'cores_per_node'");
    expect_error(base, "inter.latency=5", "'inter.latency': found '5'", "unit");
    expect_error(base, "inter.bandwidth=fast", "'inter.bandwidth'", "B/s");
    expect_error(base, "nodes=-1", "'nodes'", "integer");
    expect_error(base, "inter.model=magic", "'inter.model': found 'magic'", "piecewise");
    expect_error(base, "placement=spread", "'placement': found 'spread'", NULL);
    expect_error(base, "speed=fast", "'speed'", "flop rate");
    expect_error(base, "mpi.eagr_limit=1KiB", "did you mean 'eager_limit'", NULL);
    expect_error("nodes: [4\n", NULL, "YAML syntax error", NULL);
    expect_error("- 1\n- 2\n", NULL, "must be a map", NULL);
    expect_error("", NULL, "empty", NULL);
    expect_error("nodes: 1\nnodes: 2\n", NULL, "duplicate key 'nodes'", NULL);
    expect_error("nodes: 2\ncores_per_node: 1\nintra: {latency: 1us, bandwidth: 1GB/s}\n"
                 "inter:\n  model: piecewise\n  segments:\n    - {upto: 1KiB, latency: 1us, "
                 "bandwidth: 1GB/s}\n",
                 NULL, "upto: inf", ":7:");
    expect_error("intra: {model: table}\n", NULL, "'intra.points': expected a non-empty list",
                 NULL);
    expect_error("nodes: 2\ncores_per_node: 1\nintra: {latency: 1us, bandwidth: 1GB/s}\n"
                 "inter: {model: table, points: [{size: 2KiB, time: 1us}, {size: 1KiB, time: "
                 "2us}]}\n",
                 NULL, "larger than the previous", NULL);
}

static void test_set_errors(void) {
    const char *cases[][2] = {
        {"nodes", "expected KEY.PATH=VALUE"},
        {"=3", "expected KEY.PATH=VALUE"},
        {"nodes.x=3", "parent of 'x' is a plain value"},
        {"inter.latency.x.y=3", "'x' is inside a plain value"},
    };
    for (int i = 0; i < 4; i++) {
        struct sim_error err = {0};
        const char *sets[] = {cases[i][0]};
        CHECK(load_text(base, sets, 1, &err) == NULL);
        CHECK_CONTAINS(err.msg, cases[i][1]);
    }
    struct sim_error err = {0};
    const char *seg[] = {"inter.segments.5.latency=1us"};
    CHECK(load_text("nodes: 1\ncores_per_node: 1\nintra: {latency: 1us, bandwidth: 1GB/s}\n"
                    "inter: {model: piecewise, segments: [{upto: inf, latency: 1us, bandwidth: "
                    "1GB/s}]}\n",
                    seg, 1, &err) == NULL);
    CHECK_CONTAINS(err.msg, "index 5 is past the end of the list (1 items)");
    expect_error("nodes: 2\ncores_per_node: 1\nintra: {latency: 1us, bandwidth: 1GB/s}\n"
                 "inter:\n  model: piecewise\n  segments:\n    - {upto: 2KiB, latency: 1us, "
                 "bandwidth: 1GB/s}\n    - {upto: 1KiB, latency: 1us, bandwidth: 1GB/s}\n",
                 NULL, ":8:", "larger than the previous segment's");
}

/* placement: random: a seeded permutation of the machine's cores, so 100
 * ranks on 25 nodes of 4 cores fill every node exactly, unlike block
 * order, and the same seed gives the same placement. */
static void test_random_placement(void) {
    int32_t first[100];
    for (int k = 0; k < 3; k++) {
        static const char *const yaml[] = {
            "nodes: 25\ncores_per_node: 4\nplacement: {random: 7}\n",
            "nodes: 25\ncores_per_node: 4\nplacement: {random: 7}\n",
            "nodes: 25\ncores_per_node: 4\nplacement: {random: 8}\n"};
        struct sim_error err = {0};
        struct platform *p = platform_load(test_write_temp(".yaml", yaml[k]), NULL, 0, &err);
        CHECK(p && platform_fit_ranks(p, 100, &err));
        if (!p) continue;
        int count[25] = {0}, moved = 0, same = 0;
        for (int r = 0; r < 100; r++) {
            int32_t n = platform_node_of(p, r);
            CHECK(n >= 0 && n < 25);
            if (n < 0 || n >= 25) continue;
            count[n]++;
            moved += n != r / 4;
            if (k == 0) first[r] = n;
            same += first[r] == n;
        }
        for (int n = 0; n < 25; n++)
            CHECK_EQ_INT(count[n], 4);
        CHECK(moved > 50);
        if (k == 1) CHECK_EQ_INT(same, 100);
        if (k == 2) CHECK(same < 50);
        platform_free(p);
    }
}

/* Two processes whose platforms name a selection file of different
 * content do not agree, though the platforms' text is the same. */
static void test_digest_named_file(void) {
    const char *json = test_write_temp(".json", "{\"collective=bcast\": {}}\n");
    char set[4200];
    snprintf(set, sizeof set, "mpi.coll.selection=%s", json);
    const char *sets[] = {set};
    struct sim_error err = {0};
    struct platform *a = platform_load(NULL, sets, 1, &err);
    CHECK(a != NULL);
    if (!a) return;
    uint64_t before = platform_digest(a);
    CHECK_EQ_INT(platform_digest(a), before); /* the same file: the same digest */
    FILE *f = fopen(json, "w");
    CHECK(f != NULL);
    if (f) {
        fputs("{\"collective=reduce\": {}}\n", f);
        fclose(f);
    }
    CHECK(platform_digest(a) != before);
    platform_free(a);
}

/* The declared defaults (platform/keys.c) read as the documented numbers:
 * 64 KiB = 65,536 B; 1 us = 10^6 ps; 100 us = 10^8 ps; 1 GB/s = 10^9 B/s;
 * 100 ns = 10^-7 s and 10 GB/s = 10^10 B/s per link; 0 s; 16 requests.
 * And the built-in platform, loaded without those keys, holds them. */
static void test_key_defaults(void) {
    CHECK(platform_key_default_size("mpi.eager_limit") == 65536);
    CHECK(platform_key_default_time("mpi.poll_cost") == 1000000);
    CHECK(platform_key_default_time("mpi.send_overhead") == 0);
    CHECK(platform_key_default_time("storage.latency") == 100000000);
    CHECK(platform_key_default_bandwidth("storage.bandwidth") == 1e9);
    CHECK(platform_key_default_number("storage.concurrency") == 16);
    CHECK(platform_key_default_time("network.link_latency") == 100000);
    CHECK(platform_key_default_bandwidth("network.link_bandwidth") == 1e10);
    struct sim_error err = {0};
    struct platform *p = platform_load(NULL, NULL, 0, &err);
    CHECK(p != NULL);
    if (!p) return;
    CHECK(p->eager_limit == 65536 && p->poll_cost == 1000000);
    CHECK(p->storage.latency == 100000000 && p->storage.bandwidth == 1e9 &&
          p->storage.concurrency == 16);
    platform_free(p);
    const char *names[8];
    CHECK(platform_key_children("memory", names, 8) == 2 && !strcmp(names[0], "bandwidth") &&
          !strcmp(names[1], "demand") && names[2] == NULL);
    CHECK(platform_key("mpi.coll.allreduce") && !platform_key("mpi.coll.nothing"));
}

TEST_LIST(platform_tests) = {
    {"platform.key_defaults", test_key_defaults},
    {"platform.digest_named_file", test_digest_named_file},
    {"platform.random_placement", test_random_placement},
    {"platform.default", test_default},
    {"platform.examples", test_examples},
    {"platform.placement", test_placement},
    {"platform.too_many_ranks", test_too_many_ranks},
    {"platform.overrides", test_overrides},
    {"platform.errors", test_errors},
    {"platform.layers", test_layers},
    {"platform.set_errors", test_set_errors},
    TEST_END,
};
