/* SPDX-License-Identifier: BSD-3-Clause */
/* The runs of simpi run --repeat N (see repeat.h). Each run but the last
 * writes run<K>.bin into the folder simpi run made: a header (predicted
 * time, rank count) and each rank's computation in seconds. */
#include "online/repeat.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/alloc.h"

static char *dir;
static int run, runs;

struct run_head {
    char magic[8]; /* "simpirep" */
    int32_t nranks, ok;
    double predicted;
};

void repeat_read_settings(const char *d, const char *k, const char *n) {
    if (!d || !k || !n) return;
    dir = xstrdup(d);
    run = atoi(k);
    runs = atoi(n);
}

static void path_of(int k, char *buf, size_t len) {
    snprintf(buf, len, "%s/run%d.bin", dir, k);
}

static void write_figures(const struct sim *s, enum sim_status st) {
    char path[4200];
    path_of(run, path, sizeof path);
    FILE *f = fopen(path, "wb");
    if (!f) return; /* the last run says a run is missing */
    struct run_head h = {"simpirep", sim_size(s), st == SIM_OK,
                         simtime_to_seconds(summary_predicted(s))};
    fwrite(&h, sizeof h, 1, f);
    for (int32_t i = 0; i < sim_size(s); i++) {
        double c = simtime_to_seconds(sim_rank_stats(s, i)->compute);
        fwrite(&c, sizeof c, 1, f);
    }
    fclose(f);
}

/* Run k's figures: its predicted time and its ranks' computation, read
 * into compute[k * n + rank]. False: missing or of another program. */
static bool read_figures(int k, int32_t n, double *predicted, double *compute) {
    char path[4200];
    path_of(k, path, sizeof path);
    FILE *f = fopen(path, "rb");
    struct run_head h;
    bool ok = f && fread(&h, sizeof h, 1, f) == 1 && !memcmp(h.magic, "simpirep", 8) &&
              h.nranks == n && h.ok &&
              fread(compute + (size_t)k * (size_t)n, sizeof *compute, (size_t)n, f) == (size_t)n;
    if (f) fclose(f);
    if (ok) *predicted = h.predicted;
    return ok;
}

static int by_value(const void *a, const void *b) {
    double x = *(const double *)a, y = *(const double *)b;
    return x < y ? -1 : x > y;
}

static double median(double *v, int n) {
    qsort(v, (size_t)n, sizeof *v, by_value);
    return n % 2 ? v[n / 2] : 0.5 * (v[n / 2 - 1] + v[n / 2]);
}

/* The largest spread of a rank's computation over the runs. */
static void compute_spread(struct host_figures *h, const double *compute, int nruns, int32_t n) {
    double *v = xcalloc((size_t)nruns, sizeof *v);
    for (int32_t r = 0; r < n; r++) {
        for (int k = 0; k < nruns; k++)
            v[k] = compute[(size_t)k * (size_t)n + (size_t)r];
        double mid = median(v, nruns), spread = mid > 0 ? (v[nruns - 1] - v[0]) / mid : 0;
        if (r == 0 || spread > h->compute_spread) {
            h->compute_spread = spread;
            h->spread_rank = r;
        }
    }
    free(v);
}

void repeat_add(struct host_figures *h, const struct sim *s, enum sim_status st) {
    if (!dir || runs < 2) return;
    if (run < runs - 1) {
        write_figures(s, st);
        return;
    }
    int32_t n = sim_size(s);
    double *predicted = xcalloc((size_t)runs, sizeof *predicted);
    double *compute = xcalloc((size_t)runs * (size_t)n, sizeof *compute);
    int got = 0;
    while (got < runs - 1 && read_figures(got, n, &predicted[got], compute))
        got++;
    predicted[got] = simtime_to_seconds(summary_predicted(s));
    for (int32_t i = 0; i < n; i++)
        compute[(size_t)got * (size_t)n + (size_t)i] =
            simtime_to_seconds(sim_rank_stats(s, i)->compute);
    if (st == SIM_OK && got == runs - 1) {
        h->runs = runs;
        compute_spread(h, compute, runs, n);
        h->predicted_median = median(predicted, runs); /* sorts them */
        h->predicted_min = predicted[0];
        h->predicted_max = predicted[runs - 1];
    }
    free(predicted);
    free(compute);
}
