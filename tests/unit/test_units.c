/* Unit tests for src/core/units.c: every unit and prefix, and refusals. */
#include "core/units.h"
#include "test.h"

static void test_times(void) {
    simtime_t t;
    CHECK(units_parse_time("1.5us", &t, NULL) && t == 1500000);
    CHECK(units_parse_time("2s", &t, NULL) && t == 2 * PS_PER_S);
    CHECK(units_parse_time("3ms", &t, NULL) && t == 3 * PS_PER_MS);
    CHECK(units_parse_time("7ns", &t, NULL) && t == 7000);
    CHECK(units_parse_time("42ps", &t, NULL) && t == 42);
    CHECK(!units_parse_time("5", &t, NULL));    /* bare number refused */
    CHECK(!units_parse_time("-1us", &t, NULL)); /* negative refused */
    CHECK(!units_parse_time("1 us", &t, NULL));
    CHECK(!units_parse_time("1min", &t, NULL));
    CHECK(!units_parse_time("", &t, NULL));
    CHECK(!units_parse_time("nanus", &t, NULL));
}

static void test_sizes(void) {
    int64_t b;
    CHECK(units_parse_size("64KiB", false, false, &b, NULL) && b == 65536);
    CHECK(units_parse_size("1MiB", false, false, &b, NULL) && b == 1048576);
    CHECK(units_parse_size("1GiB", false, false, &b, NULL) && b == 1073741824);
    CHECK(units_parse_size("2kB", false, false, &b, NULL) && b == 2000);
    CHECK(units_parse_size("3MB", false, false, &b, NULL) && b == 3000000);
    CHECK(units_parse_size("16b", false, false, &b, NULL) && b == 2); /* bits */
    CHECK(units_parse_size("100", true, false, &b, NULL) && b == 100);
    CHECK(!units_parse_size("100", false, false, &b, NULL));
    CHECK(units_parse_size("inf", false, true, &b, NULL) && b == INT64_MAX);
    CHECK(!units_parse_size("inf", false, false, &b, NULL));
    CHECK(!units_parse_size("1KiX", true, false, &b, NULL));
}

static void test_rates(void) {
    double v;
    CHECK(units_parse_bandwidth("10Gb/s", &v, NULL) && v == 1.25e9); /* 10e9 bits / 8 */
    CHECK(units_parse_bandwidth("12.5GB/s", &v, NULL) && v == 12.5e9);
    CHECK(units_parse_bandwidth("120MB/s", &v, NULL) && v == 120e6);
    CHECK(units_parse_bandwidth("1KiB/s", &v, NULL) && v == 1024);
    CHECK(!units_parse_bandwidth("10GB", &v, NULL));
    CHECK(!units_parse_bandwidth("0GB/s", &v, NULL));
    CHECK(units_parse_flops("2Gf", &v, NULL) && v == 2e9);
    CHECK(units_parse_flops("2.5Mf", &v, NULL) && v == 2.5e6);
    CHECK(!units_parse_flops("2G", &v, NULL));
}

TEST_LIST(units_tests) = {
    {"units.times", test_times},
    {"units.sizes", test_sizes},
    {"units.rates", test_rates},
    TEST_END,
};
