/* SPDX-License-Identifier: BSD-3-Clause */
/* `simpi calibrate pingpong [-o FILE.yaml] [--svg FILE.svg] [--data FILE]
 * [--as intra|inter] [--segments K] -- mpirun -np 2`: runs the bundled
 * ping-pong (simpi-pingpong, beside simpi) on a real MPI, or reads earlier
 * measurements (--data), fits the piecewise-linear model (net/fit.h), prints
 * the segments and the log errors of the built-in platform's affine model,
 * the best-fit affine model and the piecewise one, writes the platform
 * fragment (YAML, layered over the built-in platform by --platform) and an
 * SVG plot of the three models against the measurements (docs/interop.md). */
#include <errno.h>
#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "cli/cli.h"
#include "core/alloc.h"
#include "core/outfile.h"
#include "net/fit.h"
#include "net/network.h"
#include "platform/platform.h"

#define MAX_POINTS 256

struct pingpong {
    double size[MAX_POINTS], time[MAX_POINTS];
    int n;
};

struct pp_opts {
    const char *out, *svg, *data, *as;
    int segments;
    char **cmd;
};

/* The largest plausible one-way time and message size: beyond, a line is
 * a unit mistake or garbage (1e300 s would fit a free network). */
#define MAX_SECONDS 3600.0
#define MAX_BYTES 1e15

/* Reads "SIZE SECONDS" lines ('#' comments); false with a message naming
 * the line otherwise. */
static bool read_points(FILE *f, const char *name, struct pingpong *pp) {
    char line[512];
    for (int ln = 1; fgets(line, sizeof line, f); ln++) {
        char *p = line + strspn(line, " \t");
        if (*p == '#' || *p == '\n' || !*p) continue;
        double s, t;
        char extra;
        if (sscanf(p, "%lf %lf %c", &s, &t, &extra) != 2 || !(s > 0) || !(t > 0) || !isfinite(s) ||
            !isfinite(t)) {
            fprintf(
                stderr,
                "simpi calibrate: %s:%d: expected 'SIZE SECONDS' (both positive), found '%.*s'\n",
                name, ln, (int)strcspn(p, "\n"), p);
            return false;
        }
        if (t > MAX_SECONDS || s > MAX_BYTES) {
            fprintf(stderr,
                    "simpi calibrate: %s:%d: %g s for %g B is not a ping-pong measurement (at "
                    "most %g s and %g B)\n",
                    name, ln, t, s, MAX_SECONDS, MAX_BYTES);
            return false;
        }
        if (pp->n && s <= pp->size[pp->n - 1]) {
            fprintf(stderr, "simpi calibrate: %s:%d: sizes must increase (%g after %g)\n", name, ln,
                    s, pp->size[pp->n - 1]);
            return false;
        }
        if (pp->n == MAX_POINTS) {
            fprintf(stderr, "simpi calibrate: %s:%d: more than %d sizes\n", name, ln, MAX_POINTS);
            return false;
        }
        pp->size[pp->n] = s;
        pp->time[pp->n++] = t;
    }
    if (pp->n < 3) {
        fprintf(stderr, "simpi calibrate: %s: %d measurement(s); at least 3 are needed\n", name,
                pp->n);
        return false;
    }
    return true;
}

/* Runs LAUNCHER... simpi-pingpong (beside simpi, or SIMPI_PINGPONG) and
 * reads its output. */
static bool run_pingpong(char **cmd, struct pingpong *pp) {
    char exe[PATH_MAX];
    if (!cli_find_helper("simpi-pingpong", "SIMPI_PINGPONG", X_OK, exe, sizeof exe)) {
        fprintf(stderr,
                "simpi calibrate: simpi-pingpong not found beside simpi (it is built when an "
                "MPI such as Open MPI is installed: scripts/install-deps)\n");
        return false;
    }
    int argc = 0;
    while (cmd[argc])
        argc++;
    char **argv = xcalloc((size_t)argc + 2, sizeof *argv);
    memcpy(argv, cmd, sizeof *argv * (size_t)argc);
    argv[argc] = exe;
    int fds[2];
    if (pipe(fds) != 0) return false;
    pid_t parent = getpid(), pid = fork();
    if (pid == 0) {
        cli_child_dies_with_parent(parent);
        dup2(fds[1], 1);
        close(fds[0]);
        close(fds[1]);
        execvp(argv[0], argv);
        fprintf(stderr, "simpi calibrate: cannot run '%s': %s\n", argv[0], strerror(errno));
        _exit(127);
    }
    free(argv);
    close(fds[1]);
    FILE *f = fdopen(fds[0], "r");
    bool ok = pid > 0 && f && read_points(f, "the ping-pong's output", pp);
    if (f) fclose(f);
    int status = 0;
    if (pid > 0) waitpid(pid, &status, 0);
    if (ok && (!WIFEXITED(status) || WEXITSTATUS(status) != 0)) {
        fprintf(stderr, "simpi calibrate: the ping-pong run failed (status %d)\n", status);
        ok = false;
    }
    return ok;
}

