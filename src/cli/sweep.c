/* SPDX-License-Identifier: BSD-3-Clause */
/* Parameter sweeps: a --set whose value is a comma-separated list
 * (inter.latency=1us,2us,4us) makes one simulation per value; several such
 * --set give the cross product. sweep_points expands the --set options
 * into the list of points (each a full list of single-valued --set), and
 * sweep_report prints one table of predicted times and writes the JSON
 * array. Values with brackets (a placement list) are never split. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "cli/cli.h"
#include "core/alloc.h"
#include "core/escape.h"
#include "core/outfile.h"
#include "net/network.h"
#include "platform/platform.h"

/* The values of one --set: 1 unless it is KEY=V1,V2,... */
static int split_values(const char *set, char ***out) {
    const char *eq = strchr(set, '=');
    *out = NULL;
    if (!eq || strpbrk(eq, "[]{}") || !strchr(eq, ',') || !strncmp(set, "faults+=", 8))
        return 1; /* a --fault's KEY=VALUE pairs are one entry */
    size_t klen = (size_t)(eq - set + 1);
    int n = 0;
    for (const char *v = eq + 1;; v++) {
        size_t len = strcspn(v, ",");
        char *one = xmalloc(klen + len + 1);
        memcpy(one, set, klen);
        memcpy(one + klen, v, len);
        one[klen + len] = '\0';
        *out = xrealloc_or_die(*out, sizeof **out * (size_t)(n + 1));
        (*out)[n++] = one;
        v += len;
        if (!*v) break;
    }
    return n;
}

int sweep_points(const char *const *sets, int nsets, struct sweep *sw) {
    memset(sw, 0, sizeof *sw);
    sw->nsets = nsets;
    sw->npoints = 1;
    char ***values = xcalloc((size_t)nsets + 1, sizeof *values);
    int *counts = xcalloc((size_t)nsets + 1, sizeof *counts);
    double total = 1; /* (a product of counts may pass any integer type) */
    for (int i = 0; i < nsets; i++) {
        counts[i] = split_values(sets[i], &values[i]);
        if (counts[i] > 1) total *= counts[i];
    }
    sw->owned = values;
    sw->counts = counts;
    if (total > SWEEP_MAX_POINTS) { /* (25 million points took 589 MB, silently) */
        char product[400] = "";
        for (int i = 0; i < nsets; i++)
            if (counts[i] > 1)
                snprintf(product + strlen(product), sizeof product - strlen(product), "%s%d",
                         product[0] ? " x " : "", counts[i]);
        fprintf(stderr,
                "simpi: --set: a sweep of %s = %.0f points, over the %d one command runs; split "
                "it into several commands\n",
                product, total, SWEEP_MAX_POINTS);
        sweep_free(sw);
        return -1;
    }
    sw->npoints = (int)total;
    sw->points = xcalloc((size_t)sw->npoints * (size_t)(nsets + 1), sizeof *sw->points);
    for (int p = 0; p < sw->npoints; p++) {
        int rest = p;
        for (int i = nsets - 1; i >= 0; i--) { /* the last key varies fastest */
            int k = counts[i] > 1 ? rest % counts[i] : 0;
            if (counts[i] > 1) rest /= counts[i];
            sw->points[(size_t)p * (size_t)(nsets + 1) + (size_t)i] =
                counts[i] > 1 ? values[i][k] : sets[i];
        }
    }
    return sw->npoints;
}

const char **sweep_point(const struct sweep *sw, int p) {
    return sw->points + (size_t)p * (size_t)(sw->nsets + 1);
}

void sweep_free(struct sweep *sw) {
    for (int i = 0; i < sw->nsets; i++) {
        for (int k = 0; sw->counts[i] > 1 && k < sw->counts[i]; k++)
            free(sw->owned[i][k]);
        free(sw->owned[i]);
    }
    free(sw->owned);
    free(sw->counts);
    free(sw->points);
    memset(sw, 0, sizeof *sw);
}

void sweep_point_label(const struct sweep *sw, int p, char *buf, size_t len) {
    buf[0] = '\0';
    const char **pt = sweep_point(sw, p);
    for (int i = 0; i < sw->nsets; i++) {
        if (sw->counts[i] < 2) continue;
        size_t used = strlen(buf);
        snprintf(buf + used, len - used, "%s%s", used ? " " : "", pt[i]);
    }
}

/* The number after "KEY": in line, or -1. */
static double number_after(const char *line, const char *key) {
    char want[64];
    snprintf(want, sizeof want, "\"%s\": ", key);
    const char *k = strstr(line, want);
    return k ? strtod(k + strlen(want), NULL) : -1;
}

