/* SPDX-License-Identifier: BSD-3-Clause */
/* Unit tests for src/core/units.c: every unit and prefix, and refusals;
 * core/divide.h's division by an invariant divisor; and core/options.c's
 * block of options (what simpi run hands its program's runtime). */
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "core/divide.h"
#include "core/error.h"
#include "core/options.h"
#include "core/simtime.h"
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
    CHECK(units_parse_time("2min", &t, NULL) && t == 120 * PS_PER_S); /* 2 x 60 s */
    CHECK(units_parse_time("1h", &t, NULL) && t == 3600 * PS_PER_S);
    CHECK(units_parse_time("1d", &t, NULL) && t == 86400 * PS_PER_S);
    CHECK(!units_parse_time("1mn", &t, NULL));
    CHECK(!units_parse_time("0x10us", &t, NULL)); /* hex refused (strtod read it as 16 us) */
    CHECK(!units_parse_time("0X10ms", &t, NULL));
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

/* simtime_format_seconds against printf's own "%.12g" (the reference):
 * edges of the styles and digit counts, then pseudo-random times of every
 * magnitude below and above a second. */
static bool same_as_printf(simtime_t t) {
    char mine[32], ref[64];
    int n = simtime_format_seconds(t, mine);
    snprintf(ref, sizeof ref, "%.12g", simtime_to_seconds(t));
    if (strcmp(mine, ref) != 0 || n != (int)strlen(ref)) {
        fprintf(stderr, "t=%lld: '%s', printf '%s'\n", (long long)t, mine, ref);
        return false;
    }
    return true;
}

static void test_seconds_format(void) {
    static const simtime_t edges[] = {0,
                                      1,
                                      9,
                                      10,
                                      500800,
                                      1001600,
                                      99999999,
                                      100000000,
                                      123456789,
                                      999999999,
                                      1000000000,
                                      999999999999,
                                      1000000000000,
                                      1000000000001,
                                      123456789012345,
                                      INT64_C(9223372036854775806)};
    for (size_t i = 0; i < sizeof edges / sizeof edges[0]; i++)
        CHECK(same_as_printf(edges[i]));
    char out[32];
    CHECK(simtime_format_seconds(500800, out) == 9 && strcmp(out, "5.008e-07") == 0);
    CHECK(simtime_format_seconds(123456789, out) && strcmp(out, "0.000123456789") == 0);
    uint64_t x = 88172645463325252ull; /* xorshift64 */
    int bad = 0;
    for (int i = 0; i < 200000 && bad < 5; i++) {
        x ^= x << 13;
        x ^= x >> 7;
        x ^= x << 17;
        int digits = 1 + (int)(x % 15); /* 1 to 15 digits */
        simtime_t t = (simtime_t)((x >> 8) % (uint64_t)pow(10, digits));
        if (!same_as_printf(t)) bad++;
    }
    CHECK(bad == 0);
}

/* divisor_apply against the hardware's division: every divisor to 4,096
 * with the dividends around its multiples and the largest ones, and random
 * pairs over the whole range (dividends below 2^31, divisors to 2^31). */
static void test_divide(void) {
    int bad = 0;
    for (uint32_t d = 1; d <= 4096; d++) {
        struct divisor dv = divisor_make(d);
        for (uint32_t k = 0; k < 64; k++) {
            uint32_t around[] = {k * d, k * d + d - 1, (uint32_t)INT32_MAX - k * d,
                                 (uint32_t)INT32_MAX / d * d - 1 + k % 3};
            for (int i = 0; i < 4; i++)
                bad += around[i] <= (uint32_t)INT32_MAX &&
                       divisor_apply(&dv, around[i]) != around[i] / d;
        }
    }
    uint64_t x = 0x9E3779B97F4A7C15ull; /* xorshift64 */
    for (int i = 0; i < 1000000; i++) {
        x ^= x << 13;
        x ^= x >> 7;
        x ^= x << 17;
        uint32_t n = (uint32_t)(x & INT32_MAX),
                 d = 1 + (uint32_t)((x >> 32) % ((uint64_t)1 << (1 + (x >> 59) % 31)));
        struct divisor dv = divisor_make(d);
        bad += divisor_apply(&dv, n) != n / d;
    }
    struct divisor top = divisor_make(UINT32_C(1) << 31);
    CHECK(divisor_apply(&top, INT32_MAX) == 0);
    CHECK(bad == 0);
}