/* The built-in platform's model between two ranks (intra or inter). */
static void default_model(const char *as, struct fit_segment *seg) {
    struct sim_error err = {0};
    struct platform *p = platform_load(NULL, NULL, 0, &err);
    struct network net = {0};
    if (!p || !network_init(&net, p, &err)) {
        memset(seg, 0, sizeof *seg);
        platform_free(p);
        return;
    }
    const struct p2p_model *m = !strcmp(as, "intra") ? &net.intra : &net.inter;
    double t0 = simtime_to_seconds(p2p_model_cost(m, 0));
    double t1 = simtime_to_seconds(p2p_model_cost(m, 1 << 20));
    *seg = (struct fit_segment){INFINITY, t0, (t1 - t0) / (1 << 20), 1, 0, 0};
    network_destroy(&net);
    platform_free(p);
}

static void print_error(const char *what, const struct fit_segment *seg, int nseg,
                        const struct pingpong *pp) {
    double mean, max;
    fit_log_error(seg, nseg, pp->size, pp->time, pp->n, &mean, &max);
    printf("  %-28s mean %8.1f%%  max %8.1f%%\n", what, 100 * (exp(mean) - 1),
           100 * (exp(max) - 1));
}

/* A segment as platform values: latency >= 0, a finite bandwidth. */
static void segment_values(const struct fit_segment *g, double *lat, double *bw) {
    *lat = g->latency > 0 ? g->latency : 0;
    *bw = g->per_byte > 1e-15 ? 1 / g->per_byte : 1e15;
}

/* Says on stderr where the fit cannot be trusted: a segment whose times
 * fall as sizes grow (its bandwidth would be infinite: 1 PB/s written),
 * one whose points hardly lie on a line, or a large log error overall. */
static void warn_poor_fit(const struct fit_segment *seg, int nseg, const struct pingpong *pp) {
    for (int i = 0; i < nseg; i++) {
        if (seg[i].per_byte <= 1e-15)
            fprintf(stderr,
                    "simpi calibrate: warning: segment %d: the times fall (or stay flat) as the "
                    "sizes grow (r = %.2f): its bandwidth is written as 1 PB/s; check the "
                    "measurements (units, a noisy run)\n",
                    i + 1, seg[i].r);
        else if (seg[i].r < 0.5)
            fprintf(stderr,
                    "simpi calibrate: warning: segment %d: its points hardly lie on a line "
                    "(r = %.2f); check the measurements\n",
                    i + 1, seg[i].r);
    }
    double mean, max;
    fit_log_error(seg, nseg, pp->size, pp->time, pp->n, &mean, &max);
    if (exp(mean) - 1 > 0.5)
        fprintf(stderr,
                "simpi calibrate: warning: the model is %.0f%% off the measurements on average: "
                "a poor fit\n",
                100 * (exp(mean) - 1));
}

static void write_yaml(FILE *f, const struct pp_opts *o, const struct fit_segment *seg, int nseg,
                       int npoints) {
    fprintf(f, "# simpi calibrate pingpong: %d sizes, %d segments (docs/interop.md)\n", npoints,
            nseg);
    fprintf(f, "%s:\n  model: piecewise\n  segments:\n", o->as);
    for (int i = 0; i < nseg; i++) {
        double lat, bw;
        segment_values(&seg[i], &lat, &bw);
        if (i + 1 < nseg)
            fprintf(f, "    - {upto: %.0fB, latency: %.6fus, bandwidth: %.6fMB/s}\n", seg[i].upto,
                    lat * 1e6, bw / 1e6);
        else
            fprintf(f, "    - {upto: inf, latency: %.6fus, bandwidth: %.6fMB/s}\n", lat * 1e6,
                    bw / 1e6);
    }
}