/* A job's line of the point's "jobs" array: its name and slowdown. */
static void read_job_line(const char *line, struct sweep_result *r) {
    const char *name = strstr(line, "{\"name\": \"");
    if (!name || r->njobs >= SWEEP_MAX_JOBS) return;
    name += 10;
    size_t len = strcspn(name, "\"");
    if (len >= sizeof r->job_name[0]) len = sizeof r->job_name[0] - 1;
    memcpy(r->job_name[r->njobs], name, len);
    r->job_name[r->njobs][len] = 0;
    r->slowdown[r->njobs++] = number_after(line, "slowdown");
}

void sweep_read_point(const char *json, struct sweep_result *r) {
    static const char *const parts[4] = {"compute", "p2p", "collective", "blocked"};
    static const char *const top[] = {"predicted_time",  "end_time",
                                      "computation_cpu", "lost_to_other_programs",
                                      "waited_for_core", "steal"};
    double *into[] = {&r->predicted, &r->end, &r->cpu, &r->lost, &r->waited, &r->steal};
    for (int k = 0; k < 6; k++)
        *into[k] = -1;
    double sum[4] = {0};
    long ranks = 0;
    FILE *f = fopen(json, "r");
    char line[8192];
    bool in_ranks = false;
    r->njobs = 0;
    while (f && fgets(line, sizeof line, f)) {
        if (!strncmp(line, "    {\"name\": ", 13)) read_job_line(line, r);
        if (!strncmp(line, "  \"ranks\": [", 12))
            in_ranks = true;
        else if (in_ranks && !strncmp(line, "  ]", 3))
            in_ranks = false;
        else if (in_ranks && strstr(line, "{\"rank\": ")) {
            for (int k = 0; k < 4; k++)
                sum[k] += number_after(line, parts[k]);
            ranks++;
        }
        for (int k = 0; k < 6; k++)
            if (*into[k] < 0) *into[k] = number_after(line, top[k]);
    }
    if (f) fclose(f);
    r->host = r->cpu >= 0;
    r->has_breakdown = ranks > 0;
    for (int k = 0; k < 4; k++)
        r->breakdown[k] = ranks ? sum[k] / (double)ranks : 0;
}

bool sweep_make_points_dir(const char *html, char *dir, size_t n, struct sim_error *err) {
    size_t len = strlen(html);
    if (len > 5 && !strcmp(html + len - 5, ".html")) len -= 5;
    if ((size_t)snprintf(dir, n, "%.*s-points", (int)len, html) >= n)
        return err_set(err, "%s: too long a name", html);
    if (mkdir(dir, 0777) != 0 && errno != EEXIST)
        return err_set(err, "%s: cannot create the folder of each point's report: %s", dir,
                       strerror(errno));
    return true;
}

void cli_copy_file(const char *path, FILE *to) {
    FILE *f = fopen(path, "r");
    char buf[8192];
    size_t n;
    while (f && (n = fread(buf, 1, sizeof buf, f)) > 0)
        fwrite(buf, 1, n, to);
    if (f) fclose(f);
    fflush(to);
}

static const char *status_name(int st) {
    return st == 0 ? "ok" : st == 3 ? "deadlock" : st == 6 ? "node failure" : "error";
}

bool sweep_only_seeds(const struct sweep *sw) {
    for (int i = 0; i < sw->nsets; i++)
        if (sw->counts[i] > 1 && !strstr(sw->points[i], "seed")) return false;
    return true;
}

bool sweep_check_platforms(const struct sweep *sw, const char *path, char *why, size_t n) {
    int check = sweep_only_seeds(sw) ? 1 : sw->npoints;
    for (int p = 0; p < check; p++) {
        struct sim_error err = {0};
        struct network net;
        struct platform *plat = platform_load(path, sweep_point(sw, p), sw->nsets, &err);
        bool ok = plat && network_init(&net, plat, &err);
        if (ok) network_destroy(&net);
        platform_free(plat);
        if (ok) continue;
        char label[512];
        sweep_point_label(sw, p, label, sizeof label);
        const char *msg = err.set ? err.msg : "the platform could not be built";
        if (check == 1)
            snprintf(why, n, "%s (no point of the sweep was run)", msg);
        else
            snprintf(why, n, "at sweep point %s: %s (no point of the sweep was run)", label, msg);
        return false;
    }
    return true;
}

/* Whether the sweep varies a seed (fault_seed, --seeds, faults[i].seed):
 * its points are draws, summed up as a distribution. */
static bool sweeps_seeds(const struct sweep *sw) {
    for (int i = 0; i < sw->nsets; i++)
        if (sw->counts[i] > 1 && strstr(sw->points[i], "seed")) return true;
    return false;
}

