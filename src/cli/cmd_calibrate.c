/* `simpi calibrate-host`: measures this machine's floating-point rate with a
 * short multiply-add loop over a cache-resident vector, and prints it as the
 * value to give to --host-speed (used when a platform's speed is a flop rate). */
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

#include "cli/cli.h"

static double cpu_seconds(void) {
    struct timespec ts;
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

/* y = a * x + y over n elements, reps times: 2 flops per element. */
static double axpy_rate(int n, int reps) {
    double *x = calloc((size_t)n, sizeof *x), *y = calloc((size_t)n, sizeof *y);
    if (!x || !y) exit(EXIT_INPUT_ERROR);
    for (int i = 0; i < n; i++)
        x[i] = i * 1e-3;
    volatile double a = 1.000001;
    double t0 = cpu_seconds();
    for (int r = 0; r < reps; r++)
        for (int i = 0; i < n; i++)
            y[i] = a * x[i] + y[i];
    double t = cpu_seconds() - t0;
    volatile double sink = y[n / 2];
    (void)sink;
    free(x);
    free(y);
    return 2.0 * n * reps / t;
}

int cmd_calibrate(int argc, char **argv) {
    (void)argc;
    (void)argv;
    double best = 0;
    for (int trial = 0; trial < 5; trial++) {
        double r = axpy_rate(4096, 20000);
        if (r > best) best = r;
    }
    printf("this host: %.3g flop/s on a vector multiply-add (best of 5 trials)\n", best);
    printf("use: simpi run --host-speed %.2fGf ...\n", best / 1e9);
    return 0;
}
