/* SPDX-License-Identifier: BSD-3-Clause */
/* `simpi gen stencil` (`simpi gen OP`, collectives: gen_coll.c): writes a synthetic trace of a 2-D
 * five-point stencil: per iteration, a compute burst, halo exchange with the up to four grid
 * neighbours (irecv, isend, waitall) and an allreduce of one double.
 * Native output interleaves records iteration by iteration so that replay
 * memory stays bounded; --format simgrid writes the same program as SimGrid
 * time-independent per-rank traces plus their description file, so that
 * SMPI can replay it (bench/compare-smpi). */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include <zlib.h>

#include "cli/cli.h"
#include "core/outfile.h"
#include "core/units.h"

struct gen_opts {
    long ranks, iters;
    const char *size, *compute, *out, *format, *allreduce;
    int64_t size_bytes, allreduce_bytes;
    simtime_t compute_ps;
    double flop_rate; /* simgrid: flops per second of the traced host */
};

struct stencil {
    long px, py;
};

static void grid_shape(long n, struct stencil *g) {
    long best = 1;
    for (long d = 1; d * d <= n; d++)
        if (n % d == 0) best = d;
    g->px = n / best;
    g->py = best;
}

/* The up to four neighbours of rank r (-1 where the grid ends). */
static void neighbours(const struct stencil *g, long r, long nb[4]) {
    long x = r % g->px, y = r / g->px;
    nb[0] = x > 0 ? r - 1 : -1;
    nb[1] = x < g->px - 1 ? r + 1 : -1;
    nb[2] = y > 0 ? r - g->px : -1;
    nb[3] = y < g->py - 1 ? r + g->px : -1;
}

static void emit_native(gzFile f, const struct gen_opts *o, const struct stencil *g, long r) {
    long nb[4];
    neighbours(g, r, nb);
    gzprintf(f, "%ld compute %s\n", r, o->compute);
    int req = 0;
    for (int k = 0; k < 4; k++)
        if (nb[k] >= 0) gzprintf(f, "%ld irecv %ld %s req=%d\n", r, nb[k], o->size, req++);
    for (int k = 0; k < 4; k++)
        if (nb[k] >= 0) gzprintf(f, "%ld isend %ld %s req=%d\n", r, nb[k], o->size, req++);
    gzprintf(f, "%ld waitall\n", r);
    if (o->allreduce_bytes > 0)
        gzprintf(f, "%ld allreduce %lld\n", r, (long long)o->allreduce_bytes);
}

static void emit_simgrid(FILE *f, const struct gen_opts *o, const struct stencil *g, long r) {
    long nb[4];
    neighbours(g, r, nb);
    fprintf(f, "%ld compute %.0f\n", r, simtime_to_seconds(o->compute_ps) * o->flop_rate);
    for (int k = 0; k < 4; k++)
        if (nb[k] >= 0) fprintf(f, "%ld irecv %ld 0 %lld\n", r, nb[k], (long long)o->size_bytes);
    for (int k = 0; k < 4; k++)
        if (nb[k] >= 0) fprintf(f, "%ld isend %ld 0 %lld\n", r, nb[k], (long long)o->size_bytes);
    fprintf(f, "%ld waitall\n", r);
    if (o->allreduce_bytes > 0)
        fprintf(f, "%ld allreduce %lld 0\n", r, (long long)o->allreduce_bytes);
}

static int parse(struct gen_opts *o, int argc, char **argv) {
    if (argc < 2 || strcmp(argv[1], "stencil") != 0) return EXIT_USAGE;
    for (int i = 2; i < argc; i += 2) {
        const char *a = argv[i], *v = i + 1 < argc ? argv[i + 1] : NULL;
        if (!v) return EXIT_USAGE;
        if (!strcmp(a, "--ranks"))
            o->ranks = atol(v);
        else if (!strcmp(a, "--iters"))
            o->iters = atol(v);
        else if (!strcmp(a, "--size"))
            o->size = v;
        else if (!strcmp(a, "--compute"))
            o->compute = v;
        else if (!strcmp(a, "--allreduce"))
            o->allreduce = v;
        else if (!strcmp(a, "--format"))
            o->format = v;
        else if (!strcmp(a, "-o") || !strcmp(a, "--output"))
            o->out = v;
        else
            return EXIT_USAGE;
    }
    if (o->ranks < 1 || o->ranks > INT32_MAX || o->iters < 0 ||
        !units_parse_size(o->size, true, false, &o->size_bytes, NULL) ||
        !units_parse_time(o->compute, &o->compute_ps, NULL) ||
        !units_parse_size(o->allreduce, true, false, &o->allreduce_bytes, NULL))
        return EXIT_USAGE;
    if (strcmp(o->format, "native") && strcmp(o->format, "simgrid")) return EXIT_USAGE;
    if (!strcmp(o->format, "simgrid") && !strcmp(o->out, "-")) return EXIT_USAGE;
    return 0;
}