/* --- the SVG plot: log-log, the measurements and the three models --- */

struct axes {
    double x0, x1, y0, y1; /* log10 ranges */
};

static double px(const struct axes *a, double s) {
    return 70 + 540 * (log10(s) - a->x0) / (a->x1 - a->x0);
}

static double py(const struct axes *a, double t) {
    return 370 - 340 * (log10(t) - a->y0) / (a->y1 - a->y0);
}

static void svg_model(FILE *f, const struct axes *a, const struct fit_segment *seg, int nseg,
                      const char *colour, const char *dash, const struct pingpong *pp) {
    fprintf(f, "<polyline fill=\"none\" stroke=\"%s\" stroke-width=\"2\"%s points=\"", colour,
            dash);
    for (int i = 0; i <= 200; i++) {
        double s = pow(10, a->x0 + (a->x1 - a->x0) * i / 200);
        if (s < pp->size[0] || s > pp->size[pp->n - 1]) continue;
        double t = fit_eval(seg, nseg, s);
        if (t > 0) fprintf(f, "%.1f,%.1f ", px(a, s), py(a, t));
    }
    fprintf(f, "\"/>\n");
}

static void write_svg(FILE *f, const struct pingpong *pp, const struct fit_segment *def,
                      const struct fit_segment *aff, const struct fit_segment *seg, int nseg) {
    struct axes a = {floor(log10(pp->size[0])), ceil(log10(pp->size[pp->n - 1])), 1e9, -1e9};
    for (int i = 0; i < pp->n; i++) {
        double lt = log10(pp->time[i]);
        a.y0 = fmin(a.y0, floor(lt));
        a.y1 = fmax(a.y1, ceil(lt));
    }
    if (a.x1 <= a.x0) a.x1 = a.x0 + 1;
    if (a.y1 <= a.y0) a.y1 = a.y0 + 1;
    fprintf(f, "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"640\" height=\"420\" "
               "font-family=\"sans-serif\" font-size=\"11\">\n<rect width=\"640\" height=\"420\" "
               "fill=\"white\"/>\n<rect x=\"70\" y=\"30\" width=\"540\" height=\"340\" "
               "fill=\"none\" stroke=\"#888\"/>\n");
    for (double e = a.x0; e <= a.x1; e++)
        fprintf(f, "<text x=\"%.1f\" y=\"386\" text-anchor=\"middle\">1e%.0f B</text>\n",
                px(&a, pow(10, e)), e);
    for (double e = a.y0; e <= a.y1; e++)
        fprintf(f, "<text x=\"64\" y=\"%.1f\" text-anchor=\"end\">1e%.0f s</text>\n",
                py(&a, pow(10, e)) + 4, e);
    fprintf(f, "<text x=\"340\" y=\"408\" text-anchor=\"middle\">message size (one way, "
               "log scale)</text>\n<text x=\"70\" y=\"20\">one-way time: measured (dots), "
               "built-in affine (grey), best affine (blue), piecewise (red)</text>\n");
    svg_model(f, &a, def, 1, "#999", " stroke-dasharray=\"5,4\"", pp);
    svg_model(f, &a, aff, 1, "#2050d0", "", pp);
    svg_model(f, &a, seg, nseg, "#d02020", "", pp);
    for (int i = 0; i < pp->n; i++)
        fprintf(f, "<circle cx=\"%.1f\" cy=\"%.1f\" r=\"3\" fill=\"black\"/>\n",
                px(&a, pp->size[i]), py(&a, pp->time[i]));
    fprintf(f, "</svg>\n");
}

static bool write_outputs(const struct pp_opts *o, const struct pingpong *pp,
                          const struct fit_segment *def, const struct fit_segment *aff,
                          const struct fit_segment *seg, int nseg) {
    struct sim_error err = {0};
    struct outfile out;
    if (!outfile_open(&out, o->out, &err)) goto fail;
    write_yaml(out.f, o, seg, nseg, pp->n);
    if (!outfile_commit(&out, &err)) goto fail;
    if (o->svg) {
        if (!outfile_open(&out, o->svg, &err)) goto fail;
        write_svg(out.f, pp, def, aff, seg, nseg);
        if (!outfile_commit(&out, &err)) goto fail;
    }
    return true;
fail:
    err_print(&err);
    return false;
}

