/* SPDX-License-Identifier: BSD-3-Clause */
/* Unit tests for the point-to-point models, against formulas worked by hand. */
#include "net/network.h"
#include "platform/yaml_load.h"
#include "test.h"

static bool model_from(const char *yaml, struct p2p_model *m) {
    struct sim_error err = {0};
    struct conf_node *root = yaml_load_buffer(yaml, strlen(yaml), "test", &err);
    bool ok = root && p2p_model_init(m, conf_map_get(root, "m"), "m", &err);
    if (err.set) fprintf(stderr, "%s\n", err.msg);
    conf_free(root);
    return ok;
}

static void test_affine(void) {
    struct p2p_model m;
    CHECK(model_from("m: {model: affine, latency: 2us, bandwidth: 1GB/s}\n", &m));
    /* T(S) = 2us + S / 1e9 B/s: 1000 B -> 2us + 1us = 3us */
    CHECK_EQ_INT(p2p_model_cost(&m, 1000), 3 * PS_PER_US);
    CHECK_EQ_INT(p2p_model_cost(&m, 0), 2 * PS_PER_US);
    p2p_model_destroy(&m);
}

static void test_piecewise(void) {
    struct p2p_model m;
    CHECK(model_from("m:\n  model: piecewise\n  segments:\n"
                     "    - {upto: 1KiB,  latency: 30us, bandwidth: 120MB/s}\n"
                     "    - {upto: 64KiB, latency: 50us, bandwidth: 100MB/s}\n"
                     "    - {upto: inf,   latency: 80us, bandwidth: 117MB/s}\n",
                     &m));
    /* 1024 B is in the first segment: 30us + 1024/120e6 s = 30us + 8.533333us */
    CHECK_EQ_INT(p2p_model_cost(&m, 1024), 30 * PS_PER_US + 8533333);
    /* 1025 B: second segment: 50us + 1025/100e6 s = 50us + 10.25us */
    CHECK_EQ_INT(p2p_model_cost(&m, 1025), 60250000);
    /* 1 MB: third: 80us + 1e6/117e6 s = 80us + 8547.008547us */
    CHECK_EQ_INT(p2p_model_cost(&m, 1000000), 80 * PS_PER_US + 8547008547);
    p2p_model_destroy(&m);
}

static void test_table(void) {
    struct p2p_model m;
    CHECK(model_from("m:\n  model: table\n  points:\n    - {size: 0B, time: 2us}\n"
                     "    - {size: 1000B, time: 4us}\n    - [3000, 10us]\n",
                     &m));
    /* exact points */
    CHECK_EQ_INT(p2p_model_cost(&m, 0), 2 * PS_PER_US);
    CHECK_EQ_INT(p2p_model_cost(&m, 1000), 4 * PS_PER_US);
    /* interpolation: 500 B between (0,2us) and (1000,4us) -> 3us */
    CHECK_EQ_INT(p2p_model_cost(&m, 500), 3 * PS_PER_US);
    /* 2000 B between (1000,4us) and (3000,10us) -> 4 + 6*1000/2000 = 7us */
    CHECK_EQ_INT(p2p_model_cost(&m, 2000), 7 * PS_PER_US);
    /* extrapolation from the last two: 5000 B -> 10 + 6*2000/2000 = 16us */
    CHECK_EQ_INT(p2p_model_cost(&m, 5000), 16 * PS_PER_US);
    p2p_model_destroy(&m);
}

/* Costs are kept per size (net/p2p.h's memo): a size asked for again, or
 * after others that share its slot, still gets its own formula's value,
 * for the cost and for the wire time, in every model. */
static void test_memo(void) {
    struct p2p_model m;
    CHECK(model_from("m: {model: affine, latency: 2us, bandwidth: 1GB/s}\n", &m));
    /* T(S) = 2us + S ns, W(S) = S ns; 200 sizes fill 64 slots, and each
     * size is asked for three times, around the others */
    for (int pass = 0; pass < 3; pass++)
        for (int64_t size = 0; size < 200 * 1000; size += 1000) {
            CHECK_EQ_INT(p2p_model_cost(&m, size), 2 * PS_PER_US + size * 1000);
            CHECK_EQ_INT(p2p_model_wire_time(&m, size), size * 1000);
        }
    p2p_model_destroy(&m);
    CHECK(model_from("m:\n  model: table\n  points:\n    - {size: 0B, time: 2us}\n"
                     "    - {size: 1000B, time: 4us}\n    - [3000, 10us]\n",
                     &m));
    /* a table's wire time is T(S) - T(0): 2000 B -> 7us - 2us; asked for
     * first (it works out costs itself), then the cost, then both again */
    for (int pass = 0; pass < 2; pass++) {
        CHECK_EQ_INT(p2p_model_wire_time(&m, 2000), 5 * PS_PER_US);
        CHECK_EQ_INT(p2p_model_cost(&m, 2000), 7 * PS_PER_US);
        CHECK_EQ_INT(p2p_model_cost(&m, 0), 2 * PS_PER_US);
        CHECK_EQ_INT(p2p_model_wire_time(&m, 0), 0);
    }
    p2p_model_destroy(&m);
}

TEST_LIST(p2p_tests) = {
    {"p2p.affine", test_affine},
    {"p2p.piecewise", test_piecewise},
    {"p2p.table", test_table},
    {"p2p.memo", test_memo},
    TEST_END,
};