/* The native trace, through zlib (plain or .gz) into an atomic output
 * file; every write is checked. */
static int write_native(const struct gen_opts *o, const struct stencil *g) {
    bool gz = strlen(o->out) > 3 && !strcmp(o->out + strlen(o->out) - 3, ".gz");
    struct outfile out;
    struct sim_error err = {0};
    if (!outfile_open(&out, o->out, &err)) {
        err_print(&err);
        return EXIT_INPUT_ERROR;
    }
    fflush(out.f);
    gzFile f = gzdopen(dup(fileno(out.f)), gz ? "wb6" : "wT");
    if (!f) {
        outfile_discard(&out);
        fprintf(stderr, "simpi: error: cannot write %s: %s\n", o->out, strerror(errno));
        return EXIT_INPUT_ERROR;
    }
    gzprintf(f,
             "simpi-trace 1\nranks %ld\n# 2-D stencil %ldx%ld, %ld iterations, halo %s, "
             "compute %s\n",
             o->ranks, g->px, g->py, o->iters, o->size, o->compute);
    for (long it = 0; it < o->iters; it++)
        for (long r = 0; r < o->ranks; r++)
            emit_native(f, o, g, r);
    errno = 0;
    if (gzclose(f) != Z_OK) {
        fprintf(stderr, "simpi: error: cannot write %s: %s\n", o->out,
                errno ? strerror(errno) : "compression error");
        outfile_discard(&out);
        return EXIT_INPUT_ERROR;
    }
    if (outfile_commit(&out, &err)) return 0;
    err_print(&err);
    return EXIT_INPUT_ERROR;
}

/* Writes one file of the SimGrid form atomically; false (after printing
 * why) on any failed write. */
static bool write_simgrid_rank(const struct gen_opts *o, const struct stencil *g, long r,
                               const char *path) {
    struct outfile out;
    struct sim_error err = {0};
    if (!outfile_open(&out, path, &err)) {
        err_print(&err);
        return false;
    }
    fprintf(out.f, "%ld init\n", r);
    for (long it = 0; it < o->iters; it++)
        emit_simgrid(out.f, o, g, r);
    fprintf(out.f, "%ld finalize\n", r);
    if (outfile_commit(&out, &err)) return true;
    err_print(&err);
    return false;
}

/* DIR/rank<R>.txt per rank and DIR/description listing them (absolute paths
 * are not needed by SMPI; paths are relative to where smpirun runs, so the
 * description uses DIR as given). Every write is checked. */
static int write_simgrid(const struct gen_opts *o, const struct stencil *g) {
    if (mkdir(o->out, 0777) != 0 && errno != EEXIST) {
        fprintf(stderr, "simpi: error: cannot create directory %s: %s\n", o->out, strerror(errno));
        return EXIT_INPUT_ERROR;
    }
    char path[4096];
    snprintf(path, sizeof path, "%s/description", o->out);
    struct outfile desc;
    struct sim_error err = {0};
    if (!outfile_open(&desc, path, &err)) {
        err_print(&err);
        return EXIT_INPUT_ERROR;
    }
    for (long r = 0; r < o->ranks; r++) {
        snprintf(path, sizeof path, "%s/rank%ld.txt", o->out, r);
        fprintf(desc.f, "%s\n", path);
        if (!write_simgrid_rank(o, g, r, path)) {
            outfile_discard(&desc);
            return EXIT_INPUT_ERROR;
        }
    }
    if (outfile_commit(&desc, &err)) return 0;
    err_print(&err);
    return EXIT_INPUT_ERROR;
}

int cmd_gen(int argc, char **argv) {
    if (argc >= 2 && cli_coll_kind(argv[1]) >= 0) return cmd_gen_collective(argc, argv);
    struct gen_opts o = {.size = "8KiB",
                         .compute = "1ms",
                         .out = "-",
                         .format = "native",
                         .allreduce = "8B",
                         .flop_rate = 1e9};
    if (parse(&o, argc, argv)) {
        fprintf(stderr, "usage: simpi gen stencil --ranks N --iters K [--size 8KiB] "
                        "[--compute 1ms] [--allreduce 8B] [-o FILE[.gz]]\n"
                        "       simpi gen stencil ... --format simgrid -o DIR   (SMPI "
                        "time-independent traces, compute in flops at 1 Gf/s)\n");
        return EXIT_USAGE;
    }
    struct stencil g;
    grid_shape(o.ranks, &g);
    return !strcmp(o.format, "simgrid") ? write_simgrid(&o, &g) : write_native(&o, &g);
}
