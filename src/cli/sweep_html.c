/* SPDX-License-Identifier: BSD-3-Clause */
/* A sweep's page (`--set K=V1,V2,... --report FILE.html`): one
 * self-contained HTML file, drawn with inline SVG (no script, no network):
 * the predicted time against each swept key's values (one line per value
 * of the other swept keys), each point's breakdown (the mean rank's
 * compute, point-to-point, collective and blocked time), and the table,
 * with each point's own report linked. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli/cli.h"
#include "core/alloc.h"
#include "core/outfile.h"
#include "core/units.h"

#define CHART_W 640
#define CHART_H 300
#define MARGIN_L 80
#define MARGIN_B 50
#define MARGIN_T 20

static const char *const palette[] = {"#1f77b4", "#d62728", "#2ca02c", "#ff7f0e", "#9467bd",
                                      "#8c564b", "#e377c2", "#7f7f7f", "#bcbd22", "#17becf"};
/* The parts of a rank's time, stacked (they add up to its finish): p2p is
 * drawn less its blocked part, which follows it. One colour per state,
 * the report's and the Python plots' (docs/reports.md). */
static const char *const part_names[4] = {"compute", "p2p", "collective",
                                          "blocked (p2p waiting for a partner)"};
static const char *const part_colours[4] = {"#2030d0", "#e03030", "#e0c000", "#b30000"};

/* Part k of point p's breakdown as drawn (p2p less blocked). */
static double part_value(const struct sweep_result *r, int k) {
    if (!r->has_breakdown) return 0;
    if (k != 1) return r->breakdown[k];
    double v = r->breakdown[1] - r->breakdown[3];
    return v > 0 ? v : 0;
}

/* Text for HTML: &, <, >, " escaped. */
static void html_text(FILE *f, const char *s) {
    for (; *s; s++) {
        if (*s == '&')
            fputs("&amp;", f);
        else if (*s == '<')
            fputs("&lt;", f);
        else if (*s == '>')
            fputs("&gt;", f);
        else if (*s == '"')
            fputs("&quot;", f);
        else
            fputc(*s, f);
    }
}

/* The index of key i's value at point p (the last key varies fastest). */
static int value_index(const struct sweep *sw, int p, int i) {
    int rest = p, k = 0;
    for (int j = sw->nsets - 1; j >= i; j--) {
        k = sw->counts[j] > 1 ? rest % sw->counts[j] : 0;
        if (sw->counts[j] > 1) rest /= sw->counts[j];
    }
    return k;
}

/* Point p's position among the combinations of the swept keys other than i. */
static int others_index(const struct sweep *sw, int p, int i) {
    int idx = 0;
    for (int j = 0; j < sw->nsets; j++)
        if (j != i && sw->counts[j] > 1) idx = idx * sw->counts[j] + value_index(sw, p, j);
    return idx;
}

/* A time unit that reads well for values up to max seconds. */
static void time_unit(double max, double *scale, const char **name) {
    if (max >= 1)
        *scale = 1, *name = "s";
    else if (max >= 1e-3)
        *scale = 1e3, *name = "ms";
    else if (max >= 1e-6)
        *scale = 1e6, *name = "us";
    else
        *scale = 1e9, *name = "ns";
}

/* A round step for an axis over [0, max]: 1, 2 or 5 times a power of ten. */
static double axis_step(double max) {
    if (max <= 0) return 1;
    double raw = max / 5, p = pow(10, floor(log10(raw))), m = raw / p;
    return (m <= 1 ? 1 : m <= 2 ? 2 : m <= 5 ? 5 : 10) * p;
}

static double max_time(const struct sweep *sw, const struct sweep_result *res) {
    double max = 0;
    for (int p = 0; p < sw->npoints; p++)
        if (res[p].exit_status == 0 && res[p].predicted > max) max = res[p].predicted;
    return max;
}