static int parse(struct pp_opts *o, int argc, char **argv) {
    *o = (struct pp_opts){.out = "pingpong.yaml", .as = "inter", .segments = 3};
    int i = 1;
    while (i < argc && strcmp(argv[i], "--")) { /* options, each with its value */
        const char *a = argv[i], *v = i + 1 < argc ? argv[i + 1] : NULL;
        if (!v) break;
        if (!strcmp(a, "-o"))
            o->out = v;
        else if (!strcmp(a, "--svg"))
            o->svg = v;
        else if (!strcmp(a, "--data"))
            o->data = v;
        else if (!strcmp(a, "--as") && (!strcmp(v, "intra") || !strcmp(v, "inter")))
            o->as = v;
        else if (!strcmp(a, "--segments") && atoi(v) >= 1 && atoi(v) <= FIT_MAX_SEGMENTS)
            o->segments = atoi(v);
        else
            return -1;
        i += 2;
    }
    if (i < argc && !strcmp(argv[i], "--")) o->cmd = argv + i + 1;
    return (o->data != NULL) == (o->cmd != NULL && *o->cmd != NULL) ? -1 : 0;
}

int cmd_pingpong(int argc, char **argv) {
    struct pp_opts o;
    if (parse(&o, argc, argv) < 0) {
        fprintf(stderr, "usage: simpi calibrate pingpong [-o FILE.yaml] [--svg FILE.svg] "
                        "[--as intra|inter] [--segments K] -- mpirun -np 2\n"
                        "       simpi calibrate pingpong --data MEASUREMENTS [-o ...]   (SIZE "
                        "SECONDS lines)\n");
        return EXIT_USAGE;
    }
    static struct pingpong pp;
    if (o.data) {
        FILE *f = fopen(o.data, "r");
        if (!f) {
            fprintf(stderr, "simpi calibrate: %s: %s\n", o.data, strerror(errno));
            return EXIT_INPUT_ERROR;
        }
        bool ok = read_points(f, o.data, &pp);
        fclose(f);
        if (!ok) return EXIT_INPUT_ERROR;
    } else if (!run_pingpong(o.cmd, &pp)) {
        return EXIT_INPUT_ERROR;
    }
    struct fit_segment seg[FIT_MAX_SEGMENTS], aff, def;
    int nseg = fit_piecewise(pp.size, pp.time, pp.n, o.segments, 3, seg);
    for (int i = 0; i < nseg; i++)
        if (!isfinite(seg[i].latency) || !isfinite(seg[i].per_byte)) {
            fprintf(stderr,
                    "simpi calibrate: the measurements give no finite model (segment %d); "
                    "check them\n",
                    i + 1);
            return EXIT_INPUT_ERROR;
        }
    fit_line(pp.size, pp.time, 0, pp.n, &aff);
    aff.upto = INFINITY;
    default_model(o.as, &def);
    printf("%d sizes from %.0f B to %.0f B; piecewise model, %d segment(s):\n", pp.n, pp.size[0],
           pp.size[pp.n - 1], nseg);
    for (int i = 0; i < nseg; i++) {
        double lat, bw;
        segment_values(&seg[i], &lat, &bw);
        char upto[32] = "inf";
        if (!isinf(seg[i].upto)) snprintf(upto, sizeof upto, "%.0f B", seg[i].upto);
        printf("  up to %-12s latency %10.3f us  bandwidth %10.3f MB/s  (r = %.5f, %d points)\n",
               upto, lat * 1e6, bw / 1e6, seg[i].r, seg[i].count);
    }
    printf("log error |ln model - ln measured|, as e^err - 1:\n");
    print_error("built-in affine model", &def, 1, &pp);
    print_error("best-fit affine model", &aff, 1, &pp);
    print_error("piecewise model", seg, nseg, &pp);
    warn_poor_fit(seg, nseg, &pp);
    if (!write_outputs(&o, &pp, &def, &aff, seg, nseg)) return EXIT_INPUT_ERROR;
    printf("wrote %s%s%s (use it with --platform)\n", o.out, o.svg ? " and " : "",
           o.svg ? o.svg : "");
    return 0;
}
