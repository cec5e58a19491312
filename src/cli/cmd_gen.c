/* `simpi gen stencil`: writes a synthetic trace of a 2-D five-point stencil:
 * per iteration, a compute burst, halo exchange with the up to four grid
 * neighbours (irecv, isend, waitall) and an allreduce of one double. Records
 * are interleaved iteration by iteration so that replay memory stays bounded. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <zlib.h>

#include "cli/cli.h"
#include "core/units.h"

struct gen_opts {
    long ranks, iters;
    const char *size, *compute, *out;
};

static void grid_shape(long n, long *px, long *py) {
    long best = 1;
    for (long d = 1; d * d <= n; d++)
        if (n % d == 0) best = d;
    *px = n / best;
    *py = best;
}

static void emit_rank_iteration(gzFile f, const struct gen_opts *o, long r, long px, long py) {
    long x = r % px, y = r / px;
    long nb[4] = {x > 0 ? r - 1 : -1, x < px - 1 ? r + 1 : -1, y > 0 ? r - px : -1,
                  y < py - 1 ? r + px : -1};
    gzprintf(f, "%ld compute %s\n", r, o->compute);
    int req = 0;
    for (int k = 0; k < 4; k++)
        if (nb[k] >= 0) gzprintf(f, "%ld irecv %ld %s req=%d\n", r, nb[k], o->size, req++);
    for (int k = 0; k < 4; k++)
        if (nb[k] >= 0) gzprintf(f, "%ld isend %ld %s req=%d\n", r, nb[k], o->size, req++);
    gzprintf(f, "%ld waitall\n%ld allreduce 8B\n", r, r);
}

static int parse(struct gen_opts *o, int argc, char **argv) {
    if (argc < 2 || strcmp(argv[1], "stencil") != 0) return EXIT_USAGE;
    for (int i = 2; i < argc; i++) {
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
        else if (!strcmp(a, "-o") || !strcmp(a, "--output"))
            o->out = v;
        else
            return EXIT_USAGE;
        i++;
    }
    int64_t sz;
    simtime_t t;
    if (o->ranks < 1 || o->ranks > INT32_MAX || o->iters < 0 ||
        !units_parse_size(o->size, true, false, &sz, NULL) ||
        !units_parse_time(o->compute, &t, NULL))
        return EXIT_USAGE;
    return 0;
}

int cmd_gen(int argc, char **argv) {
    struct gen_opts o = {0, 0, "8KiB", "1ms", "-"};
    if (parse(&o, argc, argv)) {
        fprintf(stderr, "usage: simpi gen stencil --ranks N --iters K [--size 8KiB] "
                        "[--compute 1ms] [-o FILE[.gz]]\n");
        return EXIT_USAGE;
    }
    bool gz = strlen(o.out) > 3 && !strcmp(o.out + strlen(o.out) - 3, ".gz");
    gzFile f = !strcmp(o.out, "-") ? gzdopen(1, "wT") : gzopen(o.out, gz ? "wb6" : "wT");
    if (!f) {
        fprintf(stderr, "simpi: error: cannot write %s\n", o.out);
        return EXIT_INPUT_ERROR;
    }
    long px, py;
    grid_shape(o.ranks, &px, &py);
    gzprintf(f,
             "simpi-trace 1\nranks %ld\n# 2-D stencil %ldx%ld, %ld iterations, halo %s, "
             "compute %s\n",
             o.ranks, px, py, o.iters, o.size, o.compute);
    for (long it = 0; it < o.iters; it++)
        for (long r = 0; r < o.ranks; r++)
            emit_rank_iteration(f, &o, r, px, py);
    if (gzclose(f) != Z_OK) {
        fprintf(stderr, "simpi: error: writing %s failed\n", o.out);
        return EXIT_INPUT_ERROR;
    }
    return 0;
}