/* The y axis of a chart: grid lines and labels in unit `unit`. */
static void y_axis(FILE *f, double top, double scale, const char *unit, const char *title) {
    double step = axis_step(top * scale), plot_h = CHART_H - MARGIN_B - MARGIN_T;
    for (double v = 0; v <= top * scale * 1.0001; v += step) {
        double y = CHART_H - MARGIN_B - v / (top * scale) * plot_h;
        fprintf(f,
                "<line x1='%d' x2='%d' y1='%.1f' y2='%.1f' stroke='#ddd'/>"
                "<text x='%d' y='%.1f' text-anchor='end' font-size='11'>%g</text>\n",
                MARGIN_L, CHART_W - 10, y, y, MARGIN_L - 6, y + 4, v);
    }
    fprintf(f,
            "<text transform='translate(16,%d) rotate(-90)' text-anchor='middle' "
            "font-size='12'>%s (%s)</text>\n",
            (CHART_H - MARGIN_B + MARGIN_T) / 2, title, unit);
}

/* A swept value as a number: a time (seconds), a size (bytes), a bandwidth
 * (bytes a second), a flop count or a plain number; false for a word. */
static bool value_number(const char *v, double *out) {
    simtime_t ps;
    int64_t bytes;
    if (units_parse_number(v, out, NULL) || units_parse_bandwidth(v, out, NULL) ||
        units_parse_flops(v, out, NULL))
        return true;
    if (units_parse_time(v, &ps, NULL)) {
        *out = simtime_to_seconds(ps);
        return true;
    }
    if (units_parse_size(v, false, false, &bytes, NULL)) {
        *out = (double)bytes;
        return true;
    }
    return false;
}

/* Where key i's values lie on the x axis, from 0 to 1: by quantity when
 * every value is one (on a log scale when they span more than 10 times,
 * all positive: returns true), else evenly in the order given. */
static bool x_positions(const struct sweep *sw, int i, double *pos) {
    int n = sw->counts[i];
    double lo = INFINITY, hi = -INFINITY, *v = xcalloc((size_t)n, sizeof *v);
    bool numeric = n > 1;
    for (int k = 0; k < n && numeric; k++) {
        numeric = value_number(strchr(sw->owned[i][k], '=') + 1, &v[k]);
        lo = fmin(lo, v[k]);
        hi = fmax(hi, v[k]);
    }
    bool log_scale = numeric && lo > 0 && hi > 10 * lo;
    for (int k = 0; k < n; k++) {
        if (!numeric || hi <= lo)
            pos[k] = n > 1 ? (double)k / (n - 1) : 0.5;
        else if (log_scale)
            pos[k] = (log(v[k]) - log(lo)) / (log(hi) - log(lo));
        else
            pos[k] = (v[k] - lo) / (hi - lo);
    }
    free(v);
    return log_scale;
}

