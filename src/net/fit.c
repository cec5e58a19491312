/* SPDX-License-Identifier: BSD-3-Clause */
/* Piecewise-linear fitting of ping-pong measurements (see fit.h). Among all
 * boundaries between measurements and 1 to 4 segments, the fit kept is the
 * one with the lowest mean log error against the measurements; fits within
 * 0.002 of it are told apart by the product of their segments' correlation
 * coefficients (the SMPI paper's rule), and a segment more is kept only if
 * it lowers the error by 0.01. The product alone chooses both in the paper;
 * on this machine's Open MPI it chose a single segment, off by 31% on
 * average: the latency-bound segment of small messages is nearly flat, so
 * its correlation is low whatever its fit, and the product prefers
 * boundaries that fit badly. The search is exhaustive: with 48 sizes (1 B to
 * 16 MiB) and 4 segments, about ten thousand candidates. A segment whose
 * times do not grow with size (r undefined or negative) is not a candidate.
 * Regressions and correlations are weighted by 1 / t^2 (relative least
 * squares): unweighted, the largest messages (milliseconds) decide every
 * fit and the small ones (microseconds) are off by 100% or more. */
#include "net/fit.h"

#include <math.h>
#include <stdbool.h>
#include <string.h>

/* The least decrease of the mean log error that justifies a segment more,
 * and the difference under which two fits count as equally good. */
#define FIT_GAIN 0.01
#define FIT_TIE 0.002

void fit_line(const double *size, const double *time, int first, int count,
              struct fit_segment *seg) {
    /* weights 1 / t^2: each point's relative error counts alike, whether
     * the message takes a microsecond or a second */
    double w = 0, mx = 0, my = 0;
    for (int i = first; i < first + count; i++) {
        double wi = 1 / (time[i] * time[i]);
        w += wi;
        mx += wi * size[i];
        my += wi * time[i];
    }
    mx /= w;
    my /= w;
    double vx = 0, vy = 0, cov = 0;
    for (int i = first; i < first + count; i++) {
        double wi = 1 / (time[i] * time[i]), dx = size[i] - mx, dy = time[i] - my;
        vx += wi * dx * dx;
        vy += wi * dy * dy;
        cov += wi * dx * dy;
    }
    seg->first = first;
    seg->count = count;
    seg->per_byte = vx > 0 ? cov / vx : 0;
    seg->latency = my - seg->per_byte * mx;
    seg->r = vx > 0 && vy > 0 ? cov / sqrt(vx * vy) : (vy == 0 ? 1.0 : 0.0);
    if (seg->latency < 0) { /* no negative latency: the line through the origin */
        double sxy = 0, sxx = 0;
        for (int i = first; i < first + count; i++) {
            double wi = 1 / (time[i] * time[i]);
            sxy += wi * size[i] * time[i];
            sxx += wi * size[i] * size[i];
        }
        seg->latency = 0;
        seg->per_byte = sxx > 0 ? sxy / sxx : 0;
    }
}

struct search {
    const double *size, *time;
    int n, min_points;
    double best, best_err; /* product of r, mean log error of the fit kept */
    int best_nseg;
    struct fit_segment best_seg[FIT_MAX_SEGMENTS], cur[FIT_MAX_SEGMENTS];
};

/* Tries every way of cutting [from, n) into `left` more segments. */
static void search(struct search *s, int from, int left, int depth, double score) {
    if (left == 1) {
        struct fit_segment *g = &s->cur[depth];
        fit_line(s->size, s->time, from, s->n - from, g);
        if (g->r <= 0) return;
        int k = depth + 1;
        if (k > FIT_MAX_SEGMENTS) return;
        for (int i = 0; i < k; i++)
            s->cur[i].upto = i + 1 < k ? s->size[s->cur[i].first + s->cur[i].count - 1] : INFINITY;
        double mean, max, product = score * g->r;
        fit_log_error(s->cur, k, s->size, s->time, s->n, &mean, &max);
        /* the lowest mean log error; among fits within FIT_TIE of it, the
         * largest product of correlation coefficients */
        bool better = mean < s->best_err - FIT_TIE ||
                      (mean <= s->best_err + FIT_TIE && product > s->best + 1e-12);
        if (better) {
            s->best = product;
            s->best_err = mean < s->best_err ? mean : s->best_err;
            s->best_nseg = k;
            memcpy(s->best_seg, s->cur, sizeof s->cur[0] * (size_t)k);
        }
        return;
    }
    for (int end = from + s->min_points; end <= s->n - s->min_points * (left - 1); end++) {
        struct fit_segment *g = &s->cur[depth];
        fit_line(s->size, s->time, from, end - from, g);
        if (g->r <= 0) continue;
        search(s, end, left - 1, depth + 1, score * g->r);
    }
}

/* The boundaries of k segments (-1: none found). */
static double best_for(struct search *s, int k, struct fit_segment *out) {
    s->best = -1;
    s->best_err = INFINITY;
    s->best_nseg = 0;
    search(s, 0, k, 0, 1.0);
    if (s->best_nseg == 0) return -1;
    memcpy(out, s->best_seg, sizeof *out * (size_t)k);
    for (int i = 0; i < k; i++)
        out[i].upto = i + 1 < k ? s->size[out[i].first + out[i].count - 1] : INFINITY;
    return s->best;
}

int fit_piecewise(const double *size, const double *time, int n, int max_segments, int min_points,
                  struct fit_segment *out) {
    struct search s = {.size = size, .time = time, .n = n, .min_points = min_points};
    if (max_segments > FIT_MAX_SEGMENTS) max_segments = FIT_MAX_SEGMENTS;
    int chosen = 0;
    double chosen_err = INFINITY;
    struct fit_segment cand[FIT_MAX_SEGMENTS];
    for (int k = 1; k <= max_segments && k * min_points <= n; k++) {
        if (best_for(&s, k, cand) < 0) continue;
        double mean, max;
        fit_log_error(cand, k, size, time, n, &mean, &max);
        /* one more segment must lower the mean log error by FIT_GAIN */
        if (chosen && mean > chosen_err - FIT_GAIN) continue;
        chosen = k;
        chosen_err = mean;
        memcpy(out, cand, sizeof *out * (size_t)k);
    }
    if (chosen == 0) { /* too few points: one segment */
        fit_line(size, time, 0, n, &out[0]);
        out[0].upto = INFINITY;
        chosen = 1;
    }
    return chosen;
}

double fit_eval(const struct fit_segment *seg, int nseg, double size) {
    int i = 0;
    while (i + 1 < nseg && size > seg[i].upto)
        i++;
    return seg[i].latency + size * seg[i].per_byte;
}

void fit_log_error(const struct fit_segment *seg, int nseg, const double *size, const double *time,
                   int n, double *mean, double *max) {
    double sum = 0, worst = 0;
    for (int i = 0; i < n; i++) {
        double m = fit_eval(seg, nseg, size[i]);
        double e = m > 0 && time[i] > 0 ? fabs(log(m) - log(time[i])) : INFINITY;
        sum += e;
        if (e > worst) worst = e;
    }
    *mean = n ? sum / n : 0;
    *max = worst;
}