static int by_value(const void *a, const void *b) {
    double x = *(const double *)a, y = *(const double *)b;
    return x < y ? -1 : x > y;
}

/* The q-quantile of n sorted values (linear between the nearest ranks). */
static double quantile(const double *v, int n, double q) {
    double pos = q * (n - 1);
    int lo = (int)pos;
    return lo + 1 < n ? v[lo] + (pos - lo) * (v[lo + 1] - v[lo]) : v[lo];
}

struct distribution {
    int n, completed, failed;
    double mean, min, q10, q50, q90, max;
};

static struct distribution distribution_values(double *v, struct distribution d);

/* The times the job ended at (completed or aborted by a crash), over the
 * points that gave one. */
static struct distribution distribution_of(const struct sweep *sw, const struct sweep_result *res) {
    struct distribution d = {0};
    double *v = xcalloc((size_t)sw->npoints, sizeof *v);
    for (int p = 0; p < sw->npoints; p++) {
        if (res[p].exit_status != 0 && res[p].exit_status != 6) continue;
        v[d.n++] = res[p].end >= 0 ? res[p].end : res[p].predicted;
        d.completed += res[p].exit_status == 0;
        d.failed += res[p].exit_status == 6;
    }
    d = distribution_values(v, d);
    free(v);
    return d;
}

/* Job j's slowdowns over the draws that completed. */
static struct distribution slowdowns_of(const struct sweep *sw, const struct sweep_result *res,
                                        int j) {
    struct distribution d = {0};
    double *v = xcalloc((size_t)sw->npoints, sizeof *v);
    for (int p = 0; p < sw->npoints; p++)
        if (res[p].exit_status == 0 && j < res[p].njobs && res[p].slowdown[j] > 0) {
            v[d.n++] = res[p].slowdown[j];
            d.completed++;
        }
    d = distribution_values(v, d);
    free(v);
    return d;
}

static void print_slowdowns(const struct sweep *sw, const struct sweep_result *res) {
    for (int j = 0; j < res[0].njobs; j++) {
        struct distribution d = slowdowns_of(sw, res, j);
        if (d.n)
            printf("job %s, slowdown over %d draws: mean %.4f, min %.4f, 10%% %.4f, median "
                   "%.4f, 90%% %.4f, max %.4f\n",
                   res[0].job_name[j], d.n, d.mean, d.min, d.q10, d.q50, d.q90, d.max);
    }
}

static void json_slowdowns(FILE *f, const struct sweep *sw, const struct sweep_result *res) {
    fprintf(f, ", \"slowdown\": {");
    for (int j = 0; j < res[0].njobs; j++) {
        struct distribution d = slowdowns_of(sw, res, j);
        fprintf(f, "%s", j ? ", " : "");
        escape_json(f, res[0].job_name[j]);
        fprintf(f,
                ": {\"draws\": %d, \"mean\": %.12g, \"min\": %.12g, \"q10\": %.12g, "
                "\"median\": %.12g, \"q90\": %.12g, \"max\": %.12g}",
                d.n, d.mean, d.min, d.q10, d.q50, d.q90, d.max);
    }
    fprintf(f, "}");
}

/* The mean and quantiles of the d.n values v (sorted here). */
static struct distribution distribution_values(double *v, struct distribution d) {
    if (d.n) {
        qsort(v, (size_t)d.n, sizeof *v, by_value);
        for (int i = 0; i < d.n; i++)
            d.mean += v[i] / d.n;
        d = (struct distribution){d.n,
                                  d.completed,
                                  d.failed,
                                  d.mean,
                                  v[0],
                                  quantile(v, d.n, 0.1),
                                  quantile(v, d.n, 0.5),
                                  quantile(v, d.n, 0.9),
                                  v[d.n - 1]};
    }
    return d;
}

static void print_distribution(const struct distribution *d) {
    printf("over %d draws: %d completed, %d aborted by a node's crash\n", d->n, d->completed,
           d->failed);
    if (d->n)
        printf("time the job ended (s): mean %.9f, min %.9f, 10%% %.9f, median %.9f, 90%% %.9f, "
               "max %.9f\n",
               d->mean, d->min, d->q10, d->q50, d->q90, d->max);
}

/* Whether the points say what the host did (on-line runs). */
static bool any_host(const struct sweep *sw, const struct sweep_result *res) {
    for (int p = 0; p < sw->npoints; p++)
        if (res[p].host) return true;
    return false;
}

/* A point's host figures in the JSON array. */
static void json_point_host(FILE *f, const struct sweep_result *r) {
    if (!r->host) return;
    fprintf(f,
            ", \"host\": {\"computation_cpu\": %.9g, \"lost_to_other_programs\": %.9g, "
            "\"waited_for_core\": %.9g, \"steal\": %.9g}",
            r->cpu, r->lost, r->waited, r->steal);
}