/* Predicted time against swept key i, one line per combination of the others. */
static void chart_of_key(FILE *f, const struct sweep *sw, const struct sweep_result *res, int i) {
    const char *eq = strchr(sw->owned[i][0], '=');
    int key_len = (int)(eq - sw->owned[i][0]), n = sw->counts[i];
    double top = max_time(sw, res) * 1.1, scale;
    const char *unit;
    if (top <= 0) top = 1e-6;
    time_unit(top, &scale, &unit);
    fprintf(f, "<h2>Predicted time against %.*s</h2>\n", key_len, sw->owned[i][0]);
    fprintf(f, "<svg width='%d' height='%d' role='img' aria-label='predicted time against %.*s'>\n",
            CHART_W, CHART_H, key_len, sw->owned[i][0]);
    y_axis(f, top, scale, unit, "predicted time");
    double plot_w = CHART_W - MARGIN_L - 60, plot_h = CHART_H - MARGIN_B - MARGIN_T;
    double *pos = xcalloc((size_t)n, sizeof *pos);
    bool log_scale = x_positions(sw, i, pos);
    for (int v = 0; v < n; v++) {
        double x = MARGIN_L + 15 + plot_w * pos[v];
        fprintf(f, "<text x='%.1f' y='%d' text-anchor='middle' font-size='11'>", x,
                CHART_H - MARGIN_B + 16);
        html_text(f, strchr(sw->owned[i][v], '=') + 1);
        fputs("</text>\n", f);
    }
    fprintf(f, "<text x='%d' y='%d' text-anchor='middle' font-size='12'>%.*s%s</text>\n",
            MARGIN_L + (CHART_W - MARGIN_L) / 2, CHART_H - 8, key_len, sw->owned[i][0],
            log_scale ? " (log scale)" : "");
    int lines = sw->npoints / n;
    for (int l = 0; l < lines; l++) {
        const char *colour = palette[l % (int)(sizeof palette / sizeof palette[0])];
        fprintf(f, "<polyline fill='none' stroke='%s' stroke-width='2' points='", colour);
        for (int p = 0; p < sw->npoints; p++) {
            if (others_index(sw, p, i) != l || res[p].exit_status) continue;
            double x = MARGIN_L + 15 + plot_w * pos[value_index(sw, p, i)];
            fprintf(f, "%.1f,%.1f ", x, CHART_H - MARGIN_B - res[p].predicted / top * plot_h);
        }
        fputs("'/>\n", f);
        for (int p = 0; p < sw->npoints; p++) {
            if (others_index(sw, p, i) != l || res[p].exit_status) continue;
            double x = MARGIN_L + 15 + plot_w * pos[value_index(sw, p, i)];
            fprintf(f,
                    "<circle cx='%.1f' cy='%.1f' r='3.5' fill='%s'><title>%g %s</title></circle>\n",
                    x, CHART_H - MARGIN_B - res[p].predicted / top * plot_h, colour,
                    res[p].predicted * scale, unit);
        }
    }
    fputs("</svg>\n", f);
    free(pos);
    if (lines < 2) return;
    fputs("<div class='legend'>", f); /* the other keys' values of each line */
    for (int l = 0; l < lines; l++) {
        for (int p = 0; p < sw->npoints; p++) {
            if (others_index(sw, p, i) != l || value_index(sw, p, i) != 0) continue;
            fprintf(f, "<span><i style='background:%s'></i>",
                    palette[l % (int)(sizeof palette / sizeof palette[0])]);
            const char **pt = sweep_point(sw, p);
            for (int j = 0, shown = 0; j < sw->nsets; j++) {
                if (j == i || sw->counts[j] < 2) continue;
                if (shown++) fputc(' ', f);
                html_text(f, pt[j]);
            }
            fputs("</span>", f);
            break;
        }
    }
    fputs("</div>\n", f);
}

/* Each point's breakdown as a stacked horizontal bar. */
static void breakdown_chart(FILE *f, const struct sweep *sw, const struct sweep_result *res) {
    double top = 0, scale;
    const char *unit;
    for (int p = 0; p < sw->npoints; p++) {
        double sum = 0;
        for (int k = 0; k < 4; k++)
            sum += part_value(&res[p], k);
        if (sum > top) top = sum;
    }
    if (top <= 0) return;
    top *= 1.05;
    time_unit(top, &scale, &unit);
    int bar = 18, label_w = 260, w = CHART_W + 160, h = sw->npoints * (bar + 6) + 40;
    fputs("<h2>Where the time goes at each point</h2>\n<p>The mean rank's time in each "
          "state.</p>\n<div class='legend'>",
          f);
    for (int k = 0; k < 4; k++)
        fprintf(f, "<span><i style='background:%s'></i>%s</span>", part_colours[k], part_names[k]);
    fprintf(f, "</div>\n<svg width='%d' height='%d' role='img' aria-label='breakdown'>\n", w, h);
    double plot_w = w - label_w - 20;
    for (int p = 0; p < sw->npoints; p++) {
        char label[512];
        sweep_point_label(sw, p, label, sizeof label);
        int y = 10 + p * (bar + 6);
        fprintf(f, "<text x='%d' y='%d' text-anchor='end' font-size='11'>", label_w - 6,
                y + bar - 5);
        html_text(f, label);
        fputs("</text>\n", f);
        double x = label_w;
        for (int k = 0; k < 4 && res[p].has_breakdown; k++) {
            double bw = part_value(&res[p], k) / top * plot_w;
            fprintf(f,
                    "<rect x='%.1f' y='%d' width='%.1f' height='%d' fill='%s'><title>%s %g "
                    "%s</title></rect>\n",
                    x, y, bw, bar, part_colours[k], part_names[k], part_value(&res[p], k) * scale,
                    unit);
            x += bw;
        }
    }
    double step = axis_step(top * scale);
    int axis_y = 10 + sw->npoints * (bar + 6);
    for (double v = 0; v <= top * scale * 1.0001; v += step)
        fprintf(f, "<text x='%.1f' y='%d' text-anchor='middle' font-size='11'>%g</text>\n",
                label_w + v / (top * scale) * plot_w, axis_y + 12, v);
    fprintf(f, "<text x='%.1f' y='%d' text-anchor='middle' font-size='12'>%s</text>\n",
            label_w + plot_w / 2, axis_y + 28, unit);
    fputs("</svg>\n", f);
}

