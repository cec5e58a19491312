/* SPDX-License-Identifier: BSD-3-Clause */
/* `simpi calibrate-host`: measures this machine's floating-point rate with a
 * short multiply-add loop over a cache-resident vector and, where the CPU's
 * instruction counter is readable (perf_event_open), the instructions it
 * retires per second on that loop. Prints them as --host-speed takes the
 * first and as the platform key instruction_rate, which turns the
 * instruction counts of traced bursts (simpi trace) into time; -o writes
 * both as a platform fragment (docs/interop.md, "Compute calibration"). */
#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "cli/cli.h"
#include "core/instructions.h"
#include "core/outfile.h"

static double cpu_seconds(void) {
    struct timespec ts;
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

struct host_rates {
    double flops, instructions; /* per second; instructions 0: not counted */
};

/* y = a * x + y over n elements, reps times: 2 flops per element. */
static struct host_rates axpy_rates(int n, int reps, int fd) {
    double *x = calloc((size_t)n, sizeof *x), *y = calloc((size_t)n, sizeof *y);
    if (!x || !y) exit(EXIT_INPUT_ERROR);
    for (int i = 0; i < n; i++)
        x[i] = i * 1e-3;
    volatile double a = 1.000001;
    uint64_t i0 = instructions_read(fd, 0);
    double t0 = cpu_seconds();
    for (int r = 0; r < reps; r++)
        for (int i = 0; i < n; i++)
            y[i] = a * x[i] + y[i];
    double t = cpu_seconds() - t0;
    uint64_t i1 = instructions_read(fd, 0);
    volatile double sink = y[n / 2];
    (void)sink;
    free(x);
    free(y);
    return (struct host_rates){2.0 * n * reps / t, fd >= 0 ? (double)(i1 - i0) / t : 0};
}

static int write_fragment(const char *path, const struct host_rates *best, const char *why) {
    struct outfile o; /* atomic, the umask honoured, never through a planted link */
    struct sim_error err = {0};
    if (!outfile_open(&o, path, &err)) {
        fprintf(stderr, "simpi calibrate-host: %s\n", err.msg);
        return EXIT_INPUT_ERROR;
    }
    fprintf(o.f, "# simpi calibrate-host: this machine's compute rates (docs/interop.md)\n");
    fprintf(o.f, "speed: %.4gGf\n", best->flops / 1e9);
    if (best->instructions > 0)
        fprintf(o.f, "instruction_rate: %.4g\n", best->instructions);
    else
        fprintf(o.f, "# instruction_rate: not measured (perf_event_open: %s)\n", why);
    if (outfile_commit(&o, &err)) return 0;
    fprintf(stderr, "simpi calibrate-host: %s\n", err.msg);
    return EXIT_INPUT_ERROR;
}

int cmd_calibrate(int argc, char **argv) {
    const char *out = NULL;
    for (int i = 1; i < argc; i++) {
        if (!strcmp(argv[i], "-o") && i + 1 < argc) {
            out = argv[++i];
        } else {
            fprintf(stderr,
                    "simpi calibrate-host: unexpected argument '%s' (usage: simpi "
                    "calibrate-host [-o FILE.yaml])\n",
                    argv[i]);
            return EXIT_USAGE;
        }
    }
    const char *why = "not tried";
    int fd = instructions_open(&why);
    struct host_rates best = {0, 0};
    for (int trial = 0; trial < 5; trial++) {
        struct host_rates r = axpy_rates(4096, 20000, fd);
        if (r.flops > best.flops) best = r;
    }
    if (fd >= 0) close(fd);
    printf("this host: %.3g flop/s on a vector multiply-add (best of 5 trials)\n", best.flops);
    if (best.instructions > 0)
        printf("           %.3g instructions/s on it (perf_event)\n", best.instructions);
    else
        printf("           instructions/s not measured (perf_event_open: %s)\n", why);
    printf("use: simpi run --host-speed %.2fGf ...\n", best.flops / 1e9);
    if (best.instructions > 0)
        printf("     instruction_rate: %.4g in a platform replays traced instruction counts at "
               "this rate\n",
               best.instructions);
    return out ? write_fragment(out, &best, why) : 0;
}