int sweep_report(const struct sweep *sw, const struct sweep_result *res, const char *json) {
    bool host = any_host(sw, res);
    int w = 48; /* the points' column: as wide as the longest label */
    for (int p = 0; p < sw->npoints; p++) {
        char label[512];
        sweep_point_label(sw, p, label, sizeof label);
        if ((int)strlen(label) > w) w = (int)strlen(label);
    }
    printf("%-*s %20s  %s\n", w, "sweep point", "predicted time (s)",
           host ? "status   computation (s)  others took (s)" : "status");
    int rc = 0;
    for (int p = 0; p < sw->npoints; p++) {
        char label[512];
        sweep_point_label(sw, p, label, sizeof label);
        if (res[p].exit_status == 0 && res[p].host)
            printf("%-*s %20.9f  ok       %15.6f  %15.6f\n", w, label, res[p].predicted, res[p].cpu,
                   res[p].lost);
        else if (res[p].exit_status == 0)
            printf("%-*s %20.9f  ok\n", w, label, res[p].predicted);
        else if (res[p].exit_status == 6 && res[p].end >= 0)
            printf("%-*s %20s  node failure: aborted at %.9f s\n", w, label, "-", res[p].end);
        else
            printf("%-*s %20s  %s (exit status %d)\n", w, label, "-",
                   status_name(res[p].exit_status), res[p].exit_status);
        bool outcome = res[p].exit_status == 6 && sweeps_seeds(sw); /* a draw's crash */
        if (res[p].exit_status && !outcome && !rc) rc = res[p].exit_status;
    }
    bool seeds = sweeps_seeds(sw);
    struct distribution d = seeds ? distribution_of(sw, res) : (struct distribution){0};
    if (seeds) print_distribution(&d);
    if (seeds && res[0].njobs) print_slowdowns(sw, res);
    if (!json) return rc;
    struct outfile out;
    struct sim_error err = {0};
    if (!outfile_open(&out, json, &err)) {
        err_print(&err);
        return rc ? rc : EXIT_INPUT_ERROR;
    }
    fprintf(out.f, seeds ? "{\"points\": [\n" : "[\n");
    for (int p = 0; p < sw->npoints; p++) {
        fprintf(out.f, "  {\"set\": {");
        const char **pt = sweep_point(sw, p);
        int shown = 0;
        for (int i = 0; i < sw->nsets; i++) {
            if (sw->counts[i] < 2) continue;
            const char *eq = strchr(pt[i], '=');
            fprintf(out.f, "%s\"%.*s\": \"%s\"", shown++ ? ", " : "", (int)(eq - pt[i]), pt[i],
                    eq + 1);
        }
        fprintf(out.f,
                "}, \"predicted_time\": %.12g, \"end_time\": %.12g, \"status\": \"%s\", "
                "\"exit_status\": %d",
                res[p].exit_status == 0 ? res[p].predicted : -1.0, res[p].end,
                status_name(res[p].exit_status), res[p].exit_status);
        json_point_host(out.f, &res[p]);
        if (res[p].has_breakdown)
            fprintf(out.f,
                    ", \"compute\": %.12g, \"p2p\": %.12g, \"collective\": %.12g, "
                    "\"blocked\": %.12g",
                    res[p].breakdown[0], res[p].breakdown[1], res[p].breakdown[2],
                    res[p].breakdown[3]);
        for (int j = 0; j < res[p].njobs; j++)
            fprintf(out.f, j ? ", %.12g" : ", \"slowdown\": [%.12g", res[p].slowdown[j]);
        fprintf(out.f, "%s}%s\n", res[p].njobs ? "]" : "", p + 1 < sw->npoints ? "," : "");
    }
    if (seeds)
        fprintf(out.f,
                "], \"draws\": %d, \"completed\": %d, \"aborted\": %d, \"end_time\": {\"mean\": "
                "%.12g, \"min\": %.12g, \"q10\": %.12g, \"median\": %.12g, \"q90\": %.12g, "
                "\"max\": %.12g}",
                d.n, d.completed, d.failed, d.mean, d.min, d.q10, d.q50, d.q90, d.max);
    if (seeds && res[0].njobs) json_slowdowns(out.f, sw, res);
    if (seeds)
        fprintf(out.f, "}\n");
    else
        fprintf(out.f, "]\n");
    if (!outfile_commit(&out, &err)) {
        err_print(&err);
        return rc ? rc : EXIT_INPUT_ERROR;
    }
    return rc;
}