/* The table: each point, its prediction, status, breakdown and report. */
static void table(FILE *f, const struct sweep *sw, const struct sweep_result *res,
                  const char *points_rel) {
    fputs("<h2>Points</h2>\n<table><tr><th>point</th><th>predicted time (s)</th><th>status</th>"
          "<th>compute</th><th>p2p</th><th>collective</th><th>blocked</th>",
          f);
    fprintf(f, "%s</tr>\n", points_rel ? "<th>report</th>" : "");
    for (int p = 0; p < sw->npoints; p++) {
        char label[512];
        sweep_point_label(sw, p, label, sizeof label);
        fputs("<tr><td>", f);
        html_text(f, label);
        if (res[p].exit_status == 0)
            fprintf(f, "</td><td class='n'>%.9f</td><td>ok</td>", res[p].predicted);
        else
            fprintf(f, "</td><td class='n'>-</td><td>exit status %d</td>", res[p].exit_status);
        for (int k = 0; k < 4; k++)
            if (res[p].has_breakdown)
                fprintf(f, "<td class='n'>%.9f</td>", res[p].breakdown[k]);
            else
                fputs("<td></td>", f);
        if (points_rel) {
            fputs("<td><a href='", f);
            html_text(f, points_rel);
            fprintf(f, "/point%d.html'>report</a></td>", p);
        }
        fputs("</tr>\n", f);
    }
    fputs("</table>\n", f);
}

bool sweep_write_html(const struct sweep *sw, const struct sweep_result *res, const char *html,
                      const char *points_dir, const char *command, struct sim_error *err) {
    struct outfile out;
    if (!outfile_open(&out, html, err)) return false;
    FILE *f = out.f;
    const char *slash = points_dir ? strrchr(points_dir, '/') : NULL;
    const char *points_rel = points_dir ? (slash ? slash + 1 : points_dir) : NULL;
    fputs("<!DOCTYPE html>\n<html lang='en'><head><meta charset='utf-8'>\n"
          "<title>simpi sweep</title>\n<style>\n"
          "body{font-family:sans-serif;margin:24px;color:#222;max-width:1000px}\n"
          "table{border-collapse:collapse;font-size:13px}td,th{border:1px solid #ccc;"
          "padding:3px 8px}td.n{text-align:right;font-family:monospace}\n"
          ".legend span{margin-right:14px;font-size:12px;white-space:nowrap}\n"
          ".legend i{display:inline-block;width:12px;height:12px;margin-right:4px;"
          "vertical-align:middle}\ncode{background:#f4f4f4;padding:1px 4px}\n"
          "</style></head><body>\n<h1>simpi: a sweep of ",
          f);
    int ok = 0;
    for (int p = 0; p < sw->npoints; p++)
        ok += res[p].exit_status == 0;
    fprintf(f, "%d points</h1>\n<p>%d completed", sw->npoints, ok);
    if (command) {
        fputs("; <code>", f);
        html_text(f, command);
        fputs("</code>", f);
    }
    fputs("</p>\n", f);
    for (int i = 0; i < sw->nsets; i++)
        if (sw->counts[i] > 1) chart_of_key(f, sw, res, i);
    breakdown_chart(f, sw, res);
    table(f, sw, res, points_rel);
    fputs("</body></html>\n", f);
    return outfile_commit(&out, err);
}