/* A set goes through the block unchanged (newlines and backslashes in
 * values, repeated options in order); a block of another table, a
 * malformed line or an unknown name is refused with why. */
static void test_options_block(void) {
    struct option_set s = {0}, back;
    struct sim_error err = {0};
    optset_add(&s, "np", "4");
    optset_add(&s, "set", "inter.latency=2us");
    optset_add(&s, "set", "faults: [{at: 1ms,\n node: 2}]\\x");
    optset_add(&s, "json", "/tmp/a b.json");
    optset_put(&s, "json", "/tmp/c.json"); /* replaces */
    char *block = optset_encode(&s);
    CHECK(strchr(block, '\n') != NULL && !strstr(block, "SIMPI"));
    CHECK(optset_decode(block, &back, &err));
    CHECK(back.n == 4 && !strcmp(optset_get(&back, "np"), "4"));
    char *sets = optset_join(&back, "set", '|');
    CHECK(!strcmp(sets, "inter.latency=2us|faults: [{at: 1ms,\n node: 2}]\\x"));
    CHECK(!strcmp(optset_get(&back, "json"), "/tmp/c.json") && !optset_get(&back, "report"));
    free(sets);
    optset_free(&back);
    /* another table's digest: the header's 16 hex digits changed */
    char *other = strdup(block);
    char *digit = other + strlen("simpi-options 1 ");
    *digit = *digit == '0' ? '1' : '0';
    CHECK(!optset_decode(other, &back, &err) && strstr(err.msg, "options differ"));
    /* an unknown name, and a line without '=' */
    size_t n = strlen(block);
    char *bad = malloc(n + 32);
    snprintf(bad, n + 32, "%sbogus=1\n", block);
    err = (struct sim_error){0};
    CHECK(!optset_decode(bad, &back, &err) && strstr(err.msg, "unknown option 'bogus'"));
    snprintf(bad, n + 32, "%snp\n", block);
    err = (struct sim_error){0};
    CHECK(!optset_decode(bad, &back, &err) && strstr(err.msg, "expected name=value"));
    err = (struct sim_error){0};
    CHECK(!optset_decode("SIMPI_NP=3", &back, &err) && strstr(err.msg, "not a block"));
    /* every declared spelling finds its declaration; keys are unique */
    int count;
    const struct option_decl *t = options_table(&count);
    for (int i = 0; i < count; i++) {
        CHECK(options_find(t[i].name) == &t[i]);
        for (int j = 0; j < i; j++)
            CHECK(strcmp(t[i].name, t[j].name) != 0);
        CHECK(t[i].help && *t[i].help);
    }
    CHECK(options_find("-j") == options_find("procs") && options_find("-np") == options_find("np"));
    free(bad);
    free(other);
    free(block);
    optset_free(&s);
}

/* err_fatal ends the whole process with status 1 by the system call itself
 * (not through _exit or syscall, which a simpicc program's runtime stands
 * in for), after its message; an atexit handler never runs. */
static void on_exit_called(void) {
    (void)!write(2, "atexit ran\n", 11);
}

static void fatal_with_atexit(void) {
    atexit(on_exit_called);
    err_fatal("out of memory");
}

static void test_fatal_exit(void) {
    char err[128];
    int status = test_in_child(fatal_with_atexit, err, sizeof err);
    CHECK(status != -1 && WIFEXITED(status) && WEXITSTATUS(status) == 1);
    CHECK(!strcmp(err, "simpi: error: out of memory\n"));
}

TEST_LIST(units_tests) = {
    {"units.fatal_exit", test_fatal_exit}, {"units.options_block", test_options_block},
    {"units.divide", test_divide},         {"units.seconds_format", test_seconds_format},
    {"units.times", test_times},           {"units.sizes", test_sizes},
    {"units.rates", test_rates},           TEST_END,
};
